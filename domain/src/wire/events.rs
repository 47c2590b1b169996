//! The payloads of live events that are not an API answer as is (see `live`).

use serde::Serialize;
use uuid::Uuid;

use model::{
    marketplace::categories,
    states::{PaymentStatus, TaskStatus},
};
use store::{db::Timestamp, payments::PaymentRow, tasks::TaskRow};

use crate::wire::marketplace::{OfferView, TaskPhoto};

/// `{...offer, offer_count}`: the shape of every offer event.
#[derive(Serialize)]
pub struct OfferEvent<'a> {
    #[serde(flatten)]
    pub offer: &'a OfferView,
    pub offer_count: i64,
}

#[derive(Serialize)]
pub struct TaskUpdated {
    pub id: Uuid,
    pub status: TaskStatus,
    pub offer_count: i64,
}

/// The public facts a poster can edit, on top of the status update's fields. The poster's
/// summary is left out: the detail screen's copy carries more (rating) than a task row knows.
#[derive(Serialize)]
pub struct TaskEdited<'a> {
    pub id: Uuid,
    pub status: TaskStatus,
    pub offer_count: i64,
    pub title: &'a str,
    pub description: &'a str,
    pub category_id: i64,
    pub category: &'a str,
    pub category_icon: &'a str,
    pub location: &'a str,
    pub budget_cents: i64,
    pub currency: &'a str,
    pub due_date: &'a str,
    pub updated_at: Timestamp,
    /// All of them on `task:{id}`, the first on the feed (as the task and its card carry them);
    /// left out if they could not be read, so pages keep the photos they show.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub photos: Option<Vec<TaskPhoto>>,
}

impl<'a> TaskEdited<'a> {
    pub fn new(task: &'a TaskRow, photos: Option<Vec<TaskPhoto>>) -> Self {
        let (category, category_icon) = categories::label(task.category_id);
        Self {
            id: task.id,
            status: task.status,
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
        }
    }

    /// The feed's copy: the first photo only.
    pub fn for_feed(&self) -> Self {
        let photos = self.photos.as_ref().map(|photos| photos.iter().take(1).cloned().collect());
        Self { photos, ..*self }
    }
}

#[derive(Serialize)]
pub struct DisputeOpened {
    pub id: Uuid,
    pub task_id: Uuid,
}

/// `payment.updated`, to both parties.
#[derive(Serialize)]
pub struct PaymentUpdated<'a> {
    pub id: Uuid,
    pub task_id: Uuid,
    pub offer_id: Uuid,
    pub status: PaymentStatus,
    pub amount_cents: i64,
    pub fee_cents: i64,
    pub currency: &'a str,
}

impl<'a> From<&'a PaymentRow> for PaymentUpdated<'a> {
    fn from(payment: &'a PaymentRow) -> Self {
        Self {
            id: payment.id,
            task_id: payment.task_id,
            offer_id: payment.offer_id,
            status: payment.status,
            amount_cents: payment.amount_cents,
            fee_cents: payment.fee_cents,
            currency: &payment.currency,
        }
    }
}

/// `message.read`, to the other party.
#[derive(Serialize)]
pub struct MessageRead {
    pub task_id: Uuid,
    pub user_id: Uuid,
    pub up_to: Uuid,
    pub at: Timestamp,
}
