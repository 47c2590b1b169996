//! Disputes as the parties and operators live them: either party opens one
//! (auto-release and the cancellation lapse stop), or the sweep does for a
//! poster's cancellation request left unanswered after the tasker asked to be
//! paid (silence never refunds work the tasker says is done); both parties are told, and
//! an operator decides — release in full, refund in full, or split the
//! escrow — after which the money moves like any other transition's. The
//! wording of every dispute notification lives here.

use uuid::Uuid;

use super::{calls, escrow, fees::display_amount, rules::Party};
use crate::{
    db::{Timestamp, new_id},
    error::{ApiError, ApiResult},
    live,
    state::AppState,
    store::{
        disputes::{self, DisputeRow, NewDispute},
        cancellations::CancellationRow,
        release::Decision,
        notifications::{NotificationRow, kind},
        payments::{self, PaymentRow},
        tasks::TaskRow,
    },
};

pub const MAX_MESSAGE_CHARS: usize = 2000;
pub const MAX_NOTE_CHARS: usize = 2000;

fn link(task_id: Uuid) -> Option<String> {
    Some(format!("/task/{task_id}"))
}

/// Validated by the caller (reason known, message present); `opener` is one of the task's two parties.
pub async fn open(
    state: &AppState,
    task: &TaskRow,
    opener: Party,
    reason: &str,
    message: &str,
) -> ApiResult<DisputeRow> {
    let now = Timestamp::now();
    let tasker_id = task.assigned_tasker_id.ok_or_else(|| ApiError::Conflict(not_disputable().into()))?;
    let title = &task.title;
    let (opened_by, other, other_party) = match opener {
        Party::AssignedTasker => (tasker_id, task.poster_id, "The tasker"),
        _ => (task.poster_id, tasker_id, "The poster"),
    };
    let notifications = [
        NotificationRow::new(
            opened_by,
            kind::DISPUTE,
            "Dispute opened",
            format!(
                "Your dispute about \"{title}\" is with our team. The payment stays held and nothing is released until an operator decides."
            ),
            link(task.id),
            now,
        ),
        NotificationRow::new(
            other,
            kind::DISPUTE,
            "Dispute opened",
            format!(
                "{other_party} opened a dispute about \"{title}\". The payment stays held until an operator decides; reply in the task's messages."
            ),
            link(task.id),
            now,
        ),
    ];
    let dispute = NewDispute { id: new_id(), task_id: task.id, opened_by, reason, message };
    let row = disputes::open(&state.db, &dispute, &notifications, now)
        .await?
        .ok_or_else(|| ApiError::Conflict(not_disputable().into()))?;
    live::notifications_created(state, &notifications).await;
    escrow::publish_task(state, task.id).await;
    super::increases::after_increases_closed(state, task).await;
    Ok(row)
}

/// The sweep's answer to a poster's cancellation request nobody answered
/// after the tasker asked to be paid: an operator decides between the two
/// requests, the payment stays held. False when the request or the task moved on.
pub async fn escalate_cancellation(state: &AppState, task: &TaskRow, request: &CancellationRow) -> ApiResult<bool> {
    let Some(tasker_id) = task.assigned_tasker_id else { return Ok(false) };
    let now = Timestamp::now();
    let title = &task.title;
    let notifications = [
        NotificationRow::new(
            task.poster_id,
            kind::DISPUTE,
            "Dispute opened",
            format!(
                "Your request to cancel \"{title}\" was not answered within 48 hours. As the tasker asked to be paid, an operator will decide; the payment stays held until then."
            ),
            link(task.id),
            now,
        ),
        NotificationRow::new(
            tasker_id,
            kind::DISPUTE,
            "Dispute opened",
            format!(
                "The poster's request to cancel \"{title}\" was not answered within 48 hours, so an operator will decide between it and your payment request. The payment stays held; reply in the task's messages."
            ),
            link(task.id),
            now,
        ),
    ];
    let dispute = NewDispute {
        id: new_id(),
        task_id: task.id,
        opened_by: task.poster_id,
        reason: "other",
        message: &request.reason,
    };
    let Some(row) = disputes::escalate_cancellation(&state.db, request.id, &dispute, &notifications, now).await? else {
        return Ok(false);
    };
    live::notifications_created(state, &notifications).await;
    live::dispute_opened(state, row.id, task.id).await;
    escrow::publish_task(state, task.id).await;
    super::increases::after_increases_closed(state, task).await;
    Ok(true)
}

