//! A notification as its recipient reads it, in the list and in `notification.created`.

use serde::Serialize;
use uuid::Uuid;

use model::states::NotificationKind;
use store::{db::Timestamp, notifications::NotificationRow};

use crate::wire::paging::Page;

#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
#[schema(as = NotificationRow)]
pub struct Notification {
    pub id: Uuid,
    #[serde(rename = "type")]
    pub kind: NotificationKind,
    pub title: String,
    pub message: String,
    pub link: Option<String>,
    pub is_read: bool,
    pub created_at: Timestamp,
}

impl From<&NotificationRow> for Notification {
    fn from(row: &NotificationRow) -> Self {
        Self {
            id: row.id,
            kind: row.kind,
            title: row.title.clone(),
            message: row.message.clone(),
            link: row.link.clone(),
            is_read: row.is_read,
            created_at: row.created_at,
        }
    }
}

/// A page of notifications, and how many are unread in all.
#[derive(Serialize, utoipa::ToSchema)]
pub struct NotificationsPage {
    pub items: Vec<Notification>,
    pub unread_count: i64,
    /// Pass as `cursor` for the next page; null on the last page.
    pub next_cursor: Option<String>,
    /// Whether there is a next page (`next_cursor` is set).
    pub has_more: bool,
}

impl NotificationsPage {
    pub fn new(page: Page<Notification>, unread_count: i64) -> Self {
        Self { items: page.items, unread_count, next_cursor: page.next_cursor, has_more: page.has_more }
    }
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct Unsubscribed {
    pub message: String,
}
