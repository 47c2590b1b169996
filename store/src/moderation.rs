//! Operator actions, each one transaction with its audit row: resolving the reports on a
//! target (and removing it or suspending its author), suspending and reinstating accounts.
//! Removed content keeps its text; a removed task gets status `removed`.

use tracing::instrument;
use uuid::Uuid;

use model::moderation::{ModerationAction, TargetType};

use crate::{
    audit_log::AuditEntry,
    db::{BeginWrite, Db, Timestamp},
    insert_audit_entry, insert_notification,
    notifications::{Notice, NotificationRow},
    on_pool,
    refresh_tokens::revoke_every_family,
};

/// An account's suspension: until when (`None`: until reinstated) and why.
pub struct Suspension<'a> {
    pub user_id: Uuid,
    pub until: Option<Timestamp>,
    pub reason: &'a str,
}

/// An offer a suspension withdrew: its poster is told.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct WithdrawnOffer {
    pub id: Uuid,
    pub task_id: Uuid,
    pub poster_id: Uuid,
    pub offer_count: i64,
}

#[derive(Debug, Default)]
pub struct Suspended {
    /// Sessions (refresh-token families) that ended.
    pub sessions: Vec<Uuid>,
    pub withdrawn_offers: Vec<WithdrawnOffer>,
}

/// Suspends inside the caller's transaction: marks the account, ends its sessions and
/// withdraws its pending offers that no checkout holds (those settle through the payment).
macro_rules! suspend_account {
    ($tx:expr, $suspension:expr, $now:expr) => {{
        let suspension: &Suspension = $suspension;
        async {
            sqlx::query(
                "update users set suspended_at = $2, suspended_until = $3, suspension_reason = $4 where id = $1",
            )
            .bind(suspension.user_id)
            .bind($now)
            .bind(suspension.until)
            .bind(suspension.reason)
            .execute(&mut *$tx)
            .await?;
            let sessions = revoke_every_family!($tx, suspension.user_id, $now).await?;
            // What the platform owes the tasker waits for an operator (see `provider_calls::mark_holds`).
            sqlx::query(
                "update provider_calls set held_at = $2
                 where kind = 'transfer' and status = 'pending' and held_at is null
                   and payment_id in (select id from payments where tasker_id = $1)",
            )
            .bind(suspension.user_id)
            .bind($now)
            .execute(&mut *$tx)
            .await?;
            let offers: Vec<(Uuid, Uuid)> = sqlx::query_as(
                "update offers set status = 'withdrawn', updated_at = $2
                 where tasker_id = $1 and status = 'pending' and frozen_at is null
                 returning id, task_id",
            )
            .bind(suspension.user_id)
            .bind($now)
            .fetch_all(&mut *$tx)
            .await?;
            let mut withdrawn_offers = Vec::with_capacity(offers.len());
            for (id, task_id) in offers {
                let (poster_id, offer_count): (Uuid, i64) = sqlx::query_as(
                    "update tasks set offer_count = offer_count - 1, updated_at = $2 where id = $1
                     returning poster_id, offer_count",
                )
                .bind(task_id)
                .bind($now)
                .fetch_one(&mut *$tx)
                .await?;
                withdrawn_offers.push(WithdrawnOffer { id, task_id, poster_id, offer_count });
            }
            Ok::<_, sqlx::Error>(Suspended { sessions, withdrawn_offers })
        }
        .await
    }};
}

/// What resolving the reports on one target does besides closing them.
pub enum Effect<'a> {
    Nothing,
    Remove,
    Suspend(Suspension<'a>),
}

pub struct Resolution<'a> {
    pub target_type: TargetType,
    pub target_id: Uuid,
    pub action: ModerationAction,
    pub effect: Effect<'a>,
    pub operator_id: Uuid,
    /// To each reporter whose report this closes.
    pub reporter_notice: &'a Notice,
    /// To the author, for a removal, warning or suspension.
    pub author_notice: Option<&'a NotificationRow>,
    pub audit: &'a AuditEntry<'a>,
    pub now: Timestamp,
}

#[derive(Debug)]
pub enum Resolved {
    Done {
        notifications: Vec<NotificationRow>,
        closed_offers: Vec<(Uuid, Uuid)>,
        suspended: Suspended,
    },
    /// No open report on the target (someone resolved them first).
    AlreadyResolved,
    /// A task that is no longer open (a checkout or payment got there first).
    TaskNotOpen,
}

