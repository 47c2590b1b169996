//! A message between a task's two parties, and their conversation.

use serde::Serialize;
use uuid::Uuid;

use store::{db::Timestamp, messages::MessageRow};

#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
#[schema(as = MessageRow)]
pub struct Message {
    pub id: Uuid,
    pub task_id: Uuid,
    pub sender_id: Uuid,
    pub recipient_id: Uuid,
    /// Null once a moderator removed it (the text is kept for the audit).
    pub body: Option<String>,
    pub removed: bool,
    pub created_at: Timestamp,
    /// The attached photo, served only to the task's two parties; null without one and once removed.
    pub photo: Option<MessagePhoto>,
}

impl From<&MessageRow> for Message {
    fn from(row: &MessageRow) -> Self {
        Self {
            id: row.id,
            task_id: row.task_id,
            sender_id: row.sender_id,
            recipient_id: row.recipient_id,
            body: row.body.clone(),
            removed: row.removed,
            created_at: row.created_at,
            photo: row.photo_id.map(|photo_id| MessagePhoto::new(row.task_id, photo_id)),
        }
    }
}

/// Where a message's photo is read (with the reader's bearer token; there is no public URL).
#[derive(Clone, Debug, Default, Serialize, utoipa::ToSchema)]
pub struct MessagePhoto {
    pub id: Uuid,
    /// At most 1600 px on the longest side (JPEG).
    pub url: String,
    /// At most 480 px on the longest side (JPEG).
    pub thumb_url: String,
}

impl MessagePhoto {
    pub fn new(task_id: Uuid, photo_id: Uuid) -> Self {
        let url = format!("/api/tasks/{task_id}/messages/photos/{photo_id}");
        Self { id: photo_id, thumb_url: format!("{url}/thumb"), url }
    }
}

/// The conversation and how far the other party has read it.
#[derive(Serialize, utoipa::ToSchema)]
pub struct Conversation {
    /// Oldest first.
    pub items: Vec<Message>,
    /// The newest message the other party has read; null when they have read none, or when
    /// either party turned read receipts off.
    pub read_up_to: Option<Uuid>,
    pub read_at: Option<Timestamp>,
}
