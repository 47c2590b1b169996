//! What the server tells open browsers, and on which topic. Every domain change
//! is published here, after its transaction commits; nothing private goes on a
//! public topic (`task:{id}`, `tasks`), private data only on `user:{id}`.

use uuid::Uuid;

use model::states::TaskStatus;
use store::{
    db::Timestamp, messages::MessageRow, notifications::NotificationRow, offers::OfferRow, profile_facts,
    questions::QuestionRow, task_photos, tasks::TaskRow,
};

use crate::{
    services::Services,
    wire::{
        events::{DisputeOpened, LiveEvent, MessageRead, OfferEvent, TaskEdited, TaskUpdated},
        marketplace::{OfferView, QuestionView, TaskPhoto, TaskSummary, fill_ratings},
        messages::Message,
        moderation::ReportView,
        notifications::Notification,
    },
};

pub const TASKS_TOPIC: &str = "tasks";

pub fn task_topic(task_id: Uuid) -> String {
    format!("task:{task_id}")
}

pub fn user_topic(user_id: Uuid) -> String {
    format!("user:{user_id}")
}

/// Serializes the event once and hands it to the hub (which never blocks on slow sockets).
pub async fn publish(state: &Services, topic: &str, event: &LiveEvent) {
    if let Some((name, data)) = name_and_data(event) {
        state.hub.publish(topic, &name, &data).await;
    }
}

/// An event's name and data as the hub takes them; None (logged) if it cannot be serialized.
fn name_and_data(event: &LiveEvent) -> Option<(String, serde_json::Value)> {
    let serialized = serde_json::to_value(event)
        .inspect_err(|error| tracing::error!(error = ?error, ?event, "could not serialize a live event"))
        .ok()?;
    let serde_json::Value::Object(mut fields) = serialized else { return None };
    let name = fields.remove("event")?.as_str()?.to_owned();
    Some((name, fields.remove("data").unwrap_or_default()))
}

/// What happened to an offer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OfferChange {
    Created,
    Updated,
    Withdrawn,
}

/// `offer.created` / `offer.updated` / `offer.withdrawn`: the public version
/// (no amount, no message) on `task:{id}`, the full one on the poster's `user:{id}`.
pub async fn offer_changed(state: &Services, change: OfferChange, offer: &OfferRow, poster_id: Uuid, offer_count: i64) {
    let event = |offer: OfferView| {
        let data = OfferEvent { offer, offer_count };
        match change {
            OfferChange::Created => LiveEvent::OfferCreated(data),
            OfferChange::Updated => LiveEvent::OfferUpdated(data),
            OfferChange::Withdrawn => LiveEvent::OfferWithdrawn(data),
        }
    };
    let mut public = OfferView::new(offer, false);
    match profile_facts::card_facts(&state.db, [public.tasker.id]).await {
        Ok(facts) => fill_ratings([&mut public.tasker], &facts),
        Err(error) => tracing::warn!(%error, "offer event without the tasker's rating"),
    }
    let mut full = OfferView::new(offer, true);
    full.tasker.rating = public.tasker.rating;
    publish(state, &task_topic(offer.task_id), &event(public)).await;
    publish(state, &user_topic(poster_id), &event(full)).await;
}

/// `task.updated` on `task:{id}` and on the public feed.
pub async fn task_updated(state: &Services, task_id: Uuid, status: TaskStatus, offer_count: i64) {
    let event = LiveEvent::TaskUpdated(TaskUpdated { id: task_id, status, offer_count });
    publish(state, &task_topic(task_id), &event).await;
    publish(state, TASKS_TOPIC, &event).await;
}

