//! Reports as their reporters see them.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::{
    db::Timestamp,
    moderation::{ReportReason, ReportStatus, TargetType},
    store::reports::ReportRow,
};

#[derive(Debug, Clone, Copy, Deserialize, Serialize, utoipa::ToSchema)]
pub struct TargetRef {
    #[serde(rename = "type")]
    pub target_type: TargetType,
    pub id: Uuid,
}

/// A report as its reporter sees it.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ReportView {
    pub id: Uuid,
    pub status: ReportStatus,
    pub target: TargetRef,
    pub reason: ReportReason,
    pub created_at: Timestamp,
}

impl From<&ReportRow> for ReportView {
    fn from(row: &ReportRow) -> Self {
        Self {
            id: row.id,
            status: row.status,
            target: TargetRef { target_type: row.target_type, id: row.target_id },
            reason: row.reason,
            created_at: row.created_at,
        }
    }
}
