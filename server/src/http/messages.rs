//! Private messages between the poster and the assigned tasker, from assignment on.

use axum::{
    Router,
    extract::{DefaultBodyLimit, FromRequest, Request, State},
    http::{StatusCode, header},
    response::{IntoResponse, Response},
    routing::{get, post},
};
use serde::Deserialize;
use uuid::Uuid;

use domain::{
    marketplace,
    media::photos::PhotoKey,
    wire::messages::{Conversation, Message},
};
use model::payments::rules::{self, Party};
use store::{db::new_id, messages, receipts as read_marks};

use crate::http::{
    error::{ApiError, ApiResult},
    extract::{ApiJson, ApiMultipart, ApiPath, AuthUser, Operator, task_or_404},
    state::AppState,
    uploads::{self, PHOTO_BODY_LIMIT, PhotoForm},
};

const CONVERSATION_LIMIT: i64 = 500;
/// Message photos per account per hour.
const MESSAGE_PHOTOS_PER_HOUR: u32 = 60;

pub fn router() -> Router<AppState> {
    Router::new()
        .route(
            "/tasks/{id}/messages",
            get(list_messages).merge(post(send_message).layer(DefaultBodyLimit::max(PHOTO_BODY_LIMIT))),
        )
        .route("/tasks/{id}/messages/photos/{photo_id}", get(message_photo))
        .route("/tasks/{id}/messages/photos/{photo_id}/thumb", get(message_photo_thumb))
}

/// The conversation, oldest first, with the other party's read mark.
#[utoipa::path(get, path = "/api/tasks/{id}/messages", tag = "payments", params(("id" = Uuid, Path, description = "The task")), security(("bearer" = [])),
    responses((status = 200, body = Conversation), (status = 401), (status = 403), (status = 404), (status = 409)))]
pub async fn list_messages(
    State(state): State<AppState>,
    caller: AuthUser,
    ApiPath(id): ApiPath<Uuid>,
) -> ApiResult<ApiJson<Conversation>> {
    let (task, party) = marketplace::messages::conversation(&state, caller.id, id).await?;
    let operator = Operator::is(&state, caller.id).await?;
    let items = messages::messages_for_task(&state.db, id, CONVERSATION_LIMIT, operator).await?;
    let other = marketplace::messages::other_party(&task, party);
    let read = match marketplace::messages::receipts_shared(&state, caller.id, other).await? {
        true => read_marks::read_up_to(&state.db, id, other).await?,
        false => None,
    };
    let items = items.iter().map(Message::from).collect();
    Ok(ApiJson(Conversation { items, read_up_to: read.map(|(up_to, _)| up_to), read_at: read.map(|(_, at)| at) }))
}

#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(default)]
pub struct MessageInput {
    pub body: String,
}

/// The form of a message with a photo (it only describes the request in the OpenAPI document).
#[derive(utoipa::ToSchema)]
#[allow(dead_code)]
pub struct MessageUpload {
    /// The photo: JPEG, PNG, WebP or GIF, at most 10 MB and 16 megapixels. Stored re-encoded,
    /// without its metadata (EXIF, XMP, IPTC).
    #[schema(value_type = String, format = Binary)]
    file: Vec<u8>,
    /// Up to 2000 characters.
    body: Option<String>,
}

/// A message as sent: its text (may be empty beside a photo) and its photo, if any.
struct Outgoing {
    body: String,
    photo: Option<bytes::Bytes>,
}

/// Reads a JSON `MessageInput` or a multipart `MessageUpload`, by the request's content type.
async fn outgoing(state: &AppState, request: Request) -> ApiResult<Outgoing> {
    let is_multipart = request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.to_ascii_lowercase().starts_with("multipart/form-data"));
    if !is_multipart {
        let ApiJson(input) = ApiJson::<MessageInput>::from_request(request, state).await?;
        return Ok(Outgoing { body: input.body, photo: None });
    }
    let ApiMultipart(multipart) = ApiMultipart::from_request(request, state).await?;
    let mut form = PhotoForm::read(multipart).await?;
    let photo = Some(form.required_file()?);
    Ok(Outgoing { body: form.text.remove("body").unwrap_or_default(), photo })
}

