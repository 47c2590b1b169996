use sqlx::FromRow;
use tracing::instrument;
use uuid::Uuid;

use model::{marketplace::rules::TaskDraft, states::TaskStatus};

use crate::{
    db::{BeginWrite, Db, Timestamp, new_id},
    insert_notification,
    notifications::{Notice, NotificationRow},
    on_pool,
};

/// A task with what every listing shows of its poster; one query, no N+1.
#[derive(Clone, Debug, FromRow)]
pub struct TaskRow {
    pub id: Uuid,
    pub poster_id: Uuid,
    pub title: String,
    pub description: String,
    pub category_id: i64,
    pub location: String,
    pub budget_cents: i64,
    pub currency: String,
    pub due_date: String,
    #[sqlx(try_from = "String")]
    pub status: TaskStatus,
    pub offer_count: i64,
    pub assigned_tasker_id: Option<Uuid>,
    /// Set while a dispute of the task is open (auto-release and the cancellation lapse wait).
    pub open_dispute_id: Option<Uuid>,
    pub lat: Option<f64>,
    pub lon: Option<f64>,
    pub remote: bool,
    pub created_at: Timestamp,
    pub updated_at: Timestamp,
    pub poster_first_name: String,
    pub poster_last_name: String,
    pub poster_avatar_url: Option<String>,
    /// The oldest of the task's photos, which task cards show.
    pub first_photo_id: Option<Uuid>,
    /// How well the task matches browse's search, scaled to an integer (Best match only).
    #[sqlx(default)]
    pub search_rank: i64,
}

pub(super) const TASK_COLUMNS: &str =
    "t.id, t.poster_id, t.title, t.description, t.category_id, t.location, t.budget_cents,
    t.currency, t.due_date, t.status, t.offer_count, t.assigned_tasker_id, t.open_dispute_id, t.lat, t.lon, t.remote,
    t.created_at, t.updated_at,
    p.first_name as poster_first_name, p.last_name as poster_last_name, p.avatar_url as poster_avatar_url,
    (select ph.id from task_photos ph where ph.task_id = t.id order by ph.id limit 1) as first_photo_id";

/// What the store keeps for case-insensitive search over title and description.
pub fn search_text(title: &str, description: &str) -> String {
    format!("{title} {description}").to_lowercase()
}

/// The location as the browse filter matches it: lower-cased by Rust (Unicode), on both backends.
pub fn location_search(location: &str) -> String {
    location.to_lowercase()
}

/// Inserts an open task (also what the demo seed calls) and, in the same
/// transaction, its job in the alert-matching outbox, so a crash after the
/// commit cannot lose its alerts. `created_at` orders the browse list.
#[instrument(skip_all)]
pub async fn create_task(db: &Db, poster_id: Uuid, draft: &TaskDraft, created_at: Timestamp) -> sqlx::Result<Uuid> {
    let id = new_id();
    let (lat, lon) = draft.coordinates.unzip();
    on_pool!(db, |pool| {
        async {
            let mut tx = pool.begin_write().await?;
            sqlx::query(
                "insert into tasks (id, poster_id, title, description, search_text, category_id, location, budget_cents,
                                    due_date, status, created_at, updated_at, location_search, lat, lon, remote)
                 values ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'open', $10, $10, $11, $12, $13, $14)",
            )
            .bind(id)
            .bind(poster_id)
            .bind(&draft.title)
            .bind(&draft.description)
            .bind(search_text(&draft.title, &draft.description))
            .bind(draft.category_id)
            .bind(&draft.location)
            .bind(draft.budget_cents)
            .bind(draft.due_date_text())
            .bind(created_at)
            .bind(location_search(&draft.location))
            .bind(lat)
            .bind(lon)
            .bind(draft.remote)
            .execute(&mut *tx)
            .await?;
            sqlx::query("insert into task_alert_jobs (task_id, created_at) values ($1, $2)")
                .bind(id)
                .bind(created_at)
                .execute(&mut *tx)
                .await?;
            tx.commit().await
        }
        .await
    })?;
    Ok(id)
}

#[instrument(skip_all)]
pub async fn task(db: &Db, id: Uuid) -> sqlx::Result<Option<TaskRow>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, TaskRow>(sqlx::AssertSqlSafe(format!(
            "select {TASK_COLUMNS} from tasks t join profiles p on p.id = t.poster_id where t.id = $1"
        )))
        .bind(id)
        .fetch_optional(pool)
        .await
    })
}

