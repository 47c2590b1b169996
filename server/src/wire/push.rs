//! A device that receives Web Push, as the caller's device list shows it.

use serde::Serialize;
use uuid::Uuid;

use crate::{db::Timestamp, store::push_subscriptions::PushSubscriptionRow};

/// What the device list shows: never the keys.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct Device {
    pub id: Uuid,
    pub endpoint: String,
    pub label: Option<String>,
    pub created_at: Timestamp,
    pub last_success_at: Option<Timestamp>,
}

impl From<PushSubscriptionRow> for Device {
    fn from(row: PushSubscriptionRow) -> Self {
        Self {
            id: row.id,
            endpoint: row.endpoint,
            label: row.label,
            created_at: row.created_at,
            last_success_at: row.last_success_at,
        }
    }
}
