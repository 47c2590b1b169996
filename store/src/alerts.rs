//! Task alerts, their matching index, the matching outbox and the matches.

use sqlx::FromRow;
use tracing::instrument;
use uuid::Uuid;

use model::{
    alerts::{AlertDraft, MAX_ALERTS_PER_USER, index_keys},
    states::TaskStatus,
};

use crate::{
    db::{BeginWrite, Db, Timestamp, new_id},
    notifications::{NotificationRow, WriteNotifications},
    on_pool,
};

#[derive(Clone, Debug, FromRow)]
pub struct AlertRow {
    pub id: Uuid,
    pub user_id: Uuid,
    pub name: String,
    pub q: String,
    /// JSON array of category ids.
    pub categories: String,
    pub place_label: Option<String>,
    pub lat: Option<f64>,
    pub lon: Option<f64>,
    pub radius_km: Option<i64>,
    pub remote_ok: bool,
    pub min_budget_cents: Option<i64>,
    pub paused: bool,
    pub created_at: Timestamp,
    pub updated_at: Timestamp,
    /// Tasks matched since the `since` the query was given.
    pub matched_recently: i64,
}

/// SQLite: bind parameters stay far below its limit (32,766).
const MATCHES_PER_STATEMENT: usize = 500;

const ALERT_COLUMNS: &str = "a.id, a.user_id, a.name, a.q, a.categories, a.place_label, a.lat, a.lon, a.radius_km,
    a.remote_ok, a.min_budget_cents, a.paused, a.created_at, a.updated_at,
    (select count(*) from task_alert_matches m where m.alert_id = a.id and m.matched_at >= $2) as matched_recently";

/// Binds an alert's row the way both its insert and its update number it: $1 id, $2 user,
/// $3–$12 the alert's fields, $13 now.
macro_rules! bind_alert_row {
    ($query:expr, $id:expr, $user_id:expr, $draft:expr, $now:expr) => {{
        let draft: &AlertDraft = $draft;
        $query
            .bind($id)
            .bind($user_id)
            .bind(&draft.name)
            .bind(&draft.q)
            .bind(categories_json(draft))
            .bind(draft.place.as_ref().map(|place| place.label.as_str()))
            .bind(draft.place.as_ref().map(|place| place.lat))
            .bind(draft.place.as_ref().map(|place| place.lon))
            .bind(draft.radius_km)
            .bind(draft.remote_ok)
            .bind(draft.min_budget_cents)
            .bind(draft.paused)
            .bind($now)
    }};
}

/// Index rows per statement: three binds each, far below both databases' limits.
const KEYS_PER_STATEMENT: usize = 300;

/// Writes the alert's `task_alert_keys` rows (category × grid cell) in `$tx`, many per statement.
macro_rules! insert_index_keys {
    ($tx:expr, $id:expr, $draft:expr) => {
        for chunk in index_keys($draft).chunks(KEYS_PER_STATEMENT) {
            let values: Vec<String> =
                (0..chunk.len()).map(|i| format!("(${}, ${}, $1)", 2 * i + 2, 2 * i + 3)).collect();
            let sql = format!("insert into task_alert_keys (category_id, cell, alert_id) values {}", values.join(", "));
            let mut query = sqlx::query(sqlx::AssertSqlSafe(sql)).bind($id);
            for (category_id, cell) in chunk {
                query = query.bind(category_id).bind(cell);
            }
            query.execute(&mut *$tx).await?;
        }
    };
}

fn categories_json(draft: &AlertDraft) -> String {
    serde_json::to_string(&draft.categories).unwrap_or_else(|_| "[]".into())
}

/// The user's alerts, oldest first, each with its matches since `since`.
#[instrument(skip_all)]
pub async fn alerts_of(db: &Db, user_id: Uuid, since: Timestamp) -> sqlx::Result<Vec<AlertRow>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, AlertRow>(sqlx::AssertSqlSafe(format!(
            "select {ALERT_COLUMNS} from task_alerts a where a.user_id = $1 order by a.created_at, a.id"
        )))
        .bind(user_id)
        .bind(since)
        .fetch_all(pool)
        .await
    })
}

/// One of the user's alerts; `None` when it does not exist or is someone else's.
#[instrument(skip_all)]
pub async fn alert_of(db: &Db, user_id: Uuid, id: Uuid, since: Timestamp) -> sqlx::Result<Option<AlertRow>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, AlertRow>(sqlx::AssertSqlSafe(format!(
            "select {ALERT_COLUMNS} from task_alerts a where a.user_id = $1 and a.id = $3"
        )))
        .bind(user_id)
        .bind(since)
        .bind(id)
        .fetch_optional(pool)
        .await
    })
}

