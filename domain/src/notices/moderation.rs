//! The moderation notices: what a report's author, its reporter and a
//! suspended or reinstated account are told.

use uuid::Uuid;

use model::{moderation::TargetType, states::NotificationKind};
use store::db::Timestamp;

use crate::{
    moderation::actions::end_date_text,
    notices::{Notice, NotificationRow, task_link},
};

/// Everyone whose open report on a target an operator resolved.
pub fn report_reviewed() -> Notice {
    Notice {
        kind: NotificationKind::Task,
        title: "Report reviewed",
        message: "Thanks for your report. Our team reviewed it and dealt with it under the community guidelines."
            .into(),
        link: None,
    }
}

/// The account's owner, until `until` (`None`: until reinstated), with the reason.
pub fn account_suspended(user_id: Uuid, until: Option<Timestamp>, reason: &str, now: Timestamp) -> NotificationRow {
    let until = match until {
        Some(until) => format!("until {}", end_date_text(until)),
        None => "until further notice".into(),
    };
    NotificationRow::new(
        user_id,
        NotificationKind::Task,
        "Account suspended",
        format!("Your account is suspended {until}: {reason}"),
        None,
        now,
    )
}

pub fn account_reinstated(user_id: Uuid, now: Timestamp) -> NotificationRow {
    NotificationRow::new(
        user_id,
        NotificationKind::Task,
        "Account reinstated",
        "Your account is active again. Welcome back to Taskhub.".into(),
        None,
        now,
    )
}

fn what_it_is(target_type: TargetType) -> &'static str {
    match target_type {
        TargetType::Task => "task",
        TargetType::User => "profile",
        TargetType::Offer => "offer message",
        TargetType::Question => "question",
        TargetType::Message => "message",
        TargetType::Review => "review",
    }
}

fn target_link(target_type: TargetType, target_id: Uuid) -> Option<String> {
    if target_type == TargetType::Task { task_link(target_id) } else { None }
}

/// The author of content a moderator removed.
pub fn content_removed(
    author_id: Uuid,
    (target_type, target_id): (TargetType, Uuid),
    note: &str,
    now: Timestamp,
) -> NotificationRow {
    let what = what_it_is(target_type);
    NotificationRow::new(
        author_id,
        NotificationKind::Task,
        "Removed by a moderator",
        format!("Your {what} was removed by a moderator: {note}"),
        target_link(target_type, target_id),
        now,
    )
}

/// The author of reported content a moderator warned.
pub fn author_warned(
    author_id: Uuid,
    (target_type, target_id): (TargetType, Uuid),
    note: &str,
    now: Timestamp,
) -> NotificationRow {
    let what = what_it_is(target_type);
    NotificationRow::new(
        author_id,
        NotificationKind::Task,
        "A warning from Taskhub",
        format!(
            "A moderator reviewed a report about your {what}: {note} Please follow the community guidelines; \
             repeated breaches lead to suspension."
        ),
        target_link(target_type, target_id),
        now,
    )
}
