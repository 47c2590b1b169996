//! What operators do: resolve the reports on a target (dismiss, remove, warn, suspend its
//! author), suspend and reinstate accounts. Each is one transaction with its audit row
//! (`store::moderation`); afterwards the ended sessions stop on this node at once and the
//! live pages hear of withdrawn offers and removed tasks. Reporters learn that their report
//! was handled, never how (the wording of every notice is in `notices`).

use time::{Duration, macros::format_description};
use uuid::Uuid;

use model::{
    moderation::{AuditAction, AuditTarget, ModerationAction, TargetType},
    refusal::Invalid,
};
use store::{
    audit_log::AuditEntry,
    db::Timestamp,
    moderation::{self, Effect, Resolution, Resolved, Suspended, Suspension},
    notifications::NotificationRow,
    offers,
    reports::{self, ReportRow},
};

use crate::{
    live, notices,
    refusal::{DomainError, DomainResult},
    services::Services,
};

pub const MAX_NOTE_CHARS: usize = 2000;
/// The close code of a suspended account's sockets (the app signs out on it).
pub const CLOSE_SUSPENDED: u16 = 4003;
pub const MAX_SUSPEND_DAYS: i64 = 3650;

fn report_not_found() -> DomainError {
    DomainError::not_found("Report")
}

fn already_resolved() -> DomainError {
    DomainError::Conflict("These reports were already resolved".into())
}

pub struct Decision<'a> {
    pub report_id: Uuid,
    pub action: ModerationAction,
    pub note: &'a str,
    pub suspend_days: Option<i64>,
    pub operator_id: Uuid,
}

/// Refuses an operator who is part of the case (`model::moderation::may_act`), leaving what they
/// tried in the audit log, marked refused.
pub async fn refuse_own_case(state: &Services, attempt: AuditEntry<'_>, involved: &[Uuid]) -> DomainResult<()> {
    if let Err(denial) = model::moderation::may_act(attempt.operator_id, involved) {
        store::audit_log::record(&state.db, &attempt.refused()).await?;
        return Err(denial.into());
    }
    Ok(())
}

/// Resolves every open report on the reported target at once; answers the report, resolved.
/// Not by an operator who wrote or reported the content.
pub async fn resolve(state: &Services, decision: &Decision<'_>) -> DomainResult<ReportRow> {
    let report = reports::report_by_id(&state.db, decision.report_id).await?.ok_or_else(report_not_found)?;
    let mut involved = reports::reporters_of(&state.db, report.target_type, report.target_id).await?;
    involved.push(report.author_id);
    let attempt = AuditEntry::new(
        decision.operator_id,
        decision.action.into(),
        (report.target_type.into(), report.target_id),
        decision.note.trim(),
    );
    refuse_own_case(state, attempt, &involved).await?;
    let note = checked_note(decision.note)?;
    if report.status == model::moderation::ReportStatus::Resolved {
        return Err(already_resolved());
    }
    let now = Timestamp::now();
    let effect = match decision.action {
        ModerationAction::Remove if report.target_type == TargetType::User => {
            return Err(
                Invalid::field("action", "A profile cannot be removed; warn or suspend the user instead").into()
            );
        }
        ModerationAction::Remove => Effect::Remove,
        ModerationAction::Suspend => Effect::Suspend(Suspension {
            user_id: report.author_id,
            until: suspension_end(decision.suspend_days, now)?,
            reason: note,
        }),
        ModerationAction::Dismiss | ModerationAction::Warn => Effect::Nothing,
    };
    let author_notice = author_notice(&report, decision.action, &effect, note, now);
    let audit = AuditEntry::new(
        decision.operator_id,
        decision.action.into(),
        (report.target_type.into(), report.target_id),
        note,
    );
    let resolution = Resolution {
        target_type: report.target_type,
        target_id: report.target_id,
        action: decision.action,
        effect,
        operator_id: decision.operator_id,
        reporter_notice: &notices::report_reviewed(),
        author_notice: author_notice.as_ref(),
        audit: &audit,
        now,
    };
    match moderation::resolve_reports(&state.db, &resolution).await? {
        Resolved::AlreadyResolved => Err(already_resolved()),
        Resolved::TaskNotOpen => Err(DomainError::Conflict(
            "Only an open task can be removed; once it is paid, use the dispute and refund tools".into(),
        )),
        Resolved::Done { notifications, suspended, .. } => {
            if decision.action == ModerationAction::Remove
                && report.target_type == TargetType::Task
                && let Some(task) = store::tasks::task(&state.db, report.target_id).await?
            {
                live::task_updated(state, task.id, task.status, task.offer_count).await;
            }
            if decision.action == ModerationAction::Suspend {
                after_suspension(state, report.author_id, suspended).await;
            }
            live::notifications_created(state, &notifications).await;
            Ok(reports::report_by_id(&state.db, report.id).await?.ok_or_else(report_not_found)?)
        }
    }
}

