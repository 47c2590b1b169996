//! What the two parties of an assigned task ask of each other (to cancel, a new date, a higher
//! price) and the disputes between them.

use serde::Serialize;
use uuid::Uuid;

use model::states::{
    CancellationStatus, DisputeOutcome, DisputeReason, DisputeStatus, PriceIncreaseStatus, RescheduleStatus, TaskStatus,
};
use store::{
    cancellations::CancellationRow, db::Timestamp, disputes::DisputeRow, price_increases::PriceIncreaseRow,
    reschedules::RescheduleRow,
};

use crate::payments::escrow::CheckoutStarted;

#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
#[schema(as = CancellationRow)]
pub struct Cancellation {
    pub id: Uuid,
    pub task_id: Uuid,
    pub requested_by: Uuid,
    pub reason: String,
    /// The reason from the fixed list (`other` for requests made before the list).
    pub reason_code: Option<String>,
    pub status: CancellationStatus,
    pub created_at: Timestamp,
    pub answered_at: Option<Timestamp>,
}

impl From<&CancellationRow> for Cancellation {
    fn from(row: &CancellationRow) -> Self {
        Self {
            id: row.id,
            task_id: row.task_id,
            requested_by: row.requested_by,
            reason: row.reason.clone(),
            reason_code: row.reason_code.clone(),
            status: row.status,
            created_at: row.created_at,
            answered_at: row.answered_at,
        }
    }
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
#[schema(as = RescheduleRow)]
pub struct Reschedule {
    pub id: Uuid,
    pub task_id: Uuid,
    pub proposed_by: Uuid,
    /// `YYYY-MM-DD`.
    pub due_date: String,
    /// A time window on that day, as the proposer wrote it ("8am–12pm").
    #[serde(rename = "window")]
    pub time_window: Option<String>,
    pub note: Option<String>,
    pub status: RescheduleStatus,
    pub expires_at: Timestamp,
    pub created_at: Timestamp,
    pub answered_at: Option<Timestamp>,
}

impl From<&RescheduleRow> for Reschedule {
    fn from(row: &RescheduleRow) -> Self {
        Self {
            id: row.id,
            task_id: row.task_id,
            proposed_by: row.proposed_by,
            due_date: row.due_date.clone(),
            time_window: row.time_window.clone(),
            note: row.note.clone(),
            status: row.status,
            expires_at: row.expires_at,
            created_at: row.created_at,
            answered_at: row.answered_at,
        }
    }
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
#[schema(as = PriceIncreaseRow)]
pub struct PriceIncrease {
    pub id: Uuid,
    pub task_id: Uuid,
    pub tasker_id: Uuid,
    pub amount_cents: i64,
    pub reason: String,
    pub status: PriceIncreaseStatus,
    pub decline_reason: Option<String>,
    pub expires_at: Timestamp,
    pub created_at: Timestamp,
    pub answered_at: Option<Timestamp>,
}

impl From<&PriceIncreaseRow> for PriceIncrease {
    fn from(row: &PriceIncreaseRow) -> Self {
        Self {
            id: row.id,
            task_id: row.task_id,
            tasker_id: row.tasker_id,
            amount_cents: row.amount_cents,
            reason: row.reason.clone(),
            status: row.status,
            decline_reason: row.decline_reason.clone(),
            expires_at: row.expires_at,
            created_at: row.created_at,
            answered_at: row.answered_at,
        }
    }
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
#[schema(as = DisputeRow)]
pub struct Dispute {
    pub id: Uuid,
    pub task_id: Uuid,
    pub opened_by: Uuid,
    pub reason: DisputeReason,
    pub message: String,
    pub status: DisputeStatus,
    /// Once resolved.
    pub outcome: Option<DisputeOutcome>,
    pub refund_cents: Option<i64>,
    pub resolution_note: Option<String>,
    /// Opened by the sweep from a poster's cancellation request left unanswered
    /// after the tasker asked to be paid (`message` is the request's reason).
    pub from_cancellation: bool,
    pub created_at: Timestamp,
    pub resolved_at: Option<Timestamp>,
}

impl From<&DisputeRow> for Dispute {
    fn from(row: &DisputeRow) -> Self {
        Self {
            id: row.id,
            task_id: row.task_id,
            opened_by: row.opened_by,
            reason: row.reason,
            message: row.message.clone(),
            status: row.status,
            outcome: row.outcome(),
            refund_cents: row.refund_cents,
            resolution_note: row.resolution_note.clone(),
            from_cancellation: row.from_cancellation,
            created_at: row.created_at,
            resolved_at: row.resolved_at,
        }
    }
}

/// A task's status after a change its parties made (payment asked for, a cancellation answered).
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct TaskStatusView {
    pub id: Uuid,
    pub status: TaskStatus,
}

/// The task after its poster released the payment, with the tip's checkout if one was asked for.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct Released {
    pub id: Uuid,
    pub status: TaskStatus,
    /// The tip's checkout, when a tip was asked for and could be opened.
    pub tip: Option<CheckoutStarted>,
    /// Why the tip's checkout could not be opened (the release went ahead regardless).
    pub tip_error: Option<String>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct IncreaseList {
    pub items: Vec<PriceIncrease>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct TaskChanges {
    pub task_id: Uuid,
    /// A price increase waits for the poster's answer.
    pub price_increase_waiting: bool,
    /// A new date waits for an answer.
    pub new_date_proposed: bool,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct TaskChangesList {
    pub items: Vec<TaskChanges>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct RescheduleList {
    pub items: Vec<Reschedule>,
}
