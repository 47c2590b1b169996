//! Web Push devices: the server's VAPID public key, the signed-in user's
//! devices (add, list, remove) and a test push to all of them.

use axum::{
    Router,
    extract::State,
    http::StatusCode,
    routing::{get, post},
};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use domain::{
    delivery::{
        endpoint,
        push::{self, DeviceKeys, PushPayload, Sent},
    },
    mail::Email,
    rate_limit::Limit,
    wire::push::{Device, Devices, PublicKey, TestResult},
};
use store::{
    db::{Timestamp, new_id},
    push_subscriptions::{self, NewSubscription, PushSubscriptionRow, Saved},
    users,
};

use crate::http::{
    error::{ApiError, ApiResult, FieldErrors},
    extract::{ApiJson, AuthUser},
    state::AppState,
};

const MAX_LABEL_CHARS: usize = 100;
/// Each test push is an outgoing request per device: keep them rare.
const TEST_PUSHES: Limit = Limit::per_minute(5);
/// How long a test push may take in all, however many devices and however slow their services.
const TEST_PUSH_DEADLINE: std::time::Duration = std::time::Duration::from_secs(5);

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/push/public-key", get(public_key))
        .route("/me/push-subscriptions", get(list_devices).post(add_device).delete(remove_device))
        .route("/me/push-subscriptions/test", post(send_test))
}

#[utoipa::path(get, path = "/api/push/public-key", tag = "push", responses((status = 200, body = PublicKey)))]
pub async fn public_key(State(state): State<AppState>) -> ApiJson<PublicKey> {
    ApiJson(PublicKey { key: state.delivery.push.public_key().to_owned() })
}

#[derive(Debug, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(default)]
pub struct SubscriptionKeys {
    p256dh: String,
    auth: String,
}

/// A browser's `PushSubscription.toJSON()`, plus an optional name for the device list.
#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(default)]
pub struct SubscriptionInput {
    endpoint: String,
    keys: SubscriptionKeys,
    label: Option<String>,
}

/// The signed-in user's devices, newest first.
#[utoipa::path(get, path = "/api/me/push-subscriptions", tag = "push", security(("bearer" = [])),
    responses((status = 200, body = Devices), (status = 401)))]
pub async fn list_devices(State(state): State<AppState>, caller: AuthUser) -> ApiResult<ApiJson<Devices>> {
    let rows = push_subscriptions::for_user(&state.db, caller.id).await?;
    Ok(ApiJson(Devices { items: rows.into_iter().map(Device::from).collect() }))
}

/// Adds this device to the caller's session (idempotent per endpoint; at most 20 devices, the
/// oldest dropped; removed when the session ends) and mails the user about a new one. The
/// endpoint must be `https://` on a browser's push service (`PUSH_ALLOWED_HOSTS`; 422); an
/// endpoint registered by another account is refused (409).
#[utoipa::path(post, path = "/api/me/push-subscriptions", tag = "push", request_body = SubscriptionInput,
    security(("bearer" = [])), responses((status = 201, body = Device), (status = 401),
    (status = 409, description = "Another account's device"), (status = 422)))]
pub async fn add_device(
    State(state): State<AppState>,
    caller: AuthUser,
    ApiJson(input): ApiJson<SubscriptionInput>,
) -> ApiResult<(StatusCode, ApiJson<Device>)> {
    let mut fields = FieldErrors::new();
    let endpoint = input.endpoint.trim();
    if let Err(message) = endpoint::check(endpoint, state.delivery.push.endpoints()) {
        fields.insert("endpoint".into(), message.into());
    }
    if push::parse_public_key(&input.keys.p256dh).is_none() {
        fields.insert("keys.p256dh".into(), "keys.p256dh must be the subscription's P-256 public key".into());
    }
    if push::parse_auth(&input.keys.auth).is_none() {
        fields.insert("keys.auth".into(), "keys.auth must be the subscription's 16-byte secret".into());
    }
    let label = input.label.as_deref().map(str::trim).filter(|label| !label.is_empty());
    if label.is_some_and(|label| label.chars().count() > MAX_LABEL_CHARS) {
        fields.insert("label".into(), "Label must be at most 100 characters".into());
    }
    ApiError::check_fields(fields)?;
    let new = NewSubscription {
        user_id: caller.id,
        session_id: caller.session_id,
        endpoint,
        p256dh: input.keys.p256dh.trim(),
        auth: input.keys.auth.trim(),
        label,
    };
    let row = match push_subscriptions::upsert(&state.db, &new, Timestamp::now()).await? {
        Saved::Added(row) => {
            tell_owner_of_new_device(&state, caller.id, &row);
            row
        }
        Saved::Refreshed(row) => row,
        Saved::TakenByAnotherUser => {
            return Err(ApiError::Conflict("This device receives another account's notifications".into()));
        }
    };
    Ok((StatusCode::CREATED, ApiJson(row.into())))
}