/// Suspends `user_id` for `days` (none: until reinstated), telling them why.
pub async fn suspend(
    state: &Services,
    operator_id: Uuid,
    user_id: Uuid,
    reason: &str,
    days: Option<i64>,
) -> DomainResult<()> {
    store::users::user_by_id(&state.db, user_id).await?.ok_or_else(|| DomainError::not_found("User"))?;
    let mut involved = vec![user_id];
    // Someone who reported the operator is someone the operator has a stake in.
    if reports::has_reported(&state.db, user_id, operator_id).await? {
        involved.push(operator_id);
    }
    let attempt = AuditEntry::new(operator_id, AuditAction::Suspend, (AuditTarget::User, user_id), reason.trim());
    refuse_own_case(state, attempt, &involved).await?;
    let reason = checked_note(reason)?;
    let now = Timestamp::now();
    let suspension = Suspension { user_id, until: suspension_end(days, now)?, reason };
    let notice = notices::account_suspended(user_id, suspension.until, reason, now);
    let audit = AuditEntry::new(operator_id, AuditAction::Suspend, (AuditTarget::User, user_id), reason);
    let suspended = moderation::suspend(&state.db, &suspension, &notice, &audit).await?;
    after_suspension(state, user_id, suspended).await;
    live::notifications_created(state, std::slice::from_ref(&notice)).await;
    Ok(())
}

/// Ends `user_id`'s suspension and lifts the holds on their transfers; a conflict when there is
/// neither.
pub async fn reinstate(state: &Services, operator_id: Uuid, user_id: Uuid, note: &str) -> DomainResult<()> {
    store::users::user_by_id(&state.db, user_id).await?.ok_or_else(|| DomainError::not_found("User"))?;
    let note = note.trim();
    let attempt = AuditEntry::new(operator_id, AuditAction::Reinstate, (AuditTarget::User, user_id), note);
    refuse_own_case(state, attempt, &[user_id]).await?;
    let notice = notices::account_reinstated(user_id, Timestamp::now());
    let audit = AuditEntry::new(operator_id, AuditAction::Reinstate, (AuditTarget::User, user_id), note);
    if !moderation::reinstate(&state.db, user_id, &notice, &audit).await? {
        return Err(DomainError::Conflict("This account is not suspended".into()));
    }
    live::notifications_created(state, std::slice::from_ref(&notice)).await;
    Ok(())
}

