//! Reviews both ways after completion. A review stays hidden until the other
//! party has reviewed too, or 14 days have passed since completion, so
//! neither side can answer the other's review in kind.

use std::time::Duration;

use sqlx::FromRow;
use tracing::instrument;
use uuid::Uuid;

use crate::{
    Position,
    db::{BeginWrite, Db, Timestamp, is_unique_violation},
    insert_notification,
    notifications::NotificationRow,
    on_pool,
};

pub const HIDDEN_FOR: Duration = Duration::from_secs(14 * 24 * 3600);

#[derive(Clone, Debug, FromRow)]
pub struct ReviewRow {
    pub id: Uuid,
    pub task_id: Uuid,
    pub reviewer_id: Uuid,
    pub reviewee_id: Uuid,
    pub rating: i64,
    /// Null once a moderator removed it (the text is kept for the audit).
    pub body: Option<String>,
    pub removed: bool,
    pub created_at: Timestamp,
}

pub(super) const VISIBLE: &str = "((select count(*) from reviews other where other.task_id = r.task_id) = 2
                        or exists (select 1 from tasks t where t.id = r.task_id and t.completed_at <= $2))";

/// Inserts the review and the reviewee's notification together; false when
/// this reviewer already reviewed the task.
#[instrument(skip_all)]
pub async fn insert_review(db: &Db, review: &ReviewRow, notification: &NotificationRow) -> sqlx::Result<bool> {
    let result: sqlx::Result<()> = on_pool!(db, |pool| {
        async {
            let mut tx = pool.begin_write().await?;
            sqlx::query(
                "insert into reviews (id, task_id, reviewer_id, reviewee_id, rating, body, created_at)
                 values ($1, $2, $3, $4, $5, $6, $7)",
            )
            .bind(review.id)
            .bind(review.task_id)
            .bind(review.reviewer_id)
            .bind(review.reviewee_id)
            .bind(review.rating)
            .bind(&review.body)
            .bind(review.created_at)
            .execute(&mut *tx)
            .await?;
            insert_notification!(tx, notification)?;
            tx.commit().await
        }
        .await
    });
    match result {
        Ok(()) => Ok(true),
        Err(error) if is_unique_violation(&error) => Ok(false),
        Err(error) => Err(error),
    }
}

/// The task's reviews anyone may read as of `now`, plus `viewer`'s own; a removed review's text
/// only `with_removed` (for an operator).
#[instrument(skip_all)]
pub async fn visible_reviews_for_task(
    db: &Db,
    task_id: Uuid,
    viewer: Option<Uuid>,
    with_removed: bool,
    now: Timestamp,
) -> sqlx::Result<Vec<ReviewRow>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, ReviewRow>(sqlx::AssertSqlSafe(format!(
            "select r.id, r.task_id, r.reviewer_id, r.reviewee_id, r.rating,
                    case when r.removed_at is null or $4 then r.body end as body, r.removed_at is not null as removed,
                    r.created_at
             from reviews r
             where r.task_id = $1 and ({VISIBLE} or r.reviewer_id = $3)
             order by r.id"
        )))
        .bind(task_id)
        .bind(now.minus(HIDDEN_FOR))
        .bind(viewer.unwrap_or_default())
        .bind(with_removed)
        .fetch_all(pool)
        .await
    })
}

/// Average rating and number of visible reviews about `user_id`.
#[instrument(skip_all)]
pub async fn rating_of(db: &Db, user_id: Uuid, now: Timestamp) -> sqlx::Result<(Option<f64>, i64)> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, (Option<f64>, i64)>(sqlx::AssertSqlSafe(format!(
            // Postgres averages bigints as numeric and counts as bigint: cast both ways alike.
            "select cast(avg(r.rating) as double precision), cast(count(*) as bigint) from reviews r
             where r.reviewee_id = $1 and {VISIBLE}"
        )))
        .bind(user_id)
        .bind(now.minus(HIDDEN_FOR))
        .fetch_one(pool)
        .await
    })
}

/// A visible review about someone, with what its author and task are called.
#[derive(Clone, Debug, FromRow)]
pub struct ProfileReviewRow {
    pub id: Uuid,
    pub rating: i64,
    pub body: Option<String>,
    pub removed: bool,
    pub created_at: Timestamp,
    pub task_title: String,
    pub reviewer_id: Uuid,
    pub reviewer_first_name: String,
    pub reviewer_last_name: String,
    pub reviewer_avatar_url: Option<String>,
}

/// The visible reviews about `user_id`, newest first, older than `before`
/// (from the newest when `None`), for their public profile; a removed review's text only
/// `with_removed` (for an operator).
#[instrument(skip_all)]
pub async fn visible_reviews_about(
    db: &Db,
    user_id: Uuid,
    now: Timestamp,
    before: Option<Position>,
    limit: i64,
    with_removed: bool,
) -> sqlx::Result<Vec<ProfileReviewRow>> {
    let before = before.unwrap_or(Position { created_at: Timestamp(i64::MAX), id: Uuid::max() });
    on_pool!(db, |pool| {
        sqlx::query_as::<_, ProfileReviewRow>(sqlx::AssertSqlSafe(format!(
            "select r.id, r.rating, case when r.removed_at is null or $6 then r.body end as body,
                    r.removed_at is not null as removed, r.created_at, t.title as task_title, r.reviewer_id,
                    p.first_name as reviewer_first_name, p.last_name as reviewer_last_name,
                    p.avatar_url as reviewer_avatar_url
             from reviews r
             join tasks t on t.id = r.task_id
             join profiles p on p.id = r.reviewer_id
             where r.reviewee_id = $1 and {VISIBLE}
               and (r.created_at < $4 or (r.created_at = $4 and r.id < $5))
             order by r.created_at desc, r.id desc
             limit $3"
        )))
        .bind(user_id)
        .bind(now.minus(HIDDEN_FOR))
        .bind(limit)
        .bind(before.created_at)
        .bind(before.id)
        .bind(with_removed)
        .fetch_all(pool)
        .await
    })
}
