//! Every live event the server publishes, with its data ([`LiveEvent`]), and the payloads that
//! are not an API answer as is. `live` publishes them; the web's types of them are generated
//! from the OpenAPI document, where `LiveEvent` is a component.

use serde::Serialize;
use uuid::Uuid;

use model::{
    marketplace::categories,
    states::{PaymentStatus, TaskStatus},
};
use store::{db::Timestamp, payments::PaymentRow, tasks::TaskRow};

use crate::wire::{
    assigned_tasks::{PriceIncrease, Reschedule},
    marketplace::{OfferView, QuestionView, TaskPhoto, TaskSummary},
    messages::Message,
    moderation::ReportView,
    notifications::Notification,
};

/// An event on a topic of the WebSocket protocol (`{"type": "event", topic, seq, event, data}`):
/// its name and its data, one variant each. Publishing takes one of these, so an event's name and
/// its data's shape are written once, here, and the web switches over the generated union.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(tag = "event", content = "data")]
pub enum LiveEvent {
    /// A new open task, on the public feed `tasks`.
    #[serde(rename = "task.created")]
    TaskCreated(TaskSummary),
    /// A task's status or offer count changed, on `task:{id}` and `tasks`.
    #[serde(rename = "task.updated")]
    TaskUpdated(TaskUpdated),
    /// The poster edited an open task: its new public facts, on `task:{id}` and `tasks`.
    #[serde(rename = "task.updated")]
    TaskEdited(TaskEdited),
    /// On `task:{id}` without the amount and message; on the poster's `user:{id}` in full.
    #[serde(rename = "offer.created")]
    OfferCreated(OfferEvent),
    #[serde(rename = "offer.updated")]
    OfferUpdated(OfferEvent),
    #[serde(rename = "offer.withdrawn")]
    OfferWithdrawn(OfferEvent),
    /// On `task:{id}`.
    #[serde(rename = "question.created")]
    QuestionCreated(QuestionView),
    #[serde(rename = "question.answered")]
    QuestionAnswered(QuestionView),
    /// To both parties' `user:{id}`.
    #[serde(rename = "message.created")]
    MessageCreated(Message),
    /// To the other party's `user:{id}`.
    #[serde(rename = "message.read")]
    MessageRead(MessageRead),
    /// To the recipient's `user:{id}`.
    #[serde(rename = "notification.created")]
    NotificationCreated(Notification),
    /// To both parties' `user:{id}`.
    #[serde(rename = "payment.updated")]
    PaymentUpdated(PaymentUpdated),
    #[serde(rename = "price_increase.created")]
    PriceIncreaseCreated(PriceIncrease),
    #[serde(rename = "price_increase.updated")]
    PriceIncreaseUpdated(PriceIncrease),
    #[serde(rename = "reschedule.created")]
    RescheduleCreated(Reschedule),
    #[serde(rename = "reschedule.updated")]
    RescheduleUpdated(Reschedule),
    /// On the operators' topic `admin`.
    #[serde(rename = "report.created")]
    ReportCreated(ReportView),
    #[serde(rename = "dispute.created")]
    DisputeCreated(DisputeOpened),
}

/// `{...offer, offer_count}`: the shape of every offer event.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct OfferEvent {
    #[serde(flatten)]
    pub offer: OfferView,
    pub offer_count: i64,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct TaskUpdated {
    pub id: Uuid,
    pub status: TaskStatus,
    pub offer_count: i64,
}

/// The public facts a poster can edit, on top of the status update's fields. The poster's
/// summary is left out: the detail screen's copy carries more (rating) than a task row knows.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct TaskEdited {
    pub id: Uuid,
    pub status: TaskStatus,
    pub offer_count: i64,
    pub title: String,
    pub description: String,
    pub category_id: i64,
    pub category: String,
    pub category_icon: String,
    pub location: String,
    pub budget_cents: i64,
    pub currency: String,
    pub due_date: String,
    pub updated_at: Timestamp,
    /// All of them on `task:{id}`, the first on the feed (as the task and its card carry them);
    /// left out if they could not be read, so pages keep the photos they show.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub photos: Option<Vec<TaskPhoto>>,
}

impl TaskEdited {
    pub fn new(task: &TaskRow, photos: Option<Vec<TaskPhoto>>) -> Self {
        let (category, category_icon) = categories::label(task.category_id);
        Self {
            id: task.id,
            status: task.status,
            offer_count: task.offer_count,
            title: task.title.clone(),
            description: task.description.clone(),
            category_id: task.category_id,
            category: category.to_owned(),
            category_icon: category_icon.to_owned(),
            location: task.location.clone(),
            budget_cents: task.budget_cents,
            currency: task.currency.clone(),
            due_date: task.due_date.clone(),
            updated_at: task.updated_at,
            photos,
        }
    }

    /// The feed's copy: the first photo only.
    pub fn for_feed(&self) -> Self {
        let photos = self.photos.as_ref().map(|photos| photos.iter().take(1).cloned().collect());
        Self { photos, ..self.clone() }
    }
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct DisputeOpened {
    pub id: Uuid,
    pub task_id: Uuid,
}

/// `payment.updated`, to both parties.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct PaymentUpdated {
    pub id: Uuid,
    pub task_id: Uuid,
    pub offer_id: Uuid,
    pub status: PaymentStatus,
    pub amount_cents: i64,
    pub fee_cents: i64,
    pub currency: String,
}

impl From<&PaymentRow> for PaymentUpdated {
    fn from(payment: &PaymentRow) -> Self {
        Self {
            id: payment.id,
            task_id: payment.task_id,
            offer_id: payment.offer_id,
            status: payment.status,
            amount_cents: payment.amount_cents,
            fee_cents: payment.fee_cents,
            currency: payment.currency.clone(),
        }
    }
}

/// `message.read`, to the other party.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct MessageRead {
    pub task_id: Uuid,
    pub user_id: Uuid,
    pub up_to: Uuid,
    pub at: Timestamp,
}
