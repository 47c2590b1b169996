//! A tasker's track record as their profile states it: tasks completed and
//! tasks cancelled on their account.

use tracing::instrument;
use uuid::Uuid;

use crate::{
    db::{Db, Timestamp},
    on_pool,
};

/// A tasker's record since `since`: tasks assigned to them that they completed, and those
/// cancelled on their account (`cancellation_attributed_to = 'tasker'`). Cancellations
/// attributed to the poster or nobody count neither way.
#[instrument(skip_all)]
pub async fn completion_counts(db: &Db, tasker_id: Uuid, since: Timestamp) -> sqlx::Result<(i64, i64)> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, (i64, i64)>(
            "select cast(coalesce(sum(case when status = 'completed' then 1 else 0 end), 0) as bigint),
                    cast(coalesce(sum(case when status = 'cancelled' then 1 else 0 end), 0) as bigint)
             from tasks
             where assigned_tasker_id = $1
               and ((status = 'completed' and completed_at >= $2)
                    or (status = 'cancelled' and cancellation_attributed_to = 'tasker' and cancelled_at >= $2))",
        )
        .bind(tasker_id)
        .bind(since)
        .fetch_one(pool)
        .await
    })
}