/// The ended sessions stop on this node at once (other nodes within the revocation cache's
/// few seconds), the account's sockets close on every node, and each withdrawn offer leaves
/// its task's page and its poster's list live.
async fn after_suspension(state: &Services, user_id: Uuid, suspended: Suspended) {
    state.sessions.mark_revoked(&suspended.sessions);
    state.hub.disconnect(realtime::Disconnect::User(user_id.to_string()), CLOSE_SUSPENDED).await;
    for withdrawn in suspended.withdrawn_offers {
        match offers::offer(&state.db, withdrawn.id).await {
            Ok(Some(offer)) => {
                live::offer_changed(
                    state,
                    live::OfferChange::Withdrawn,
                    &offer,
                    withdrawn.poster_id,
                    withdrawn.offer_count,
                )
                .await
            }
            Ok(None) => {}
            Err(error) => tracing::warn!(%error, "withdrawn offer not published"),
        }
        if let Ok(Some(task)) = store::tasks::task(&state.db, withdrawn.task_id).await {
            live::task_updated(state, task.id, task.status, withdrawn.offer_count).await;
        }
    }
}

fn checked_note(note: &str) -> Result<&str, Invalid> {
    let note = note.trim();
    if note.is_empty() || note.chars().count() > MAX_NOTE_CHARS {
        return Err(Invalid::field("note", &format!("Please give a reason (at most {MAX_NOTE_CHARS} characters)")));
    }
    Ok(note)
}

fn suspension_end(days: Option<i64>, now: Timestamp) -> Result<Option<Timestamp>, Invalid> {
    match days {
        None => Ok(None),
        Some(days) if (1..=MAX_SUSPEND_DAYS).contains(&days) => {
            Ok(Some(Timestamp::from_offset_date_time(now.to_offset_date_time() + Duration::days(days))))
        }
        Some(_) => Err(Invalid::field(
            "suspend_days",
            &format!("A suspension lasts 1 to {MAX_SUSPEND_DAYS} days, or leave it out for until reinstated"),
        )),
    }
}

/// "3 December 2026" (UTC).
pub fn end_date_text(until: Timestamp) -> String {
    until
        .to_offset_date_time()
        .format(format_description!("[day padding:none] [month repr:long] [year]"))
        .unwrap_or_default()
}

/// What the login form shows a suspended account.
pub fn suspended_message(until: Option<Timestamp>) -> String {
    match until {
        Some(until) => format!(
            "Your account is suspended until {}. Contact support if you think this is a mistake.",
            end_date_text(until)
        ),
        None => "Your account is suspended. Contact support if you think this is a mistake.".into(),
    }
}

fn author_notice(
    report: &ReportRow,
    action: ModerationAction,
    effect: &Effect,
    note: &str,
    now: Timestamp,
) -> Option<NotificationRow> {
    let target = (report.target_type, report.target_id);
    match (action, effect) {
        (ModerationAction::Dismiss, _) => None,
        (ModerationAction::Remove, _) => Some(notices::content_removed(report.author_id, target, note, now)),
        (ModerationAction::Warn, _) => Some(notices::author_warned(report.author_id, target, note, now)),
        (ModerationAction::Suspend, Effect::Suspend(suspension)) => {
            Some(notices::account_suspended(suspension.user_id, suspension.until, suspension.reason, now))
        }
        (ModerationAction::Suspend, _) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_suspension_message_names_the_end_date_when_there_is_one() {
        let until = Timestamp::from_offset_date_time(time::macros::datetime!(2026-12-03 10:00 UTC));
        assert_eq!(
            suspended_message(Some(until)),
            "Your account is suspended until 3 December 2026. Contact support if you think this is a mistake."
        );
        assert!(suspended_message(None).starts_with("Your account is suspended."));
    }

    #[test]
    fn a_suspension_lasts_one_day_to_ten_years_or_until_reinstated() {
        let now = Timestamp(0);
        assert_eq!(suspension_end(None, now).unwrap(), None);
        assert_eq!(suspension_end(Some(1), now).unwrap(), Some(Timestamp(86_400_000)));
        let refused =
            |days| suspension_end(Some(days), now).is_err_and(|invalid| invalid.fields.contains_key("suspend_days"));
        assert!(refused(0));
        assert!(refused(MAX_SUSPEND_DAYS + 1));
    }
}