/// Mails the account's owner that a device now receives its notifications, so a device added
/// with a stolen session does not go unnoticed. Off the request path; a failure is logged.
fn tell_owner_of_new_device(state: &AppState, user_id: Uuid, device: &PushSubscriptionRow) {
    let state = state.clone();
    let label = device.label.clone().unwrap_or_else(|| "A browser".into());
    let service = endpoint::service_host(&device.endpoint);
    state.background.clone().spawn(async move {
        let user = match users::user_by_id(&state.db, user_id).await {
            Ok(Some(user)) => user,
            Ok(None) => return,
            Err(error) => return tracing::error!(error = ?error, "could not look up the owner of a new push device"),
        };
        let text = format!(
            "{label} (push service {service}) now receives the notifications of your Taskhub account, \
             including message previews.\n\nIf you added it, there is nothing to do. You can remove devices \
             at {settings}.\n\nIf it wasn't you, reset your password at {reset}: that signs your account out \
             everywhere and removes every device.\n",
            settings = state.link("/settings/notifications"),
            reset = state.link("/forgot-password"),
        );
        let email =
            Email { to: &user.email, subject: "A new device gets your Taskhub notifications", text, reply_to: None };
        if let Err(error) = state.mailer.send(email).await {
            tracing::error!(error = ?error, "could not mail about a new push device");
        }
    });
}

#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(default)]
pub struct RemoveDevice {
    endpoint: String,
}

/// Removes one of the caller's devices by endpoint (204 also when it was already gone).
#[utoipa::path(delete, path = "/api/me/push-subscriptions", tag = "push", request_body = RemoveDevice,
    security(("bearer" = [])), responses((status = 204), (status = 401), (status = 422)))]
pub async fn remove_device(
    State(state): State<AppState>,
    caller: AuthUser,
    ApiJson(input): ApiJson<RemoveDevice>,
) -> ApiResult<StatusCode> {
    if input.endpoint.trim().is_empty() {
        return Err(ApiError::field("endpoint", "endpoint is required"));
    }
    push_subscriptions::delete_for_user(&state.db, caller.id, input.endpoint.trim()).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Sends a test notification to each of the caller's devices now, all at once, answering within 5 s
/// (devices not answered by then count as failed); 5 a minute.
#[utoipa::path(post, path = "/api/me/push-subscriptions/test", tag = "push", security(("bearer" = [])),
    responses((status = 200, body = TestResult), (status = 401), (status = 429)))]
pub async fn send_test(State(state): State<AppState>, caller: AuthUser) -> ApiResult<ApiJson<TestResult>> {
    state.limiter.check(&format!("push-test:{}", caller.id), TEST_PUSHES).await?;
    let payload = PushPayload {
        id: new_id(),
        kind: "test",
        title: "Test notification",
        message: "Notifications from Taskhub reach this device.",
        link: Some("/settings/notifications"),
        created_at: Timestamp::now(),
    };
    // Every device at once, all within one deadline: a device whose push service
    // does not answer is counted as failed rather than holding the request open.
    let deadline = tokio::time::Instant::now() + TEST_PUSH_DEADLINE;
    let devices = push_subscriptions::for_user(&state.db, caller.id).await?;
    let sends = devices.iter().map(|device| {
        let (state, payload) = (&state, &payload);
        async move {
            let keys = DeviceKeys { p256dh: &device.p256dh, auth: &device.auth };
            tokio::time::timeout_at(deadline, state.delivery.push.send(&device.endpoint, &keys, payload)).await
        }
    });
    let outcomes = futures_util::future::join_all(sends).await;
    let mut result = TestResult { sent: 0, failed: 0 };
    for (device, sent) in devices.iter().zip(outcomes) {
        match sent {
            Ok(Sent::Delivered) => {
                result.sent += 1;
                push_subscriptions::mark_success(&state.db, device.id, Timestamp::now()).await?;
            }
            Ok(Sent::Gone) => {
                result.failed += 1;
                push_subscriptions::delete(&state.db, device.id).await?;
            }
            Ok(Sent::Retry { .. } | Sent::Unreachable { .. } | Sent::Refused { .. }) | Err(_) => result.failed += 1,
        }
    }
    Ok(ApiJson(result))
}
