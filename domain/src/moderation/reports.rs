//! Filing a report: the reporter must be able to see what they report (a message only
//! its two parties, a review before it is out only its two parties), the report keeps
//! the target's text as it is now, and a repeat while the first is open is the first.

use uuid::Uuid;

use model::{
    moderation::{ReportReason, TargetType},
    refusal::Invalid,
};
use store::{
    db::{Timestamp, new_id},
    reports::{self, ContentRow, NewReport, ReportRow},
};

use crate::{
    live,
    rate_limit::REPORTS_PER_USER,
    refusal::{DomainError, DomainResult},
    services::Services,
    wire::moderation::ReportView,
};

pub const MAX_DETAILS_CHARS: usize = 1000;

pub struct Filing<'a> {
    pub reporter_id: Uuid,
    pub target_type: TargetType,
    pub target_id: Uuid,
    pub reason: ReportReason,
    pub details: &'a str,
}

/// Files the report (20 an hour per reporter), then tells the operators' queue of a new one.
/// The report, and whether it is new (`false`: the reporter's open report on this target,
/// nothing added). A target the reporter cannot see is not found.
pub async fn file(state: &Services, filing: &Filing<'_>) -> DomainResult<(ReportRow, bool)> {
    state.limiter.check(&format!("reports:{}", filing.reporter_id), REPORTS_PER_USER).await?;
    let details = filing.details.trim();
    if details.chars().count() > MAX_DETAILS_CHARS {
        return Err(Invalid::field("details", &format!("Must be at most {MAX_DETAILS_CHARS} characters")).into());
    }
    let now = Timestamp::now();
    let content = reports::content(&state.db, filing.target_type, filing.target_id, now)
        .await?
        .filter(|content| may_see(content, filing.reporter_id))
        .ok_or_else(|| DomainError::not_found("Reported item"))?;
    let report = NewReport {
        id: new_id(),
        reporter_id: filing.reporter_id,
        target_type: filing.target_type,
        target_id: filing.target_id,
        author_id: content.author_id,
        reason: filing.reason,
        details,
        snapshot: &snapshot(&content),
        created_at: now,
    };
    let (row, new) = reports::file_report(&state.db, &report).await?;
    if new {
        live::report_created(state, ReportView::from(&row)).await;
    }
    Ok((row, new))
}

/// Public things anyone may report; a message or an unpublished review only its two parties.
pub fn may_see(content: &ContentRow, caller: Uuid) -> bool {
    content.public || content.author_id == caller || content.other_party == Some(caller)
}

/// The target's text as an operator reads it later: the main text, then the rest.
pub fn snapshot(content: &ContentRow) -> String {
    match content.extra.as_deref().map(str::trim).filter(|extra| !extra.is_empty()) {
        Some(extra) => format!("{}\n\n{extra}", content.text),
        None => content.text.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn content(public: bool, other_party: Option<Uuid>) -> ContentRow {
        ContentRow {
            author_id: Uuid::from_u128(1),
            text: "Title".into(),
            extra: None,
            other_party,
            public,
            removed: false,
        }
    }

    #[test]
    fn a_private_thing_is_seen_by_its_two_parties_only() {
        let (author, other, stranger) = (Uuid::from_u128(1), Uuid::from_u128(2), Uuid::from_u128(3));
        let message = content(false, Some(other));
        assert!(may_see(&message, author) && may_see(&message, other));
        assert!(!may_see(&message, stranger));
        assert!(may_see(&content(true, None), stranger));
    }

    #[test]
    fn the_snapshot_keeps_every_text_of_the_target() {
        let mut task = content(true, None);
        assert_eq!(snapshot(&task), "Title");
        task.extra = Some("Description".into());
        assert_eq!(snapshot(&task), "Title\n\nDescription");
    }
}
