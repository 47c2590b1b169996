//! The operators' dispute queue: each dispute with the task, the parties and the payment it is about.

use serde::Serialize;
use uuid::Uuid;

use model::states::{PaymentStatus, TaskStatus};

use crate::wire::assigned_tasks::Dispute;

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct TaskBrief {
    pub id: Uuid,
    pub title: String,
    pub status: TaskStatus,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct PartyBrief {
    pub id: Uuid,
    pub name: String,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct PaymentBrief {
    pub amount_cents: i64,
    pub fee_cents: i64,
    pub currency: String,
    pub status: PaymentStatus,
}

/// A dispute with what an operator needs to decide it.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct DisputeCase {
    #[serde(flatten)]
    pub dispute: Dispute,
    pub task: TaskBrief,
    pub poster: PartyBrief,
    pub tasker: PartyBrief,
    pub payment: PaymentBrief,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct DisputeQueue {
    pub items: Vec<DisputeCase>,
}