pub fn not_disputable() -> &'static str {
    "Only an assigned task without an open dispute can be disputed"
}

/// What an operator decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resolution {
    Release,
    Refund,
    /// The poster gets these cents back; the tasker the rest, less the fee on it.
    PartialRefund(i64),
}

/// Carries out an operator's decision of an open dispute. Validated by the
/// caller against the held payment (a partial refund is within 1..amount−1).
pub async fn resolve(
    state: &AppState,
    task: &TaskRow,
    dispute: &DisputeRow,
    payment: &PaymentRow,
    resolution: Resolution,
    operator_id: Uuid,
    note: &str,
) -> ApiResult<DisputeRow> {
    let decision = Decision { dispute_id: dispute.id, operator_id, note };
    let resolved = match resolution {
        Resolution::Release => escrow::release(state, task, None, Some(&decision)).await?.is_some(),
        Resolution::Refund | Resolution::PartialRefund(_) => {
            let refund_cents = match resolution {
                Resolution::PartialRefund(cents) => cents,
                _ => payment.amount_cents,
            };
            let notifications = refund_notices(task, payment, refund_cents, note, Timestamp::now());
            let refunded =
                disputes::refund(&state.db, dispute, &decision, refund_cents, &notifications, Timestamp::now()).await?;
            if let Some(payment) = &refunded {
                escrow::publish_payment(state, payment.id).await;
                live::notifications_created(state, &notifications).await;
                escrow::publish_task(state, task.id).await;
                calls::run_owed(state, payment.id).await;
                super::increases::after_increases_closed(state, task).await;
            }
            refunded.is_some()
        }
    };
    if !resolved {
        return Err(ApiError::Conflict("This dispute was already resolved".into()));
    }
    disputes::dispute(&state.db, dispute.id).await?.ok_or_else(|| ApiError::not_found("Dispute"))
}

fn refund_notices(
    task: &TaskRow,
    payment: &PaymentRow,
    refund_cents: i64,
    note: &str,
    now: Timestamp,
) -> [NotificationRow; 2] {
    let title = &task.title;
    let currency = &payment.currency;
    let refunded = display_amount(refund_cents, currency);
    if refund_cents >= payment.amount_cents {
        [
            NotificationRow::new(
                payment.poster_id,
                kind::DISPUTE,
                "Dispute resolved: refunded",
                format!(
                    "An operator decided the dispute about \"{title}\": your payment of {refunded} is refunded in full and the task is cancelled. {note}"
                ),
                link(task.id),
                now,
            ),
            NotificationRow::new(
                payment.tasker_id,
                kind::DISPUTE,
                "Dispute resolved: refunded",
                format!(
                    "An operator decided the dispute about \"{title}\": the payment is refunded to the poster and the task is cancelled. {note}"
                ),
                link(task.id),
                now,
            ),
        ]
    } else {
        let rest = payment.amount_cents - refund_cents;
        let paid = display_amount(super::fees::payout_cents(rest), currency);
        [
            NotificationRow::new(
                payment.poster_id,
                kind::DISPUTE,
                "Dispute resolved: partly refunded",
                format!(
                    "An operator decided the dispute about \"{title}\": {refunded} is refunded to you and the rest is paid to the tasker. {note}"
                ),
                link(task.id),
                now,
            ),
            NotificationRow::new(
                payment.tasker_id,
                kind::DISPUTE,
                "Dispute resolved: partly paid",
                format!(
                    "An operator decided the dispute about \"{title}\": {paid} (after the 10% service fee) is paid to you and {refunded} is refunded to the poster. {note}"
                ),
                link(task.id),
                now,
            ),
        ]
    }
}

/// The held payment a dispute is about, as the escrow it stands for: the price
/// increases paid into it are added to its amount and fee (a decision covers them all).
pub async fn held_payment(state: &AppState, dispute: &DisputeRow) -> ApiResult<PaymentRow> {
    let mut payment =
        payments::payment(&state.db, dispute.payment_id).await?.ok_or_else(|| ApiError::not_found("Payment"))?;
    for added in payments::payments_for_task(&state.db, dispute.task_id).await? {
        if added.parent_payment_id == Some(payment.id) && added.status == payment.status {
            payment.amount_cents += added.amount_cents;
            payment.fee_cents += added.fee_cents;
        }
    }
    Ok(payment)
}
