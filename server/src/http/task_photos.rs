//! Photos on a task: the poster adds up to six while the task is open, and removes them.

use axum::{
    Router,
    extract::{DefaultBodyLimit, State},
    http::StatusCode,
    routing::{delete, post},
};
use uuid::Uuid;

use domain::{marketplace, media::photos::PhotoKey, wire::marketplace::TaskPhoto};
use store::db::new_id;

use crate::http::{
    error::ApiResult,
    extract::{ApiJson, ApiMultipart, ApiPath, AuthUser},
    state::AppState,
    uploads::{self, PHOTO_BODY_LIMIT, PhotoForm},
};

/// Task photo uploads per poster per hour.
const TASK_PHOTO_UPLOADS_PER_HOUR: u32 = 60;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/tasks/{id}/photos", post(add_task_photo).layer(DefaultBodyLimit::max(PHOTO_BODY_LIMIT)))
        .route("/tasks/{id}/photos/{photo_id}", delete(remove_task_photo))
}

/// The form of `POST /api/tasks/{id}/photos` (it only describes the request in the OpenAPI document).
#[derive(utoipa::ToSchema)]
#[allow(dead_code)]
pub struct TaskPhotoUpload {
    /// The photo: JPEG, PNG, WebP or GIF, at most 10 MB and 16 megapixels. Stored re-encoded,
    /// without its metadata (EXIF, XMP, IPTC: no GPS position survives).
    #[schema(value_type = String, format = Binary)]
    file: Vec<u8>,
}

/// Adds a photo to the caller's open task (multipart field `file`): not the poster 403, no longer
/// open 409, a 7th photo or not an image 422, too large 413, too many uploads 429.
#[utoipa::path(post, path = "/api/tasks/{id}/photos", tag = "marketplace",
    params(("id" = Uuid, Path, description = "The task")), security(("bearer" = [])),
    request_body(content = TaskPhotoUpload, content_type = "multipart/form-data"),
    responses((status = 201, body = TaskPhoto), (status = 400), (status = 401), (status = 403), (status = 404),
        (status = 409), (status = 413), (status = 422), (status = 429), (status = 503)))]
pub async fn add_task_photo(
    State(state): State<AppState>,
    caller: AuthUser,
    ApiPath(id): ApiPath<Uuid>,
    ApiMultipart(multipart): ApiMultipart,
) -> ApiResult<(StatusCode, ApiJson<TaskPhoto>)> {
    marketplace::task_photos::room_for_photo(&state, caller.id, id).await?;
    uploads::check_upload_rate(&state, "task-photo", caller.id, TASK_PHOTO_UPLOADS_PER_HOUR).await?;
    let bytes = PhotoForm::read(multipart).await?.required_file()?;
    let photo_id = new_id();
    uploads::store_photo(&state, PhotoKey::Task(photo_id), bytes).await?;
    marketplace::task_photos::add(&state, caller.id, id, photo_id).await?;
    Ok((StatusCode::CREATED, ApiJson(TaskPhoto::new(photo_id))))
}

/// Removes a photo from the caller's open task: not the poster 403, no longer open 409, no such
/// photo 404.
#[utoipa::path(delete, path = "/api/tasks/{id}/photos/{photo_id}", tag = "marketplace",
    params(("id" = Uuid, Path, description = "The task"), ("photo_id" = Uuid, Path, description = "The photo")),
    security(("bearer" = [])),
    responses((status = 204), (status = 401), (status = 403), (status = 404), (status = 409)))]
pub async fn remove_task_photo(
    State(state): State<AppState>,
    caller: AuthUser,
    ApiPath((id, photo_id)): ApiPath<(Uuid, Uuid)>,
) -> ApiResult<StatusCode> {
    marketplace::task_photos::remove(&state, caller.id, id, photo_id).await?;
    Ok(StatusCode::NO_CONTENT)
}