/// Open tasks of one category, newest first, without `exclude`.
#[instrument(skip_all)]
pub async fn similar_open_tasks(db: &Db, category_id: i64, exclude: Uuid, limit: i64) -> sqlx::Result<Vec<TaskRow>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, TaskRow>(sqlx::AssertSqlSafe(format!(
            "select {TASK_COLUMNS} from tasks t join profiles p on p.id = t.poster_id
             where t.status = 'open' and t.category_id = $1 and t.id <> $2
             order by t.created_at desc, t.id desc
             limit $3"
        )))
        .bind(category_id)
        .bind(exclude)
        .bind(limit)
        .fetch_all(pool)
        .await
    })
}

/// A sitemap entry: an open task and when it last changed.
#[derive(Clone, Debug, FromRow)]
pub struct TaskLink {
    pub id: Uuid,
    pub updated_at: Timestamp,
}

/// A suspended account's open tasks leave browse and the sitemap (they come back when the
/// suspension ends): this names the poster of `t` when suspended; callers add the end date.
pub(super) const SUSPENDED_POSTER: &str =
    "select 1 from users u where u.id = t.poster_id and u.suspended_at is not null";

/// Open tasks for the sitemap, newest first (the browse index's order).
#[instrument(skip_all)]
pub async fn open_task_links(db: &Db, limit: i64) -> sqlx::Result<Vec<TaskLink>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, TaskLink>(sqlx::AssertSqlSafe(format!(
            "select t.id, t.updated_at from tasks t
             where t.status = 'open'
               and not exists ({SUSPENDED_POSTER} and (u.suspended_until is null or u.suspended_until > $2))
             order by t.created_at desc, t.id desc limit $1"
        )))
        .bind(limit)
        .bind(Timestamp::now())
        .fetch_all(pool)
        .await
    })
}

/// My Tasks: everything the user posted, any status, newest first.
#[instrument(skip_all)]
pub async fn tasks_posted_by(db: &Db, poster_id: Uuid, limit: i64) -> sqlx::Result<Vec<TaskRow>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, TaskRow>(sqlx::AssertSqlSafe(format!(
            "select {TASK_COLUMNS} from tasks t join profiles p on p.id = t.poster_id
             where t.poster_id = $1
             order by t.created_at desc, t.id desc
             limit $2"
        )))
        .bind(poster_id)
        .bind(limit)
        .fetch_all(pool)
        .await
    })
}

/// Replaces the editable fields of an open task of this poster; false when it is not open (or not theirs).
#[instrument(skip_all)]
pub async fn update_open_task(
    db: &Db,
    id: Uuid,
    poster_id: Uuid,
    draft: &TaskDraft,
    now: Timestamp,
) -> sqlx::Result<bool> {
    let affected = on_pool!(db, |pool| {
        sqlx::query(
            "update tasks set title = $3, description = $4, search_text = $5, category_id = $6, location = $7,
                              budget_cents = $8, due_date = $9, updated_at = $10, location_search = $11,
                              lat = $12, lon = $13, remote = $14
             where id = $1 and poster_id = $2 and status = 'open'",
        )
        .bind(id)
        .bind(poster_id)
        .bind(&draft.title)
        .bind(&draft.description)
        .bind(search_text(&draft.title, &draft.description))
        .bind(draft.category_id)
        .bind(&draft.location)
        .bind(draft.budget_cents)
        .bind(draft.due_date_text())
        .bind(now)
        .bind(location_search(&draft.location))
        .bind(draft.coordinates.map(|(lat, _)| lat))
        .bind(draft.coordinates.map(|(_, lon)| lon))
        .bind(draft.remote)
        .execute(pool)
        .await
        .map(|done| done.rows_affected())
    })?;
    Ok(affected == 1)
}