/// Saves a new alert with its index keys; `None` when the user already has the maximum.
#[instrument(skip_all)]
pub async fn create_alert(db: &Db, user_id: Uuid, draft: &AlertDraft, now: Timestamp) -> sqlx::Result<Option<Uuid>> {
    let id = new_id();
    on_pool!(db, |pool| {
        async {
            let mut tx = pool.begin_write().await?;
            // Locks the user's row (Postgres; SQLite's write lock is already held) so two
            // concurrent creations cannot both see 19 alerts.
            sqlx::query("update users set email_verified = email_verified where id = $1")
                .bind(user_id)
                .execute(&mut *tx)
                .await?;
            let count: i64 = sqlx::query_scalar("select count(*) from task_alerts where user_id = $1")
                .bind(user_id)
                .fetch_one(&mut *tx)
                .await?;
            if count >= MAX_ALERTS_PER_USER {
                return Ok(None);
            }
            let insert = sqlx::query(
                "insert into task_alerts (id, user_id, name, q, categories, place_label, lat, lon, radius_km,
                                          remote_ok, min_budget_cents, paused, created_at, updated_at)
                 values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13)",
            );
            bind_alert_row!(insert, id, user_id, draft, now).execute(&mut *tx).await?;
            insert_index_keys!(tx, id, draft);
            tx.commit().await?;
            Ok(Some(id))
        }
        .await
    })
}

/// Replaces an alert's fields, and its index keys when `reindex` (what it
/// covers changed); false when it is not this user's.
#[instrument(skip_all)]
pub async fn update_alert(
    db: &Db,
    user_id: Uuid,
    id: Uuid,
    draft: &AlertDraft,
    reindex: bool,
    now: Timestamp,
) -> sqlx::Result<bool> {
    on_pool!(db, |pool| {
        async {
            let mut tx = pool.begin_write().await?;
            let update = sqlx::query(
                "update task_alerts set name = $3, q = $4, categories = $5, place_label = $6, lat = $7, lon = $8,
                                        radius_km = $9, remote_ok = $10, min_budget_cents = $11, paused = $12,
                                        updated_at = $13
                 where id = $1 and user_id = $2",
            );
            let updated = bind_alert_row!(update, id, user_id, draft, now).execute(&mut *tx).await?.rows_affected();
            if updated == 0 {
                return Ok(false);
            }
            if reindex {
                sqlx::query("delete from task_alert_keys where alert_id = $1").bind(id).execute(&mut *tx).await?;
                insert_index_keys!(tx, id, draft);
            }
            tx.commit().await?;
            Ok(true)
        }
        .await
    })
}

/// Deletes one of the user's alerts (its keys and matches go with it); false when not theirs.
#[instrument(skip_all)]
pub async fn delete_alert(db: &Db, user_id: Uuid, id: Uuid) -> sqlx::Result<bool> {
    let affected = on_pool!(db, |pool| {
        sqlx::query("delete from task_alerts where id = $1 and user_id = $2")
            .bind(id)
            .bind(user_id)
            .execute(pool)
            .await
            .map(|done| done.rows_affected())
    })?;
    Ok(affected == 1)
}

/// Tasks waiting in the matching outbox, oldest first.
#[instrument(skip_all)]
pub async fn pending_jobs(db: &Db, limit: i64) -> sqlx::Result<Vec<Uuid>> {
    on_pool!(db, |pool| {
        sqlx::query_scalar::<_, Uuid>("select task_id from task_alert_jobs order by created_at, task_id limit $1")
            .bind(limit)
            .fetch_all(pool)
            .await
    })
}

/// What matching needs of a task.
#[derive(Clone, Debug, FromRow)]
pub struct TaskToMatch {
    pub id: Uuid,
    pub poster_id: Uuid,
    pub title: String,
    pub search_text: String,
    pub category_id: i64,
    pub location: String,
    pub budget_cents: i64,
    #[sqlx(try_from = "String")]
    pub status: TaskStatus,
    pub lat: Option<f64>,
    pub lon: Option<f64>,
    pub remote: bool,
}

#[instrument(skip_all)]
pub async fn task_to_match(db: &Db, task_id: Uuid) -> sqlx::Result<Option<TaskToMatch>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, TaskToMatch>(
            "select id, poster_id, title, search_text, category_id, location, budget_cents, status, lat, lon, remote
             from tasks where id = $1",
        )
        .bind(task_id)
        .fetch_optional(pool)
        .await
    })
}

/// An alert found through the index, before keywords and distance are checked.
#[derive(Clone, Debug, FromRow)]
pub struct Candidate {
    pub id: Uuid,
    pub user_id: Uuid,
    pub name: String,
    pub q: String,
    pub lat: Option<f64>,
    pub lon: Option<f64>,
    pub radius_km: Option<i64>,
}

