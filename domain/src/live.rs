//! What the server tells open browsers, and on which topic. Every domain change
//! is published here, after its transaction commits; nothing private goes on a
//! public topic (`task:{id}`, `tasks`), private data only on `user:{id}`.

use serde::Serialize;
use uuid::Uuid;

use model::states::TaskStatus;
use store::{
    db::Timestamp, messages::MessageRow, notifications::NotificationRow, offers::OfferRow, profile_facts,
    questions::QuestionRow, task_photos, tasks::TaskRow,
};

use crate::{
    services::Services,
    wire::{
        events::{DisputeOpened, MessageRead, OfferEvent, TaskEdited, TaskUpdated},
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

/// Serializes `data` once and hands it to the hub (which never blocks on slow sockets).
pub async fn publish(state: &Services, topic: &str, event: &str, data: &impl Serialize) {
    if let Some(value) = event_data(event, data) {
        state.hub.publish(topic, event, &value).await;
    }
}

/// An event's data as the hub takes it; None (logged) if it cannot be serialized.
fn event_data(event: &str, data: &impl Serialize) -> Option<serde_json::Value> {
    serde_json::to_value(data)
        .inspect_err(|error| tracing::error!(error = ?error, event, "could not serialize a live event"))
        .ok()
}

/// `offer.created` / `offer.updated` / `offer.withdrawn`: the public version
/// (no amount, no message) on `task:{id}`, the full one on the poster's `user:{id}`.
pub async fn offer_changed(state: &Services, event: &str, offer: &OfferRow, poster_id: Uuid, offer_count: i64) {
    let mut public = OfferView::new(offer, false);
    match profile_facts::card_facts(&state.db, [public.tasker.id]).await {
        Ok(facts) => fill_ratings([&mut public.tasker], &facts),
        Err(error) => tracing::warn!(%error, "offer event without the tasker's rating"),
    }
    publish(state, &task_topic(offer.task_id), event, &OfferEvent { offer: &public, offer_count }).await;
    let mut full = OfferView::new(offer, true);
    full.tasker.rating = public.tasker.rating;
    publish(state, &user_topic(poster_id), event, &OfferEvent { offer: &full, offer_count }).await;
}

/// `task.updated` on `task:{id}` and on the public feed.
pub async fn task_updated(state: &Services, task_id: Uuid, status: TaskStatus, offer_count: i64) {
    let data = TaskUpdated { id: task_id, status, offer_count };
    publish(state, &task_topic(task_id), "task.updated", &data).await;
    publish(state, TASKS_TOPIC, "task.updated", &data).await;
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
    publish(state, &task_topic(task.id), "task.updated", &data).await;
    publish(state, TASKS_TOPIC, "task.updated", &data.for_feed()).await;
}

/// `task.created` (the TaskSummary, with the poster's rating) on the public feed.
pub async fn task_created(state: &Services, task: &TaskRow) {
    let mut summary = TaskSummary::from(task);
    match profile_facts::card_facts(&state.db, [summary.poster.id]).await {
        Ok(facts) => fill_ratings([&mut summary.poster], &facts),
        Err(error) => tracing::warn!(%error, "task event without the poster's rating"),
    }
    publish(state, TASKS_TOPIC, "task.created", &summary).await;
}

/// `question.created` on `task:{id}`; questions are public.
pub async fn question_created(state: &Services, question: &QuestionRow) {
    publish(state, &task_topic(question.task_id), "question.created", &QuestionView::from(question)).await;
}

/// `question.answered` on `task:{id}`: answers are as public as the questions.
pub async fn question_answered(state: &Services, question: &QuestionRow) {
    publish(state, &task_topic(question.task_id), "question.answered", &QuestionView::from(question)).await;
}

/// `notification.created` to each recipient's own topic, each recipient's in order. A task's
/// alerts can notify hundreds of taskers: the hub publishes them all in one round trip to Redis.
pub async fn notifications_created(state: &Services, notifications: &[NotificationRow]) {
    let topics: Vec<String> = notifications.iter().map(|notification| user_topic(notification.user_id)).collect();
    let events: Vec<(&str, &str, serde_json::Value)> = topics
        .iter()
        .zip(notifications)
        .filter_map(|(topic, notification)| {
            let data = event_data("notification.created", &Notification::from(notification))?;
            Some((topic.as_str(), "notification.created", data))
        })
        .collect();
    state.hub.publish_all(&events).await;
}

/// `message.created` to both parties' own topics.
pub async fn message_created(state: &Services, message: &MessageRow) {
    let data = Message::from(message);
    for user_id in [message.sender_id, message.recipient_id] {
        publish(state, &user_topic(user_id), "message.created", &data).await;
    }
}

/// `message.read` on the other party's own topic: `reader_id` has read the task's conversation up
/// to the message `up_to`.
pub async fn message_read(state: &Services, other: Uuid, task_id: Uuid, reader_id: Uuid, up_to: Uuid, at: Timestamp) {
    let data = MessageRead { task_id, user_id: reader_id, up_to, at };
    publish(state, &user_topic(other), "message.read", &data).await;
}
/// `report.created` on the operators' topic: a new report for the queue (a repeat of an open
/// one adds nothing and is not published).
pub async fn report_created(state: &Services, report: &ReportView) {
    publish(state, crate::live_topics::ADMIN_TOPIC, "report.created", report).await;
}

/// `dispute.created` on the operators' topic.
pub async fn dispute_opened(state: &Services, dispute_id: Uuid, task_id: Uuid) {
    publish(state, crate::live_topics::ADMIN_TOPIC, "dispute.created", &DisputeOpened { id: dispute_id, task_id })
        .await;
}
