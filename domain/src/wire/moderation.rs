//! Reports as their reporters see them, the moderation queue and the audit log as operators see them.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use model::moderation::{AuditAction, AuditTarget, ReportReason, ReportStatus, TargetType};
use store::{
    audit_log::AuditRow,
    db::Timestamp,
    reports::{AuthorFacts, ReportRow},
};

use crate::accounts::names::public_name;

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

/// The reported thing now: its text (null once it is gone) and whether a moderator removed it.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct CurrentState {
    pub text: Option<String>,
    pub removed: bool,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ReportedTarget {
    #[serde(rename = "type")]
    pub target_type: TargetType,
    pub id: Uuid,
    /// Its text when it was first reported.
    pub snapshot: String,
    pub current: CurrentState,
}

/// What an operator weighs about the author.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct AuthorSummary {
    pub id: Uuid,
    pub name: String,
    pub email: String,
    /// When the account was made.
    pub created_at: Timestamp,
    pub tasks_completed: i64,
    pub open_reports: i64,
    /// Earlier operator actions (other than dismissals) on them or their content.
    pub actions: i64,
    /// The end of a suspension in force; null when not suspended or suspended until reinstated.
    pub suspended_until: Option<Timestamp>,
    pub suspended: bool,
}

impl AuthorSummary {
    pub fn new(facts: AuthorFacts, now: Timestamp) -> Self {
        let suspended = facts.suspended_at.is_some() && facts.suspended_until.is_none_or(|until| until > now);
        Self {
            id: facts.id,
            name: public_name(&facts.first_name, &facts.last_name),
            email: facts.email,
            created_at: facts.created_at,
            tasks_completed: facts.tasks_completed,
            open_reports: facts.open_reports,
            actions: facts.actions,
            suspended_until: if suspended { facts.suspended_until } else { None },
            suspended,
        }
    }
}

/// One reported target: `id` is its oldest report's, the one to resolve.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct QueueItem {
    pub id: Uuid,
    pub target: ReportedTarget,
    pub author: AuthorSummary,
    /// Distinct people who reported it.
    pub reporters: i64,
    pub reasons: Vec<ReportReason>,
    pub status: ReportStatus,
    pub created_at: Timestamp,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct AuditTargetRef {
    #[serde(rename = "type")]
    pub target_type: AuditTarget,
    pub id: Uuid,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct OperatorRef {
    pub id: Uuid,
    pub email: String,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct AuditItem {
    pub id: Uuid,
    pub operator: OperatorRef,
    pub action: AuditAction,
    pub target: AuditTargetRef,
    pub note: String,
    pub created_at: Timestamp,
    /// The operator tried this and was refused (they are part of the case): nothing happened.
    pub refused: bool,
}

impl From<AuditRow> for AuditItem {
    fn from(row: AuditRow) -> Self {
        Self {
            id: row.id,
            operator: OperatorRef { id: row.operator_id, email: row.operator_email },
            action: row.action,
            target: AuditTargetRef { target_type: row.target_type, id: row.target_id },
            note: row.note,
            created_at: row.created_at,
            refused: row.refused,
        }
    }
}
