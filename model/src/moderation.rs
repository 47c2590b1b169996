//! The vocabulary of trust and safety: what can be reported and why, what operators do,
//! and what the audit log records.

crate::text_enum! {
    /// What can be reported.
    pub enum TargetType {
        Task = "task",
        User = "user",
        Offer = "offer",
        Question = "question",
        Message = "message",
        Review = "review",
    }
}

crate::text_enum! {
    /// Why it was reported.
    pub enum ReportReason {
        Spam = "spam",
        Scam = "scam",
        Offensive = "offensive",
        OffPlatform = "off_platform",
        Unsafe = "unsafe",
        Other = "other",
    }
}

crate::text_enum! {
    pub enum ReportStatus {
        Open = "open",
        Resolved = "resolved",
    }
}

crate::text_enum! {
    /// What an operator does about reports on one target.
    pub enum ModerationAction {
        /// Nothing wrong: the reports are closed.
        Dismiss = "dismiss",
        /// The content leaves the site (a task gets status `removed`).
        Remove = "remove",
        /// The author is told what was wrong.
        Warn = "warn",
        /// The author's account is suspended.
        Suspend = "suspend",
    }
}

crate::text_enum! {
    /// Every kind of row in the audit log.
    pub enum AuditAction {
        Dismiss = "dismiss",
        Remove = "remove",
        Warn = "warn",
        Suspend = "suspend",
        Reinstate = "reinstate",
        DisputeDecision = "dispute_decision",
        ProviderCallRetry = "provider_call_retry",
    }
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

crate::text_enum! {
    /// What an audit row is about: a reportable thing, or a dispute or provider call.
    pub enum AuditTarget {
        Task = "task",
        User = "user",
        Offer = "offer",
        Question = "question",
        Message = "message",
        Review = "review",
        Dispute = "dispute",
        ProviderCall = "provider_call",
    }
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

/// Refused to an operator who is part of the case: a party to the dispute's task, the author or a
/// reporter of the reported content, the account acted on (or one that reported them), the payee
/// or payer of the money. Another operator must act.
pub const OWN_CASE: &str = "You are part of this case, so another operator must act on it";

/// No one judges their own case.
pub fn may_act(operator_id: uuid::Uuid, involved: &[uuid::Uuid]) -> Result<(), crate::refusal::Denial> {
    if involved.contains(&operator_id) { Err(crate::refusal::Denial::Forbidden(OWN_CASE)) } else { Ok(()) }
}

#[cfg(test)]
mod tests {
    use uuid::Uuid;

    use super::*;

    #[test]
    fn an_operator_involved_in_the_case_may_not_act() {
        let (operator, party, other) = (Uuid::now_v7(), Uuid::now_v7(), Uuid::now_v7());
        assert_eq!(may_act(operator, &[party, other]), Ok(()));
        assert_eq!(may_act(operator, &[party, operator]), Err(crate::refusal::Denial::Forbidden(OWN_CASE)));
        assert_eq!(may_act(operator, &[]), Ok(()));
    }
}
