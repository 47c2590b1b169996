//! Private messages between the poster and the assigned tasker, from assignment on: who is a
//! party to a conversation, sending a message (the recipient is notified) and marking it read
//! (the other party hears of it when both share read receipts).

use std::time::Duration;

use uuid::Uuid;

use model::{
    payments::rules::{self, Party},
    refusal::Invalid,
};
use store::{
    db::{Timestamp, new_id},
    messages::{self, MessageRow},
    receipts,
    tasks::TaskRow,
};

use crate::{
    live, marketplace::tasks::task_or_not_found, media::photos::PhotoKey, notices, rate_limit::Limit,
    refusal::DomainResult, services::Services,
};

pub const MAX_MESSAGE_CHARS: usize = 2000;

/// The task when `caller_id` is one of its two parties, and which one: messages open once it is assigned.
pub async fn conversation(state: &Services, caller_id: Uuid, task_id: Uuid) -> DomainResult<(TaskRow, Party)> {
    let task = task_or_not_found(state, task_id).await?;
    let party = Party::of(caller_id, task.poster_id, task.assigned_tasker_id);
    rules::may_message(party, task.assigned_tasker_id)?;
    Ok((task, party))
}

/// The other party of a task the caller is a party of.
pub fn other_party(task: &TaskRow, party: Party) -> Uuid {
    match party {
        Party::Poster => task.assigned_tasker_id.unwrap_or_default(),
        _ => task.poster_id,
    }
}

/// Whether `a` and `b` see each other's read receipts: only when both share them.
pub async fn receipts_shared(state: &Services, a: Uuid, b: Uuid) -> DomainResult<bool> {
    Ok(receipts::privacy(&state.db, a).await?.share_read_receipts
        && receipts::privacy(&state.db, b).await?.share_read_receipts)
}

/// A message's text, trimmed: needed unless a photo goes with it, at most 2000 characters.
pub fn checked_body(body: &str, with_photo: bool) -> Result<&str, Invalid> {
    let body = body.trim();
    if (!with_photo && body.is_empty()) || body.chars().count() > MAX_MESSAGE_CHARS {
        return Err(Invalid::field("body", "Please write a message (up to 2000 characters)"));
    }
    Ok(body)
}

/// Counts a message `sender_id` is about to send on the task against the limits (429 with
/// `Retry-After` past them): per account and per conversation, each message notifying the other
/// party. Called before anything of the message (its photo) is stored.
pub async fn pace(state: &Services, task_id: Uuid, sender_id: Uuid) -> DomainResult<()> {
    let minute = Duration::from_secs(60);
    let per_account = Limit::new(state.config.messages_per_account_per_minute, minute);
    state.limiter.check(&format!("messages:account:{sender_id}"), per_account).await?;
    let per_task = Limit::new(state.config.messages_per_task_per_minute, minute);
    state.limiter.check(&format!("messages:task:{task_id}"), per_task).await?;
    Ok(())
}

/// Sends `body` (checked by [`checked_body`]) and the photo already stored under `photo_id`, if
/// any, to the other party of the conversation: `message.created` reaches both, the recipient is
/// notified. The photo is deleted again when the message cannot be saved.
pub async fn send(
    state: &Services,
    task: &TaskRow,
    party: Party,
    sender_id: Uuid,
    body: &str,
    photo_id: Option<Uuid>,
) -> DomainResult<MessageRow> {
    let recipient_id = other_party(task, party);
    let now = Timestamp::now();
    let message = MessageRow {
        id: new_id(),
        task_id: task.id,
        sender_id,
        recipient_id,
        body: Some(body.to_owned()),
        removed: false,
        created_at: now,
        photo_id,
    };
    let notification = notices::new_message(recipient_id, task.id, &task.title, body, now);
    if let Err(error) = messages::insert_message(&state.db, &message, &notification).await {
        if let Some(photo_id) = photo_id {
            state.media.delete_photo(PhotoKey::Message(photo_id)).await;
        }
        return Err(error.into());
    }
    live::message_created(state, &message).await;
    live::notifications_created(state, &[notification]).await;
    Ok(message)
}

/// Records that `reader_id` has read the task's conversation up to a message; a mark older than
/// the stored one changes nothing. The other party hears of it unless either turned read receipts off.
pub async fn mark_read(state: &Services, task_id: Uuid, reader_id: Uuid, up_to: Option<Uuid>) -> DomainResult<()> {
    let (task, party) = conversation(state, reader_id, task_id).await?;
    let Some(up_to) = up_to else {
        return Err(Invalid::field("up_to", "Say which message was read").into());
    };
    if receipts::message_sender(&state.db, task.id, up_to).await?.is_none() {
        return Err(Invalid::field("up_to", "There is no such message in this conversation").into());
    }
    let at = Timestamp::now();
    if receipts::mark_read(&state.db, task.id, reader_id, up_to, at).await? {
        let other = other_party(&task, party);
        if receipts_shared(state, reader_id, other).await? {
            live::message_read(state, other, task.id, reader_id, up_to, at).await;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_needs_words_unless_a_photo_goes_with_it() {
        assert_eq!(checked_body("  hello ", false), Ok("hello"));
        assert!(checked_body("   ", false).is_err_and(|invalid| invalid.fields.contains_key("body")));
        assert_eq!(checked_body("  ", true), Ok(""));
        assert!(checked_body(&"x".repeat(MAX_MESSAGE_CHARS + 1), true).is_err());
    }
}
