//! When each user was last seen (their last open socket closed), and who may see it: the other
//! party of a task they are assigned to together. Online now is not stored (the hub knows it).

use tracing::instrument;
use uuid::Uuid;

use crate::{
    db::{Db, Timestamp},
    on_pool,
};

/// Moves the user's last-seen time forward to `at` (a later close on another node wins).
#[instrument(skip_all)]
pub async fn record(db: &Db, user_id: Uuid, at: Timestamp) -> sqlx::Result<()> {
    on_pool!(db, |pool| {
        sqlx::query(
            "insert into user_last_seen (user_id, seen_at) values ($1, $2)
             on conflict (user_id) do update set seen_at = excluded.seen_at
             where user_last_seen.seen_at < excluded.seen_at",
        )
        .bind(user_id)
        .bind(at)
        .execute(pool)
        .await
        .map(|_| ())
    })
}

#[instrument(skip_all)]
pub async fn last_seen(db: &Db, user_id: Uuid) -> sqlx::Result<Option<Timestamp>> {
    on_pool!(db, |pool| {
        sqlx::query_scalar::<_, Timestamp>("select seen_at from user_last_seen where user_id = $1")
            .bind(user_id)
            .fetch_optional(pool)
            .await
    })
}

/// Whether `a` and `b` are the poster and the assigned tasker of a task under way (assigned or
/// waiting for release), either way round.
#[instrument(skip_all)]
pub async fn parties_of_a_job_under_way(db: &Db, a: Uuid, b: Uuid) -> sqlx::Result<bool> {
    let found = on_pool!(db, |pool| {
        sqlx::query_scalar::<_, i32>(
            "select 1 from tasks
             where ((poster_id = $1 and assigned_tasker_id = $2) or (poster_id = $2 and assigned_tasker_id = $1))
               and status in ('assigned', 'completion_requested')
             limit 1",
        )
        .bind(a)
        .bind(b)
        .fetch_optional(pool)
        .await
    })?;
    Ok(found.is_some())
}
