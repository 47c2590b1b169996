//! Web Push as the API shows it: the server's public key, the caller's devices (never their keys) and
//! what a test push reached.

use serde::Serialize;
use uuid::Uuid;

use store::{db::Timestamp, push_subscriptions::PushSubscriptionRow};

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

#[derive(Serialize, utoipa::ToSchema)]
pub struct PublicKey {
    /// The VAPID public key (uncompressed P-256 point, URL-safe base64): the browser's `applicationServerKey`.
    pub key: String,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct Devices {
    pub items: Vec<Device>,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct TestResult {
    /// Devices whose push service accepted the test push.
    pub sent: usize,
    /// Devices it could not reach (gone ones are removed).
    pub failed: usize,
}
