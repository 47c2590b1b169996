//! What the server tells open browsers, and on which topic. Every domain change
//! is published here, after its transaction commits; nothing private goes on a
//! public topic (`task:{id}`, `tasks`), private data only on `user:{id}`.

use serde::Serialize;
use uuid::Uuid;

use crate::{
    db::Timestamp,
    marketplace::categories,
    state::AppState,
    store::{notifications::NotificationRow, offers::OfferRow, task_photos, tasks::TaskRow},
    wire::marketplace::{OfferView, QuestionView, TaskPhoto, TaskSummary, fill_ratings},
};

pub const TASKS_TOPIC: &str = "tasks";

pub fn task_topic(task_id: Uuid) -> String {
    format!("task:{task_id}")
}

pub fn user_topic(user_id: Uuid) -> String {
    format!("user:{user_id}")
}

/// Serializes `data` once and hands it to the hub (which never blocks on slow sockets).
pub async fn publish(state: &AppState, topic: &str, event: &str, data: &impl Serialize) {
    match serde_json::to_value(data) {
        Ok(value) => state.hub.publish(topic, event, &value).await,
        Err(error) => tracing::error!(error = ?error, event, "could not serialize a live event"),
    }
}

/// `{...offer, offer_count}`: the shape of every offer event.
#[derive(Serialize)]
struct OfferEvent<'a> {
    #[serde(flatten)]
    offer: &'a OfferView,
    offer_count: i64,
}

/// `offer.created` / `offer.updated` / `offer.withdrawn`: the public version
/// (no amount, no message) on `task:{id}`, the full one on the poster's `user:{id}`.
pub async fn offer_changed(state: &AppState, event: &str, offer: &OfferRow, poster_id: Uuid, offer_count: i64) {
    let mut public = OfferView::new(offer, false);
    if let Err(error) = fill_ratings(&state.db, vec![&mut public.tasker]).await {
        tracing::warn!(%error, "offer event without the tasker's rating");
    }
    publish(state, &task_topic(offer.task_id), event, &OfferEvent { offer: &public, offer_count }).await;
    let mut full = OfferView::new(offer, true);
    full.tasker.rating = public.tasker.rating;
    publish(state, &user_topic(poster_id), event, &OfferEvent { offer: &full, offer_count }).await;
}

#[derive(Serialize)]
struct TaskUpdated<'a> {
    id: Uuid,
    status: &'a str,
    offer_count: i64,
}

/// `task.updated` on `task:{id}` and on the public feed.
pub async fn task_updated(state: &AppState, task_id: Uuid, status: &str, offer_count: i64) {
    let data = TaskUpdated { id: task_id, status, offer_count };
    publish(state, &task_topic(task_id), "task.updated", &data).await;
    publish(state, TASKS_TOPIC, "task.updated", &data).await;
}

/// The public facts a poster can edit, on top of the status update's fields. The poster's
/// summary is left out: the detail screen's copy carries more (rating) than a task row knows.
#[derive(Serialize)]
struct TaskEdited<'a> {
    id: Uuid,
    status: &'a str,
    offer_count: i64,
    title: &'a str,
    description: &'a str,
    category_id: i64,
    category: &'a str,
    category_icon: &'a str,
    location: &'a str,
    budget_cents: i64,
    currency: &'a str,
    due_date: &'a str,
    updated_at: Timestamp,
    /// All of them on `task:{id}`, the first on the feed (as the task and its card carry them);
    /// left out if they could not be read, so pages keep the photos they show.
    #[serde(skip_serializing_if = "Option::is_none")]
    photos: Option<Vec<TaskPhoto>>,
}

/// `task.updated` after the poster edited an open task or its photos, on `task:{id}` and the
/// public feed, carrying the new facts so every open page shows them at once.
pub async fn task_edited(state: &AppState, task: &TaskRow) {
    let photos = match task_photos::photos_of(&state.db, task.id).await {
        Ok(ids) => Some(ids.into_iter().map(TaskPhoto::new).collect::<Vec<_>>()),
        Err(error) => {
            tracing::warn!(%error, task_id = %task.id, "could not read the task's photos for its live update");
            None
        }
    };
    let (category, category_icon) = categories::label(task.category_id);
    let data = TaskEdited {
        id: task.id,
        status: &task.status,
        offer_count: task.offer_count,
        title: &task.title,
        description: &task.description,
        category_id: task.category_id,
        category,
        category_icon,
        location: &task.location,
        budget_cents: task.budget_cents,
        currency: &task.currency,
        due_date: &task.due_date,
        updated_at: task.updated_at,
        photos,
    };
    publish(state, &task_topic(task.id), "task.updated", &data).await;
    let first_photo_only = data.photos.as_ref().map(|photos| photos.iter().take(1).cloned().collect());
    publish(state, TASKS_TOPIC, "task.updated", &TaskEdited { photos: first_photo_only, ..data }).await;
}

/// `task.created` (the TaskSummary) on the public feed.
pub async fn task_created(state: &AppState, task: &TaskSummary) {
    publish(state, TASKS_TOPIC, "task.created", task).await;
}

/// `question.created` on `task:{id}`; questions are public.
pub async fn question_created(state: &AppState, question: &QuestionView) {
    publish(state, &task_topic(question.task_id), "question.created", question).await;
}

/// `question.answered` on `task:{id}`: answers are as public as the questions.
pub async fn question_answered(state: &AppState, question: &QuestionView) {
    publish(state, &task_topic(question.task_id), "question.answered", question).await;
}

/// `notification.created` to each recipient's own topic.
pub async fn notifications_created(state: &AppState, notifications: &[NotificationRow]) {
    for notification in notifications {
        publish(state, &user_topic(notification.user_id), "notification.created", notification).await;
    }
}

#[derive(Serialize)]
struct DisputeOpened {
    id: Uuid,
    task_id: Uuid,
}

/// `report.created` on the operators' topic: a new report for the queue (a repeat of an open
/// one adds nothing and is not published).
pub async fn report_created(state: &AppState, report: &crate::http::reports::ReportView) {
    publish(state, crate::live_topics::ADMIN_TOPIC, "report.created", report).await;
}

/// `dispute.created` on the operators' topic.
pub async fn dispute_opened(state: &AppState, dispute_id: Uuid, task_id: Uuid) {
    publish(state, crate::live_topics::ADMIN_TOPIC, "dispute.created", &DisputeOpened { id: dispute_id, task_id })
        .await;
}