/// Active alerts of other users indexed under the task's category (or any) and
/// one of its `cells`, whose minimum budget the task meets. The (category, cell) keys are spelled
/// out (`union`: a remote task's two cells are one), so each is one range of the keys' primary index: PostgreSQL made `category_id in
/// (..) and cell in (..)` a range over the categories with the cells as a filter, reading every
/// key of "any category" in the country (tens of thousands at 100k alerts) for each task.
#[instrument(skip_all)]
pub async fn candidates(db: &Db, task: &TaskToMatch, cells: [i64; 2]) -> sqlx::Result<Vec<Candidate>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, Candidate>(
            "with wanted (category_id, cell) as (
                 select 0, $2 union select 0, $3 union select $1, $2 union select $1, $3)
             select a.id, a.user_id, a.name, a.q, a.lat, a.lon, a.radius_km
             from wanted w
             join task_alert_keys k on k.category_id = w.category_id and k.cell = w.cell
             join task_alerts a on a.id = k.alert_id
             where a.paused = false and a.user_id <> $4
               and (a.min_budget_cents is null or a.min_budget_cents <= $5)",
        )
        .bind(task.category_id)
        .bind(cells[0])
        .bind(cells[1])
        .bind(task.poster_id)
        .bind(task.budget_cents)
        .fetch_all(pool)
        .await
    })
}

/// How many `task_alert` notifications each of `users` got since `since` (users with none are left out).
#[instrument(skip_all)]
pub async fn task_alerts_since(
    db: &Db,
    users: &[Uuid],
    since: Timestamp,
) -> sqlx::Result<std::collections::HashMap<Uuid, i64>> {
    const COUNT: &str = "select user_id, count(*) from notifications where type = 'task_alert' and created_at >=";
    let mut counts = std::collections::HashMap::new();
    match db {
        // One array parameter: the same prepared statement for any number of users.
        Db::Postgres(pool) => {
            let rows: Vec<(Uuid, i64)> =
                sqlx::query_as(sqlx::AssertSqlSafe(format!("{COUNT} $1 and user_id = any($2) group by user_id")))
                    .bind(since)
                    .bind(users)
                    .fetch_all(pool)
                    .await?;
            counts.extend(rows);
        }
        Db::Sqlite(pool) => {
            for chunk in users.chunks(MATCHES_PER_STATEMENT) {
                let users = crate::db::sqlite_list(chunk.len());
                let sql = format!("{COUNT} ? and user_id in ({users}) group by user_id");
                let mut query = sqlx::query_as::<_, (Uuid, i64)>(sqlx::AssertSqlSafe(sql)).bind(since);
                for user_id in chunk {
                    query = query.bind(user_id);
                }
                counts.extend(query.fetch_all(pool).await?);
            }
        }
    }
    Ok(counts)
}

/// Records which alerts matched a task, in the caller's transaction, per backend as
/// [`WriteNotifications`] writes the notifications.
trait WriteMatches {
    fn insert_matches(
        &mut self,
        task_id: Uuid,
        alerts: &[Uuid],
        now: Timestamp,
    ) -> impl Future<Output = sqlx::Result<()>> + Send;
}

impl WriteMatches for sqlx::PgConnection {
    async fn insert_matches(&mut self, task_id: Uuid, alerts: &[Uuid], now: Timestamp) -> sqlx::Result<()> {
        sqlx::query(
            "insert into task_alert_matches (alert_id, task_id, matched_at)
                 select alert_id, $1, $2 from unnest($3::uuid[]) as alert_id
                 on conflict do nothing",
        )
        .bind(task_id)
        .bind(now)
        .bind(alerts)
        .execute(&mut *self)
        .await?;
        Ok(())
    }
}

/// Many rows per statement: a popular task can match hundreds of alerts.
impl WriteMatches for sqlx::SqliteConnection {
    async fn insert_matches(&mut self, task_id: Uuid, alerts: &[Uuid], now: Timestamp) -> sqlx::Result<()> {
        for chunk in alerts.chunks(MATCHES_PER_STATEMENT) {
            let sql = format!(
                "insert into task_alert_matches (alert_id, task_id, matched_at) values {} on conflict do nothing",
                crate::db::sqlite_rows(chunk.len(), 3)
            );
            let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
            for alert_id in chunk {
                query = query.bind(alert_id).bind(task_id).bind(now);
            }
            query.execute(&mut *self).await?;
        }
        Ok(())
    }
}

/// Finishes a task's job: takes it out of the outbox, records which alerts
/// matched and writes the notifications, in one transaction. `None` when
/// another worker finished the job first (nothing is written then).
#[instrument(skip_all)]
pub async fn finish_job(
    db: &Db,
    task_id: Uuid,
    matched_alerts: &[Uuid],
    notifications: Vec<NotificationRow>,
    now: Timestamp,
) -> sqlx::Result<Option<Vec<NotificationRow>>> {
    on_pool!(db, |pool| {
        async {
            let mut tx = pool.begin_write().await?;
            let claimed = sqlx::query("delete from task_alert_jobs where task_id = $1")
                .bind(task_id)
                .execute(&mut *tx)
                .await?
                .rows_affected();
            if claimed == 0 {
                return Ok(None);
            }
            tx.insert_matches(task_id, matched_alerts, now).await?;
            tx.insert_notifications(&notifications).await?;
            tx.commit().await?;
            Ok(Some(notifications))
        }
        .await
    })
}