/// Cancels an open task; its pending offers become `not_selected` and each
/// tasker gets the `notice`, all in one transaction. `None` when the task
/// was not open (or not this poster's).
#[instrument(skip_all)]
pub async fn cancel_open_task(
    db: &Db,
    id: Uuid,
    poster_id: Uuid,
    notice: &Notice,
    reason: &str,
    now: Timestamp,
) -> sqlx::Result<Option<Vec<NotificationRow>>> {
    on_pool!(db, |pool| {
        async {
            let mut tx = pool.begin_write().await?;
            let cancelled = sqlx::query(
                "update tasks set status = 'cancelled', cancelled_at = $3, updated_at = $3,
                                  cancellation_reason = $4, cancellation_attributed_to = 'poster'
                 where id = $1 and poster_id = $2 and status = 'open'",
            )
            .bind(id)
            .bind(poster_id)
            .bind(now)
            .bind(reason)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if cancelled == 0 {
                return Ok(None);
            }
            let taskers: Vec<Uuid> = sqlx::query_scalar(
                "update offers set status = 'not_selected', updated_at = $2
                 where task_id = $1 and status = 'pending'
                 returning tasker_id",
            )
            .bind(id)
            .bind(now)
            .fetch_all(&mut *tx)
            .await?;
            let mut notifications = Vec::with_capacity(taskers.len());
            for tasker_id in taskers {
                let row = notice.to(tasker_id, now);
                insert_notification!(tx, &row)?;
                notifications.push(row);
            }
            tx.commit().await?;
            Ok(Some(notifications))
        }
        .await
    })
}

/// Whether a task with this id exists (in any status), by primary key.
#[instrument(skip_all)]
pub async fn task_exists(db: &Db, id: Uuid) -> sqlx::Result<bool> {
    let found = on_pool!(db, |pool| {
        sqlx::query_scalar::<_, i32>("select 1 from tasks where id = $1").bind(id).fetch_optional(pool).await
    })?;
    Ok(found.is_some())
}

/// One viewer of one task on one UTC day (days since the Unix epoch): a view counts once.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TaskView {
    pub task_id: Uuid,
    pub viewer_key: String,
    pub day: i64,
}

/// Rows per insert: three parameters each, well inside both engines' limits.
const VIEWS_PER_INSERT: usize = 300;

/// Stores views, once each per task, viewer and day (a view already stored is skipped), in one
/// transaction of multi-row inserts; returns how many were new.
#[instrument(skip_all, fields(views = views.len()))]
pub async fn record_views(db: &Db, views: &[TaskView]) -> sqlx::Result<u64> {
    on_pool!(db, |pool| {
        async {
            let mut tx = pool.begin_write().await?;
            let mut added = 0;
            for chunk in views.chunks(VIEWS_PER_INSERT) {
                let rows: Vec<String> =
                    (0..chunk.len()).map(|n| format!("(${}, ${}, ${})", 3 * n + 1, 3 * n + 2, 3 * n + 3)).collect();
                let sql = format!(
                    "insert into task_views (task_id, viewer_key, day) values {} on conflict do nothing",
                    rows.join(", ")
                );
                let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
                for view in chunk {
                    query = query.bind(view.task_id).bind(view.viewer_key.as_str()).bind(view.day);
                }
                added += query.execute(&mut *tx).await?.rows_affected();
            }
            tx.commit().await?;
            Ok(added)
        }
        .await
    })
}

#[instrument(skip_all)]
pub async fn view_count(db: &Db, task_id: Uuid) -> sqlx::Result<i64> {
    on_pool!(db, |pool| {
        sqlx::query_scalar::<_, i64>("select count(*) from task_views where task_id = $1")
            .bind(task_id)
            .fetch_one(pool)
            .await
    })
}

/// Tasks this user completed as the assigned tasker.
#[instrument(skip_all)]
pub async fn completed_count(db: &Db, tasker_id: Uuid) -> sqlx::Result<i64> {
    on_pool!(db, |pool| {
        sqlx::query_scalar::<_, i64>(
            "select count(*) from tasks where assigned_tasker_id = $1 and status = 'completed'",
        )
        .bind(tasker_id)
        .fetch_one(pool)
        .await
    })
}

/// The tasks a tasker has offered on (for My Tasks), in one query.
#[instrument(skip_all)]
pub async fn tasks_offered_on_by(db: &Db, tasker_id: Uuid) -> sqlx::Result<Vec<TaskRow>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, TaskRow>(sqlx::AssertSqlSafe(format!(
            "select {TASK_COLUMNS} from tasks t join profiles p on p.id = t.poster_id
             where t.id in (select task_id from offers where tasker_id = $1)"
        )))
        .bind(tasker_id)
        .fetch_all(pool)
        .await
    })
}
