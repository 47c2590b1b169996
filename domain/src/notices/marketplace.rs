//! The marketplace's notices: offers, questions, messages, reviews,
//! invitations, a poster cancelling an open task, new dates and task alerts.

use uuid::Uuid;

use model::states::{NotificationKind, RescheduleStatus};
use store::{db::Timestamp, reviews::HIDDEN_FOR};

use crate::{
    marketplace::reschedules,
    notices::{Notice, NotificationRow, span, task_link},
};

/// The poster, of a new offer.
pub fn new_offer(poster_id: Uuid, task_id: Uuid, title: &str, now: Timestamp) -> NotificationRow {
    NotificationRow::new(
        poster_id,
        NotificationKind::Offer,
        "New offer",
        format!("You received a new offer on \"{title}\"."),
        task_link(task_id),
        now,
    )
}

/// The poster, of a new public question.
pub fn new_question(poster_id: Uuid, task_id: Uuid, title: &str, now: Timestamp) -> NotificationRow {
    NotificationRow::new(
        poster_id,
        NotificationKind::Task,
        "New question",
        format!("Someone asked a question about \"{title}\"."),
        task_link(task_id),
        now,
    )
}

/// The asker, when the poster answers.
pub fn question_answered(asker_id: Uuid, task_id: Uuid, title: &str, now: Timestamp) -> NotificationRow {
    NotificationRow::new(
        asker_id,
        NotificationKind::Task,
        "Question answered",
        format!("The poster answered your question about \"{title}\"."),
        task_link(task_id),
        now,
    )
}

/// The other party of a task, of a private message (its first 120 characters, or a photo).
pub fn new_message(recipient_id: Uuid, task_id: Uuid, title: &str, body: &str, now: Timestamp) -> NotificationRow {
    let preview: String = if body.is_empty() { "Sent a photo".to_owned() } else { body.chars().take(120).collect() };
    NotificationRow::new(
        recipient_id,
        NotificationKind::Message,
        "New message",
        format!("About \"{title}\": {preview}"),
        task_link(task_id),
        now,
    )
}

/// The person reviewed: reviews stay hidden until both are in or the time is up.
pub fn new_review(reviewee_id: Uuid, task_id: Uuid, title: &str, now: Timestamp) -> NotificationRow {
    NotificationRow::new(
        reviewee_id,
        NotificationKind::Task,
        "New review",
        format!(
            "You were reviewed for \"{title}\". Reviews show once both of you have written one, or after {}.",
            span(HIDDEN_FOR)
        ),
        task_link(task_id),
        now,
    )
}

/// A tasker the poster (named as the public sees them) invites to make an offer.
pub fn task_invitation(tasker_id: Uuid, poster: &str, task_id: Uuid, title: &str, now: Timestamp) -> NotificationRow {
    NotificationRow::new(
        tasker_id,
        NotificationKind::Task,
        "Task invitation",
        format!("{poster} invited you to make an offer on \"{title}\"."),
        task_link(task_id),
        now,
    )
}

/// Each tasker with a pending offer on an open task its poster cancelled.
pub fn open_task_cancelled(task_id: Uuid, title: &str) -> Notice {
    Notice {
        kind: NotificationKind::Task,
        title: "Task cancelled",
        message: format!("\"{title}\" was cancelled by the poster, so your offer was not selected."),
        link: task_link(task_id),
    }
}

/// The other party, of a proposed date (`when`: the date and its window, as shown).
pub fn date_proposed(to: Uuid, task_id: Uuid, title: &str, when: &str, now: Timestamp) -> NotificationRow {
    NotificationRow::new(
        to,
        NotificationKind::Task,
        "New date proposed",
        format!(
            "A new date was proposed for \"{title}\": {when}. Accept or decline within {}; otherwise the date stays as it is.",
            span(reschedules::ANSWER_WINDOW)
        ),
        task_link(task_id),
        now,
    )
}

/// What became of a proposed date: accepted, declined, or (anything else) lapsed.
pub fn date_answered(
    proposer: Uuid,
    task_id: Uuid,
    title: &str,
    answer: RescheduleStatus,
    when: &str,
    now: Timestamp,
) -> NotificationRow {
    let (heading, message) = match answer {
        RescheduleStatus::Accepted => {
            ("New date accepted", format!("The new date for \"{title}\" was accepted: {when}."))
        }
        RescheduleStatus::Declined => (
            "New date declined",
            format!("The new date you proposed for \"{title}\" was declined; the date stays as it was."),
        ),
        _ => (
            "New date lapsed",
            format!(
                "Nobody answered the new date you proposed for \"{title}\" within {}, so the date stays as it was.",
                span(reschedules::ANSWER_WINDOW)
            ),
        ),
    };
    NotificationRow::new(proposer, NotificationKind::Task, heading, message, task_link(task_id), now)
}

/// Someone whose alert a new task matches (the same text reaches push and email).
pub fn task_alert(
    to: Uuid,
    (task_id, title): (Uuid, &str),
    location: &str,
    remote: bool,
    alert_name: &str,
    now: Timestamp,
) -> NotificationRow {
    let place = if remote {
        "Remote"
    } else if location.is_empty() {
        "Location not given"
    } else {
        location
    };
    NotificationRow::new(
        to,
        NotificationKind::TaskAlert,
        "New task for you",
        format!("\"{title}\" ({place}) matches your alert \"{alert_name}\"."),
        task_link(task_id),
        now,
    )
}
