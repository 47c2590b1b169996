//! The delivery outbox (docs/architecture.md, decision 9): pushes and email lines owed
//! for notifications, written by `insert_notification!` in the notification's
//! transaction. Worker loops on every node claim due rows with a lease, so a
//! row is worked on by one node at a time and a crashed node's rows are taken
//! over when its lease runs out. Claims take row locks with `skip locked` on
//! PostgreSQL; on SQLite the claiming update is atomic (one writer at a time).

use sqlx::FromRow;
use tracing::instrument;
use uuid::Uuid;

use model::states::{EmailLineStatus, NotificationKind, PushStatus};

use crate::{
    db::{BeginWrite, Db, Timestamp},
    on_pool,
};

/// A push claimed by this node: the notification and the device it goes to.
#[derive(Clone, Debug, FromRow)]
pub struct ClaimedPush {
    pub notification_id: Uuid,
    pub subscription_id: Uuid,
    pub attempts: i32,
    #[sqlx(try_from = "String")]
    pub kind: NotificationKind,
    pub title: String,
    pub message: String,
    pub link: Option<String>,
    pub created_at: Timestamp,
    pub endpoint: String,
    pub p256dh: String,
    pub auth: String,
}

/// Claims up to `limit` due pushes until `lease_until` under the claim id
/// `claim`, fairly: every user's first due push (the `urgent_kinds` first)
/// before anyone's second, so one user with thousands of due pushes cannot
/// take a whole claim. The claim re-checks each row's lease as it takes it,
/// so two nodes claiming at once never take the same row (on PostgreSQL the
/// second waits for the first's row lock, then sees the new lease).
#[instrument(skip_all)]
pub async fn claim_pushes(
    db: &Db,
    claim: Uuid,
    now: Timestamp,
    lease_until: Timestamp,
    limit: i64,
    urgent_kinds: &[NotificationKind; 4],
) -> sqlx::Result<Vec<ClaimedPush>> {
    on_pool!(db, |pool| {
        async {
            let mut tx = pool.begin_write().await?;
            sqlx::query(
                "update push_deliveries set claimed_by = $1, claimed_until = $2
                 where (notification_id, subscription_id) in (
                   select notification_id, subscription_id from (
                     select d.notification_id, d.subscription_id, d.next_attempt_at,
                            case when n.type in ($5, $6, $7, $8) then 0 else 1 end as urgency,
                            row_number() over (
                              partition by s.user_id
                              order by case when n.type in ($5, $6, $7, $8) then 0 else 1 end, d.next_attempt_at
                            ) as turn
                     from push_deliveries d
                     join notifications n on n.id = d.notification_id
                     join push_subscriptions s on s.id = d.subscription_id
                     where d.status = 'pending' and d.next_attempt_at <= $3
                       and (d.claimed_until is null or d.claimed_until <= $3)
                   ) due
                   order by turn, urgency, next_attempt_at
                   limit $4)
                 and status = 'pending' and (claimed_until is null or claimed_until <= $3)",
            )
            .bind(claim)
            .bind(lease_until)
            .bind(now)
            .bind(limit)
            .bind((urgent_kinds[0]).as_str())
            .bind((urgent_kinds[1]).as_str())
            .bind((urgent_kinds[2]).as_str())
            .bind((urgent_kinds[3]).as_str())
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            sqlx::query_as::<_, ClaimedPush>(
                "select d.notification_id, d.subscription_id, d.attempts, n.type as kind, n.title, n.message,
                        n.link, n.created_at, s.endpoint, s.p256dh, s.auth
                 from push_deliveries d
                 join notifications n on n.id = d.notification_id
                 join push_subscriptions s on s.id = d.subscription_id
                 where d.claimed_by = $1 and d.status = 'pending'
                 order by d.next_attempt_at",
            )
            .bind(claim)
            .fetch_all(pool)
            .await
        }
        .await
    })
}

/// How a claimed push ended this time.
pub enum PushOutcome<'a> {
    Sent,
    Retry {
        at: Timestamp,
        error: &'a str,
    },
    Parked {
        error: &'a str,
    },
    /// Not tried: its push service was busy or parked. No attempt is counted.
    Deferred {
        at: Timestamp,
    },
}