/// `task.updated` after the poster edited an open task or its photos, on `task:{id}` and the
/// public feed, carrying the new facts so every open page shows them at once.
pub async fn task_edited(state: &Services, task: &TaskRow) {
    let photos = match task_photos::photos_of(&state.db, task.id).await {
        Ok(ids) => Some(ids.into_iter().map(TaskPhoto::new).collect::<Vec<_>>()),
        Err(error) => {
            tracing::warn!(%error, task_id = %task.id, "could not read the task's photos for its live update");
            None
        }
    };
    let data = TaskEdited::new(task, photos);
    let for_feed = data.for_feed();
    publish(state, &task_topic(task.id), &LiveEvent::TaskEdited(data)).await;
    publish(state, TASKS_TOPIC, &LiveEvent::TaskEdited(for_feed)).await;
}

/// `task.created` (the TaskSummary, with the poster's rating) on the public feed.
pub async fn task_created(state: &Services, task: &TaskRow) {
    let mut summary = TaskSummary::from(task);
    match profile_facts::card_facts(&state.db, [summary.poster.id]).await {
        Ok(facts) => fill_ratings([&mut summary.poster], &facts),
        Err(error) => tracing::warn!(%error, "task event without the poster's rating"),
    }
    publish(state, TASKS_TOPIC, &LiveEvent::TaskCreated(summary)).await;
}

/// `question.created` on `task:{id}`; questions are public.
pub async fn question_created(state: &Services, question: &QuestionRow) {
    publish(state, &task_topic(question.task_id), &LiveEvent::QuestionCreated(QuestionView::from(question))).await;
}

/// `question.answered` on `task:{id}`: answers are as public as the questions.
pub async fn question_answered(state: &Services, question: &QuestionRow) {
    publish(state, &task_topic(question.task_id), &LiveEvent::QuestionAnswered(QuestionView::from(question))).await;
}

/// `notification.created` to each recipient's own topic, each recipient's in order. A task's
/// alerts can notify hundreds of taskers: the hub publishes them all in one round trip to Redis.
pub async fn notifications_created(state: &Services, notifications: &[NotificationRow]) {
    let topics: Vec<String> = notifications.iter().map(|notification| user_topic(notification.user_id)).collect();
    let mut names = Vec::new();
    let mut addressed = Vec::new();
    for (topic, notification) in topics.iter().zip(notifications) {
        if let Some((name, data)) = name_and_data(&LiveEvent::NotificationCreated(Notification::from(notification))) {
            names.push(name);
            addressed.push((topic.as_str(), data));
        }
    }
    let events: Vec<(&str, &str, serde_json::Value)> =
        addressed.into_iter().zip(&names).map(|((topic, data), name)| (topic, name.as_str(), data)).collect();
    state.hub.publish_all(&events).await;
}

/// `message.created` to both parties' own topics.
pub async fn message_created(state: &Services, message: &MessageRow) {
    let event = LiveEvent::MessageCreated(Message::from(message));
    for user_id in [message.sender_id, message.recipient_id] {
        publish(state, &user_topic(user_id), &event).await;
    }
}

/// `message.read` on the other party's own topic: `reader_id` has read the task's conversation up
/// to the message `up_to`.
pub async fn message_read(state: &Services, other: Uuid, task_id: Uuid, reader_id: Uuid, up_to: Uuid, at: Timestamp) {
    let event = LiveEvent::MessageRead(MessageRead { task_id, user_id: reader_id, up_to, at });
    publish(state, &user_topic(other), &event).await;
}
/// `report.created` on the operators' topic: a new report for the queue (a repeat of an open
/// one adds nothing and is not published).
pub async fn report_created(state: &Services, report: ReportView) {
    publish(state, crate::live_topics::ADMIN_TOPIC, &LiveEvent::ReportCreated(report)).await;
}

/// `dispute.created` on the operators' topic.
pub async fn dispute_opened(state: &Services, dispute_id: Uuid, task_id: Uuid) {
    let event = LiveEvent::DisputeCreated(DisputeOpened { id: dispute_id, task_id });
    publish(state, crate::live_topics::ADMIN_TOPIC, &event).await;
}