/// Closes every open report on the target with the action, applies its effect, and writes
/// the notifications and the audit row, all or nothing.
#[instrument(skip_all)]
pub async fn resolve_reports(db: &Db, resolution: &Resolution<'_>) -> sqlx::Result<Resolved> {
    let now = resolution.now;
    on_pool!(db, |pool| {
        async {
            let mut tx = pool.begin_write().await?;
            let reporters: Vec<Uuid> = sqlx::query_scalar(
                "update reports set status = 'resolved', action = $3, resolved_by = $4, resolved_at = $5
                 where target_type = $1 and target_id = $2 and status = 'open'
                 returning reporter_id",
            )
            .bind(resolution.target_type.as_str())
            .bind(resolution.target_id)
            .bind(resolution.action.as_str())
            .bind(resolution.operator_id)
            .bind(now)
            .fetch_all(&mut *tx)
            .await?;
            if reporters.is_empty() {
                return Ok(Resolved::AlreadyResolved);
            }
            let mut closed_offers = Vec::new();
            let mut suspended = Suspended::default();
            match &resolution.effect {
                Effect::Nothing => {}
                Effect::Remove => {
                    let sql = match resolution.target_type {
                        TargetType::Task => {
                            "update tasks set status = 'removed', updated_at = $2 where id = $1 and status = 'open'"
                        }
                        TargetType::Question => "update questions set removed_at = $2 where id = $1",
                        TargetType::Offer => "update offers set message_removed_at = $2 where id = $1",
                        TargetType::Message => "update messages set removed_at = $2 where id = $1",
                        TargetType::Review => "update reviews set removed_at = $2 where id = $1",
                        TargetType::User => unreachable!("a profile is suspended, not removed"),
                    };
                    let removed =
                        sqlx::query(sql).bind(resolution.target_id).bind(now).execute(&mut *tx).await?.rows_affected();
                    if removed == 0 && resolution.target_type == TargetType::Task {
                        return Ok(Resolved::TaskNotOpen);
                    }
                    if resolution.target_type == TargetType::Task {
                        closed_offers = sqlx::query_as(
                            "update offers set status = 'not_selected', updated_at = $2
                             where task_id = $1 and status = 'pending'
                             returning id, tasker_id",
                        )
                        .bind(resolution.target_id)
                        .bind(now)
                        .fetch_all(&mut *tx)
                        .await?;
                    }
                }
                Effect::Suspend(suspension) => suspended = suspend_account!(tx, suspension, now)?,
            }
            let mut notifications: Vec<NotificationRow> =
                reporters.iter().map(|reporter| resolution.reporter_notice.to(*reporter, now)).collect();
            notifications.extend(resolution.author_notice.cloned());
            for notification in &notifications {
                insert_notification!(tx, notification)?;
            }
            insert_audit_entry!(tx, resolution.audit)?;
            tx.commit().await?;
            Ok(Resolved::Done { notifications, closed_offers, suspended })
        }
        .await
    })
}

/// Suspends an account (again: the new end date and reason replace the old), with the
/// user's notification and the audit row.
#[instrument(skip_all)]
pub async fn suspend(
    db: &Db,
    suspension: &Suspension<'_>,
    notification: &NotificationRow,
    audit: &AuditEntry<'_>,
) -> sqlx::Result<Suspended> {
    let now = audit.created_at;
    on_pool!(db, |pool| {
        async {
            let mut tx = pool.begin_write().await?;
            let suspended = suspend_account!(tx, suspension, now)?;
            insert_notification!(tx, notification)?;
            insert_audit_entry!(tx, audit)?;
            tx.commit().await?;
            Ok(suspended)
        }
        .await
    })
}

/// Ends a suspension that is in force at `now` and lifts the holds on the user's transfers (which
/// outlive a suspension that ended by itself); false when there is neither.
#[instrument(skip_all)]
pub async fn reinstate(
    db: &Db,
    user_id: Uuid,
    notification: &NotificationRow,
    audit: &AuditEntry<'_>,
) -> sqlx::Result<bool> {
    let now = audit.created_at;
    on_pool!(db, |pool| {
        async {
            let mut tx = pool.begin_write().await?;
            let ended = sqlx::query(
                "update users set suspended_at = null, suspended_until = null, suspension_reason = null
                 where id = $1 and suspended_at is not null and (suspended_until is null or suspended_until > $2)",
            )
            .bind(user_id)
            .bind(now)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            let lifted = sqlx::query(
                "update provider_calls set held_at = null
                 where held_at is not null and payment_id in (select id from payments where tasker_id = $1)",
            )
            .bind(user_id)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if ended == 0 && lifted == 0 {
                return Ok(false);
            }
            insert_notification!(tx, notification)?;
            insert_audit_entry!(tx, audit)?;
            tx.commit().await?;
            Ok(true)
        }
        .await
    })
}

/// A suspension in force at `now`: until when (`None`: until reinstated) and why.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct SuspensionRow {
    pub suspended_at: Timestamp,
    pub suspended_until: Option<Timestamp>,
    pub suspension_reason: Option<String>,
}

#[instrument(skip_all)]
pub async fn suspension_of(db: &Db, user_id: Uuid, now: Timestamp) -> sqlx::Result<Option<SuspensionRow>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, SuspensionRow>(
            "select suspended_at, suspended_until, suspension_reason from users
             where id = $1 and suspended_at is not null and (suspended_until is null or suspended_until > $2)",
        )
        .bind(user_id)
        .bind(now)
        .fetch_optional(pool)
        .await
    })
}

/// Whose refresh token this is (revoked or not).
#[instrument(skip_all)]
pub async fn refresh_token_owner(db: &Db, token_hash: &str) -> sqlx::Result<Option<Uuid>> {
    on_pool!(db, |pool| {
        sqlx::query_scalar("select user_id from refresh_tokens where token_hash = $1")
            .bind(token_hash)
            .fetch_optional(pool)
            .await
    })
}