/// Records the outcomes of pushes this node claimed under `claim`, in one
/// transaction (a row whose lease was lost to another node meanwhile is left alone).
#[instrument(skip_all)]
pub async fn record_pushes(
    db: &Db,
    claim: Uuid,
    outcomes: &[(&ClaimedPush, PushOutcome<'_>)],
    now: Timestamp,
) -> sqlx::Result<()> {
    on_pool!(db, |pool| {
        async {
            let mut tx = pool.begin_write().await?;
            for (push, outcome) in outcomes {
                let (status, next_attempt_at, error, tried) = match outcome {
                    PushOutcome::Sent => (PushStatus::Sent, now, None, 1),
                    PushOutcome::Retry { at, error } => (PushStatus::Pending, *at, Some(*error), 1),
                    PushOutcome::Parked { error } => (PushStatus::Parked, now, Some(*error), 1),
                    PushOutcome::Deferred { at } => (PushStatus::Pending, *at, None, 0),
                };
                sqlx::query(
                    "update push_deliveries
                     set status = $4, attempts = attempts + $8, next_attempt_at = $5,
                         last_error = case when $8 = 1 then $6 else last_error end,
                         claimed_by = null, claimed_until = null, updated_at = $7
                     where notification_id = $1 and subscription_id = $2 and claimed_by = $3",
                )
                .bind(push.notification_id)
                .bind(push.subscription_id)
                .bind(claim)
                .bind(status.as_str())
                .bind(next_attempt_at)
                .bind(error)
                .bind(now)
                .bind(tried)
                .execute(&mut *tx)
                .await?;
            }
            tx.commit().await
        }
        .await
    })
}

/// Users who have email lines due (created before `created_before`, retry time
/// passed) and may be mailed now: no digest in the hour before `now`, nobody
/// composing one.
#[instrument(skip_all)]
pub async fn users_with_due_email(
    db: &Db,
    created_before: Timestamp,
    last_digest_before: Timestamp,
    now: Timestamp,
    limit: i64,
) -> sqlx::Result<Vec<Uuid>> {
    on_pool!(db, |pool| {
        sqlx::query_scalar::<_, Uuid>(
            "select e.user_id from email_deliveries e
             left join email_digests g on g.user_id = e.user_id
             where e.status = 'pending' and e.created_at <= $1 and e.next_attempt_at <= $3
               and (g.last_sent_at is null or g.last_sent_at <= $2)
               and (g.claimed_until is null or g.claimed_until <= $3)
             group by e.user_id
             order by min(e.next_attempt_at)
             limit $4",
        )
        .bind(created_before)
        .bind(last_digest_before)
        .bind(now)
        .bind(limit)
        .fetch_all(pool)
        .await
    })
}

/// Takes the right to compose the user's next digest until `lease_until`;
/// false when another node holds it or a digest went out after `last_digest_before`.
#[instrument(skip_all)]
pub async fn claim_digest(
    db: &Db,
    user_id: Uuid,
    last_digest_before: Timestamp,
    now: Timestamp,
    lease_until: Timestamp,
) -> sqlx::Result<bool> {
    on_pool!(db, |pool| {
        sqlx::query(
            "insert into email_digests (user_id, claimed_until) values ($1, $4)
             on conflict (user_id) do update set claimed_until = $4
             where (email_digests.last_sent_at is null or email_digests.last_sent_at <= $2)
               and (email_digests.claimed_until is null or email_digests.claimed_until <= $3)",
        )
        .bind(user_id)
        .bind(last_digest_before)
        .bind(now)
        .bind(lease_until)
        .execute(pool)
        .await
        .map(|done| done.rows_affected() == 1)
    })
}

/// An email line due for a claimed user, with what the digest says about it.
#[derive(Clone, Debug, FromRow)]
pub struct DueEmailLine {
    pub notification_id: Uuid,
    pub attempts: i32,
    #[sqlx(try_from = "String")]
    pub kind: NotificationKind,
    pub title: String,
    pub message: String,
    pub link: Option<String>,
    pub is_read: bool,
    pub created_at: Timestamp,
}

#[instrument(skip_all)]
pub async fn due_email_lines(
    db: &Db,
    user_id: Uuid,
    created_before: Timestamp,
    now: Timestamp,
) -> sqlx::Result<Vec<DueEmailLine>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, DueEmailLine>(
            "select e.notification_id, e.attempts, n.type as kind, n.title, n.message, n.link, n.is_read, n.created_at
             from email_deliveries e join notifications n on n.id = e.notification_id
             where e.user_id = $1 and e.status = 'pending' and e.created_at <= $2 and e.next_attempt_at <= $3
             order by n.id",
        )
        .bind(user_id)
        .bind(created_before)
        .bind(now)
        .fetch_all(pool)
        .await
    })
}