/// Sends a message to the other party: JSON `{body}`, or multipart with a photo (`file`) and an
/// optional `body`. `message.created` reaches both, the recipient is notified. Not a party 403,
/// not yet assigned 409, no text (without a photo) or not an image 422, too many photos 429.
#[utoipa::path(post, path = "/api/tasks/{id}/messages", tag = "payments", params(("id" = Uuid, Path, description = "The task")),
    request_body(content((MessageInput = "application/json"), (MessageUpload = "multipart/form-data"))),
    security(("bearer" = [])),
    responses((status = 201, body = Message), (status = 400), (status = 401), (status = 403), (status = 404),
        (status = 409), (status = 413), (status = 422), (status = 429), (status = 503)))]
pub async fn send_message(
    State(state): State<AppState>,
    caller: AuthUser,
    ApiPath(id): ApiPath<Uuid>,
    request: Request,
) -> ApiResult<(StatusCode, ApiJson<Message>)> {
    let (task, party) = marketplace::messages::conversation(&state, caller.id, id).await?;
    let outgoing = outgoing(&state, request).await?;
    let body = marketplace::messages::checked_body(&outgoing.body, outgoing.photo.is_some())?;
    marketplace::messages::pace(&state, task.id, caller.id).await?;
    let photo_id = match outgoing.photo {
        None => None,
        Some(bytes) => {
            uploads::check_upload_rate(&state, "message-photo", caller.id, MESSAGE_PHOTOS_PER_HOUR).await?;
            let photo_id = new_id();
            uploads::store_photo(&state, PhotoKey::Message(photo_id), bytes).await?;
            Some(photo_id)
        }
    };
    let message = marketplace::messages::send(&state, &task, party, caller.id, body, photo_id).await?;
    Ok((StatusCode::CREATED, ApiJson(Message::from(&message))))
}

/// A JPEG picture's bytes (it only describes the response in the OpenAPI document).
#[derive(utoipa::ToSchema)]
#[schema(value_type = String, format = Binary)]
#[allow(dead_code)]
pub struct Jpeg(Vec<u8>);

/// A message photo as stored (JPEG), for the task's two parties only: anyone else, and a photo
/// that is not there (or whose message was removed), 404.
#[utoipa::path(get, path = "/api/tasks/{id}/messages/photos/{photo_id}", tag = "payments",
    params(("id" = Uuid, Path, description = "The task"), ("photo_id" = Uuid, Path, description = "The photo")),
    security(("bearer" = [])),
    responses((status = 200, content_type = "image/jpeg", body = Jpeg), (status = 401), (status = 404)))]
pub async fn message_photo(
    State(state): State<AppState>,
    caller: AuthUser,
    ApiPath((id, photo_id)): ApiPath<(Uuid, Uuid)>,
) -> ApiResult<Response> {
    serve_message_photo(&state, caller, id, PhotoKey::Message(photo_id).full_key(), photo_id).await
}

/// The photo's thumbnail (at most 480 px), on the same terms.
#[utoipa::path(get, path = "/api/tasks/{id}/messages/photos/{photo_id}/thumb", tag = "payments",
    params(("id" = Uuid, Path, description = "The task"), ("photo_id" = Uuid, Path, description = "The photo")),
    security(("bearer" = [])),
    responses((status = 200, content_type = "image/jpeg", body = Jpeg), (status = 401), (status = 404)))]
pub async fn message_photo_thumb(
    State(state): State<AppState>,
    caller: AuthUser,
    ApiPath((id, photo_id)): ApiPath<(Uuid, Uuid)>,
) -> ApiResult<Response> {
    serve_message_photo(&state, caller, id, PhotoKey::Message(photo_id).thumb_key(), photo_id).await
}

async fn serve_message_photo(
    state: &AppState,
    caller: AuthUser,
    task_id: Uuid,
    key: String,
    photo_id: Uuid,
) -> ApiResult<Response> {
    let not_found = || ApiError::not_found("Photo");
    // Strangers learn nothing, not even that the task has photos: the same 404 as a wrong id.
    let task = task_or_404(state, task_id).await.map_err(|_| not_found())?;
    if rules::may_message(Party::of(caller.id, task.poster_id, task.assigned_tasker_id), task.assigned_tasker_id)
        .is_err()
        || !messages::photo_is_shown(&state.db, task_id, photo_id).await?
    {
        return Err(not_found());
    }
    let bytes = state.media.get(&key).await?.ok_or_else(not_found)?;
    Ok((
        [
            (header::CONTENT_TYPE, "image/jpeg"),
            // Never in a shared cache: only the two parties may see it.
            (header::CACHE_CONTROL, "private, max-age=86400, immutable"),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        ],
        bytes,
    )
        .into_response())
}
