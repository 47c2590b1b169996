//! Private messages between the poster and the assigned tasker, from assignment on.

use axum::{Router, extract::State, http::StatusCode, routing::get};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::{
    db::{Timestamp, new_id},
    error::{ApiError, ApiResult},
    http::{
        extract::{ApiJson, ApiPath, AuthUser, Operator, task_or_404},
        receipts,
    },
    live,
    payments::rules::{self, Party},
    state::AppState,
    store::{
        messages::{self, MessageRow},
        notifications::{NotificationRow, kind},
        receipts as read_marks,
        tasks::TaskRow,
    },
};

const MAX_MESSAGE_CHARS: usize = 2000;
const CONVERSATION_LIMIT: i64 = 500;

pub fn router() -> Router<AppState> {
    Router::new().route("/tasks/{id}/messages", get(list_messages).post(send_message))
}

pub(crate) async fn party_task(state: &AppState, caller: AuthUser, id: Uuid) -> ApiResult<(TaskRow, Party)> {
    let task = task_or_404(state, id).await?;
    let party = Party::of(caller.id, task.poster_id, task.assigned_tasker_id);
    rules::may_message(party, task.assigned_tasker_id)?;
    Ok((task, party))
}

/// The conversation and how far the other party has read it.
#[derive(Serialize, utoipa::ToSchema)]
pub struct Conversation {
    /// Oldest first.
    items: Vec<MessageRow>,
    /// The newest message the other party has read; null when they have read none, or when
    /// either party turned read receipts off.
    read_up_to: Option<Uuid>,
    read_at: Option<Timestamp>,
}

/// The conversation, oldest first, with the other party's read mark.
#[utoipa::path(get, path = "/api/tasks/{id}/messages", tag = "payments", params(("id" = Uuid, Path, description = "The task")), security(("bearer" = [])),
    responses((status = 200, body = Conversation), (status = 401), (status = 403), (status = 404), (status = 409)))]
pub async fn list_messages(
    State(state): State<AppState>,
    caller: AuthUser,
    ApiPath(id): ApiPath<Uuid>,
) -> ApiResult<ApiJson<Conversation>> {
    let (task, party) = party_task(&state, caller, id).await?;
    let operator = Operator::is(&state, caller.id).await?;
    let items = messages::messages_for_task(&state.db, id, CONVERSATION_LIMIT, operator).await?;
    let other = receipts::other_party(&task, party);
    let read = match receipts::receipts_shared(&state, caller.id, other).await? {
        true => read_marks::read_up_to(&state.db, id, other).await?,
        false => None,
    };
    Ok(ApiJson(Conversation { items, read_up_to: read.map(|(up_to, _)| up_to), read_at: read.map(|(_, at)| at) }))
}

#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(default)]
pub struct MessageInput {
    pub body: String,
}

/// Sends a message to the other party; `message.created` reaches both, the recipient is notified.
#[utoipa::path(post, path = "/api/tasks/{id}/messages", tag = "payments", params(("id" = Uuid, Path, description = "The task")), request_body = MessageInput, security(("bearer" = [])),
    responses((status = 201, body = MessageRow), (status = 401), (status = 403), (status = 404), (status = 409), (status = 422)))]
pub async fn send_message(
    State(state): State<AppState>,
    caller: AuthUser,
    ApiPath(id): ApiPath<Uuid>,
    ApiJson(input): ApiJson<MessageInput>,
) -> ApiResult<(StatusCode, ApiJson<MessageRow>)> {
    let (task, party) = party_task(&state, caller, id).await?;
    let body = input.body.trim();
    if body.is_empty() || body.chars().count() > MAX_MESSAGE_CHARS {
        return Err(ApiError::field("body", "Please write a message (up to 2000 characters)"));
    }
    let recipient_id = match party {
        Party::Poster => task.assigned_tasker_id.unwrap_or_default(),
        _ => task.poster_id,
    };
    let now = Timestamp::now();
    let message = MessageRow {
        id: new_id(),
        task_id: id,
        sender_id: caller.id,
        recipient_id,
        body: Some(body.to_owned()),
        removed: false,
        created_at: now,
    };
    let preview: String = body.chars().take(120).collect();
    let notification = NotificationRow::new(
        recipient_id,
        kind::MESSAGE,
        "New message",
        format!("About \"{}\": {preview}", task.title),
        Some(format!("/task/{id}")),
        now,
    );
    messages::insert_message(&state.db, &message, &notification).await?;
    for user_id in [caller.id, recipient_id] {
        live::publish(&state, &live::user_topic(user_id), "message.created", &message).await;
    }
    live::notifications_created(&state, &[notification]).await;
    Ok((StatusCode::CREATED, ApiJson(message)))
}
