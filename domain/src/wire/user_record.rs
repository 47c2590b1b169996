//! An operator's record of one person (`GET /api/admin/users/{id}`).

use serde::Serialize;
use uuid::Uuid;

use model::{
    moderation::{ModerationAction, ReportReason, ReportStatus, TargetType},
    states::{
        DisputeOutcome, DisputeReason, DisputeStatus, OfferStatus, PaymentStatus, ProviderCallStatus, TaskStatus,
    },
};
use store::{db::Timestamp, reports::ReportRow, user_record as rows};

use crate::wire::moderation::{AuditItem, AuthorSummary};

/// A task the person posted or was assigned, with its text as written (removed ones too).
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct RecordTask {
    pub id: Uuid,
    pub title: String,
    pub status: TaskStatus,
    pub budget_cents: i64,
    /// `poster` | `tasker`.
    pub role: String,
    pub created_at: Timestamp,
}

impl From<&rows::RecordTask> for RecordTask {
    fn from(row: &rows::RecordTask) -> Self {
        Self {
            id: row.id,
            title: row.title.clone(),
            status: row.status,
            budget_cents: row.budget_cents,
            role: row.role.clone(),
            created_at: row.created_at,
        }
    }
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct RecordOffer {
    pub id: Uuid,
    pub task_id: Uuid,
    pub task_title: String,
    pub amount_cents: i64,
    pub message: String,
    pub message_removed: bool,
    pub status: OfferStatus,
    pub created_at: Timestamp,
}

impl From<&rows::RecordOffer> for RecordOffer {
    fn from(row: &rows::RecordOffer) -> Self {
        Self {
            id: row.id,
            task_id: row.task_id,
            task_title: row.task_title.clone(),
            amount_cents: row.amount_cents,
            message: row.message.clone(),
            message_removed: row.message_removed,
            status: row.status,
            created_at: row.created_at,
        }
    }
}

/// A dispute on a task the person posted or was assigned.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct RecordDispute {
    pub id: Uuid,
    pub task_id: Uuid,
    pub task_title: String,
    pub opened_by: Uuid,
    pub reason: DisputeReason,
    pub status: DisputeStatus,
    /// Once resolved.
    pub outcome: Option<DisputeOutcome>,
    pub created_at: Timestamp,
}

impl From<&rows::RecordDispute> for RecordDispute {
    fn from(row: &rows::RecordDispute) -> Self {
        Self {
            id: row.id,
            task_id: row.task_id,
            task_title: row.task_title.clone(),
            opened_by: row.opened_by,
            reason: row.reason,
            status: row.status,
            outcome: row.outcome(),
            created_at: row.created_at,
        }
    }
}

/// A payment the person made (as poster) or was owed (as tasker).
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct RecordPayment {
    pub id: Uuid,
    pub task_id: Uuid,
    pub task_title: String,
    /// `poster` | `tasker`.
    pub role: String,
    pub status: PaymentStatus,
    pub amount_cents: i64,
    pub fee_cents: i64,
    pub refunded_cents: i64,
    pub currency: String,
    /// The transfer to the tasker: `pending` | `done` | `parked`; null when none is owed.
    pub transfer_status: Option<ProviderCallStatus>,
    /// The transfer waits on an operator's hold (see `store::provider_calls`).
    pub transfer_on_hold: bool,
    pub created_at: Timestamp,
}

impl From<&rows::RecordPayment> for RecordPayment {
    fn from(row: &rows::RecordPayment) -> Self {
        Self {
            id: row.id,
            task_id: row.task_id,
            task_title: row.task_title.clone(),
            role: row.role.clone(),
            status: row.status,
            amount_cents: row.amount_cents,
            fee_cents: row.fee_cents,
            refunded_cents: row.refunded_cents,
            currency: row.currency.clone(),
            transfer_status: row.transfer_status(),
            transfer_on_hold: row.transfer_on_hold,
            created_at: row.created_at,
        }
    }
}

/// A report as the operator sees it in a user's record.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ReportRecord {
    pub id: Uuid,
    pub target_type: TargetType,
    pub target_id: Uuid,
    pub reporter_id: Uuid,
    pub author_id: Uuid,
    pub reason: ReportReason,
    pub details: String,
    pub snapshot: String,
    pub status: ReportStatus,
    pub action: Option<ModerationAction>,
    pub created_at: Timestamp,
    pub resolved_at: Option<Timestamp>,
}

impl From<ReportRow> for ReportRecord {
    fn from(row: ReportRow) -> Self {
        let action = row.action();
        Self {
            id: row.id,
            target_type: row.target_type,
            target_id: row.target_id,
            reporter_id: row.reporter_id,
            author_id: row.author_id,
            reason: row.reason,
            details: row.details,
            snapshot: row.snapshot,
            status: row.status,
            action,
            created_at: row.created_at,
            resolved_at: row.resolved_at,
        }
    }
}

/// Everything an operator needs about one person: who they are, their tasks (posted or
/// assigned), offers, disputes and payments, the reports by and about them, and the actions
/// taken on them. Each list newest first, at most 100.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct UserRecord {
    pub user: AuthorSummary,
    pub suspension_reason: Option<String>,
    pub tasks: Vec<RecordTask>,
    pub offers: Vec<RecordOffer>,
    pub disputes: Vec<RecordDispute>,
    pub payments: Vec<RecordPayment>,
    pub reports: Vec<ReportRecord>,
    pub actions: Vec<AuditItem>,
}
