//! Trust and safety: the contact guard, reports and what operators do about them.
//! Knows nothing of HTTP: it refuses with `refusal`'s refusals, which `http` maps.

pub mod actions;
pub mod guard;
pub mod reports;

use serde::{Deserialize, Serialize};

/// What can be reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, sqlx::Type, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
#[sqlx(type_name = "text", rename_all = "snake_case")]
pub enum TargetType {
    Task,
    User,
    Offer,
    Question,
    Message,
    Review,
}

/// Why it was reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, sqlx::Type, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
#[sqlx(type_name = "text", rename_all = "snake_case")]
pub enum ReportReason {
    Spam,
    Scam,
    Offensive,
    OffPlatform,
    Unsafe,
    Other,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, sqlx::Type, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
#[sqlx(type_name = "text", rename_all = "snake_case")]
pub enum ReportStatus {
    Open,
    Resolved,
}

/// What an operator does about reports on one target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, sqlx::Type, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
#[sqlx(type_name = "text", rename_all = "snake_case")]
pub enum ModerationAction {
    /// Nothing wrong: the reports are closed.
    Dismiss,
    /// The content leaves the site (a task gets status `removed`).
    Remove,
    /// The author is told what was wrong.
    Warn,
    /// The author's account is suspended.
    Suspend,
}

/// Every kind of row in the audit log.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, sqlx::Type, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
#[sqlx(type_name = "text", rename_all = "snake_case")]
pub enum AuditAction {
    Dismiss,
    Remove,
    Warn,
    Suspend,
    Reinstate,
    DisputeDecision,
    ProviderCallRetry,
}

impl From<ModerationAction> for AuditAction {
    fn from(action: ModerationAction) -> Self {
        match action {
            ModerationAction::Dismiss => Self::Dismiss,
            ModerationAction::Remove => Self::Remove,
            ModerationAction::Warn => Self::Warn,
            ModerationAction::Suspend => Self::Suspend,
        }
    }
}

/// What an audit row is about: a reportable thing, or a dispute or provider call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, sqlx::Type, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
#[sqlx(type_name = "text", rename_all = "snake_case")]
pub enum AuditTarget {
    Task,
    User,
    Offer,
    Question,
    Message,
    Review,
    Dispute,
    ProviderCall,
}

impl From<TargetType> for AuditTarget {
    fn from(target: TargetType) -> Self {
        match target {
            TargetType::Task => Self::Task,
            TargetType::User => Self::User,
            TargetType::Offer => Self::Offer,
            TargetType::Question => Self::Question,
            TargetType::Message => Self::Message,
            TargetType::Review => Self::Review,
        }
    }
}
