//! Disputes as the parties and operators live them: either party opens one
//! (auto-release and the cancellation lapse stop), or the sweep does for a
//! poster's cancellation request left unanswered after the tasker asked to be
//! paid (silence never refunds work the tasker says is done); both parties are told, and
//! an operator decides — release in full, refund in full, or split the
//! escrow — after which the money moves like any other transition's. What
//! the parties are told is in `notices`.

use uuid::Uuid;

use model::{
    payments::{
        process::{self, Event},
        rules::Party,
    },
    refusal::Invalid,
    states::DisputeReason,
};
use store::{
    cancellations::CancellationRow,
    db::{Timestamp, new_id},
    disputes::{self, DisputeRow, NewDispute},
    payments::{self, PaymentRow},
    release::Decision,
    tasks::TaskRow,
};

use crate::{
    live, notices,
    payments::{calls, escrow},
    refusal::{DomainError, DomainResult},
    services::Services,
};

pub const MAX_MESSAGE_CHARS: usize = 2000;
pub const MAX_NOTE_CHARS: usize = 2000;

/// `opener_id` disputes the task: its poster or assigned tasker only, while assigned and not
/// already disputed; a known reason and a message of at most 2000 characters.
pub async fn open(
    state: &Services,
    task: &TaskRow,
    opener_id: Uuid,
    reason: &str,
    message: &str,
) -> DomainResult<DisputeRow> {
    let opener = Party::of(opener_id, task.poster_id, task.assigned_tasker_id);
    process::permit(Event::OpenDispute, opener, task.status, task.open_dispute_id)?;
    let Some(reason) = DisputeReason::parse(reason) else {
        return Err(Invalid::field("reason", "Please choose a reason").into());
    };
    let message = message.trim();
    if message.is_empty() {
        return Err(Invalid::field("message", "Please describe the problem").into());
    }
    if message.chars().count() > MAX_MESSAGE_CHARS {
        return Err(Invalid::field("message", "Please keep the description under 2000 characters").into());
    }
    let now = Timestamp::now();
    let tasker_id = task.assigned_tasker_id.ok_or_else(|| DomainError::Conflict(not_disputable().into()))?;
    let title = &task.title;
    let (opened_by, other, other_party) = match opener {
        Party::AssignedTasker => (tasker_id, task.poster_id, "The tasker"),
        _ => (task.poster_id, tasker_id, "The poster"),
    };
    let notifications = notices::dispute_opened((opened_by, other), other_party, task.id, title, now);
    let dispute = NewDispute { id: new_id(), task_id: task.id, opened_by, reason, message };
    let row = disputes::open(&state.db, &dispute, &notifications, now)
        .await?
        .ok_or_else(|| DomainError::Conflict(not_disputable().into()))?;
    live::notifications_created(state, &notifications).await;
    escrow::publish_task(state, task.id).await;
    super::increases::after_increases_closed(state, task).await;
    live::dispute_opened(state, row.id, row.task_id).await;
    Ok(row)
}

/// The sweep's answer to a poster's cancellation request nobody answered
/// after the tasker asked to be paid: an operator decides between the two
/// requests, the payment stays held. False when the request or the task moved on.
pub async fn escalate_cancellation(state: &Services, task: &TaskRow, request: &CancellationRow) -> DomainResult<bool> {
    let Some(tasker_id) = task.assigned_tasker_id else { return Ok(false) };
    let now = Timestamp::now();
    let title = &task.title;
    let notifications = notices::cancellation_escalated((task.poster_id, tasker_id), task.id, title, now);
    let dispute = NewDispute {
        id: new_id(),
        task_id: task.id,
        opened_by: task.poster_id,
        reason: DisputeReason::Other,
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
    state: &Services,
    task: &TaskRow,
    dispute: &DisputeRow,
    payment: &PaymentRow,
    resolution: Resolution,
    operator_id: Uuid,
    note: &str,
) -> DomainResult<DisputeRow> {
    let event = match resolution {
        Resolution::Release => Event::ResolveByRelease,
        Resolution::Refund => Event::ResolveByRefund,
        Resolution::PartialRefund(_) => Event::ResolveByPartialRefund,
    };
    if process::allows(event, task.status, task.open_dispute_id == Some(dispute.id)).is_none() {
        return Err(DomainError::Conflict("This dispute was already resolved".into()));
    }
    let decision = Decision { dispute_id: dispute.id, operator_id, note };
    let resolved = match resolution {
        Resolution::Release => escrow::release(state, task, None, Some(&decision)).await?.is_some(),
        Resolution::Refund | Resolution::PartialRefund(_) => {
            let refund_cents = match resolution {
                Resolution::PartialRefund(cents) => cents,
                _ => payment.amount_cents,
            };
            let notifications = notices::dispute_refunded(payment, &task.title, refund_cents, note, Timestamp::now());
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
        return Err(DomainError::Conflict("This dispute was already resolved".into()));
    }
    disputes::dispute(&state.db, dispute.id).await?.ok_or_else(|| DomainError::not_found("Dispute"))
}

/// The held payment a dispute is about, as the escrow it stands for: the price
/// increases paid into it are added to its amount and fee (a decision covers them all).
pub async fn held_payment(state: &Services, dispute: &DisputeRow) -> DomainResult<PaymentRow> {
    let mut payment =
        payments::payment(&state.db, dispute.payment_id).await?.ok_or_else(|| DomainError::not_found("Payment"))?;
    for added in payments::payments_for_task(&state.db, dispute.task_id).await? {
        if added.parent_payment_id == Some(payment.id) && added.status == payment.status {
            payment.amount_cents += added.amount_cents;
            payment.fee_cents += added.fee_cents;
        }
    }
    Ok(payment)
}