/// Marks lines `sent`, `skipped` or `parked` (or pushes them back to `retry_at`
/// with `pending`), and ends the claim on the user's digest; `sent_at` records
/// a digest that went out.
#[instrument(skip_all)]
pub async fn finish_digest(
    db: &Db,
    user_id: Uuid,
    lines: &[(Uuid, EmailLineStatus)],
    retry_at: Timestamp,
    error: Option<&str>,
    sent_at: Option<Timestamp>,
    now: Timestamp,
) -> sqlx::Result<()> {
    on_pool!(db, |pool| {
        async {
            let mut tx = pool.begin_write().await?;
            for (notification_id, status) in lines {
                sqlx::query(
                    "update email_deliveries
                     set status = $2, attempts = attempts + case when $2 = 'skipped' then 0 else 1 end,
                         next_attempt_at = $3, last_error = $4, updated_at = $5
                     where notification_id = $1 and status = 'pending'",
                )
                .bind(*notification_id)
                .bind(status.as_str())
                .bind(retry_at)
                .bind(error)
                .bind(now)
                .execute(&mut *tx)
                .await?;
            }
            sqlx::query(
                "update email_digests set claimed_until = null, last_sent_at = coalesce($2, last_sent_at)
                 where user_id = $1",
            )
            .bind(user_id)
            .bind(sent_at)
            .execute(&mut *tx)
            .await?;
            tx.commit().await
        }
        .await
    })
}

/// Outbox gauges: rows pending per channel and the age of the oldest due one.
#[derive(Debug, Default)]
pub struct OutboxDepth {
    pub push_pending: i64,
    pub push_oldest_due: Option<Timestamp>,
    pub email_pending: i64,
    pub email_oldest_due: Option<Timestamp>,
}

#[instrument(skip_all)]
pub async fn depth(db: &Db, now: Timestamp) -> sqlx::Result<OutboxDepth> {
    let (push_pending, push_oldest_due) = on_pool!(db, |pool| {
        sqlx::query_as::<_, (i64, Option<Timestamp>)>(
            "select count(*), min(case when next_attempt_at <= $1 then next_attempt_at end)
             from push_deliveries where status = 'pending'",
        )
        .bind(now)
        .fetch_one(pool)
        .await
    })?;
    let (email_pending, email_oldest_due) = on_pool!(db, |pool| {
        sqlx::query_as::<_, (i64, Option<Timestamp>)>(
            "select count(*), min(case when next_attempt_at <= $1 then next_attempt_at end)
             from email_deliveries where status = 'pending'",
        )
        .bind(now)
        .fetch_one(pool)
        .await
    })?;
    Ok(OutboxDepth { push_pending, push_oldest_due, email_pending, email_oldest_due })
}

/// The pushes owed for one notification, for tests and operators: `(subscription, status, attempts)`.
#[instrument(skip_all)]
pub async fn pushes_for(db: &Db, notification_id: Uuid) -> sqlx::Result<Vec<(Uuid, String, i32)>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, (Uuid, String, i32)>(
            "select subscription_id, status, attempts from push_deliveries where notification_id = $1
             order by subscription_id",
        )
        .bind(notification_id)
        .fetch_all(pool)
        .await
    })
}

/// The email line owed for one notification, for tests and operators: `(status, attempts, last_error)`.
#[instrument(skip_all)]
pub async fn email_for(db: &Db, notification_id: Uuid) -> sqlx::Result<Option<(String, i32, Option<String>)>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, (String, i32, Option<String>)>(
            "select status, attempts, last_error from email_deliveries where notification_id = $1",
        )
        .bind(notification_id)
        .fetch_optional(pool)
        .await
    })
}
