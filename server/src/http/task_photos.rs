//! Photos on a task: the poster adds up to six while the task is open, and removes them.

use axum::{
    Router,
    extract::{DefaultBodyLimit, State},
    http::StatusCode,
    routing::{delete, post},
};
use uuid::Uuid;

use crate::{
    db::{Timestamp, new_id},
    error::{ApiError, ApiResult},
    http::{
        extract::{ApiJson, ApiMultipart, ApiPath, AuthUser, task_or_404},
        tasks::posters_task,
        uploads::{self, PHOTO_BODY_LIMIT, PhotoForm},
    },
    live,
    media::photos::PhotoKey,
    state::AppState,
    store::task_photos::{self, PhotoChange},
    wire::marketplace::TaskPhoto,
};

/// The most photos one task carries.
pub const MAX_TASK_PHOTOS: i64 = 6;
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

fn not_open() -> ApiError {
    ApiError::Conflict("Photos can only be changed while the task is open".into())
}

fn too_many() -> ApiError {
    ApiError::field("file", "A task can have at most 6 photos")
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
    let task = posters_task(&state, caller, id).await?;
    if task.status != "open" {
        return Err(not_open());
    }
    if task_photos::photos_of(&state.db, id).await?.len() as i64 >= MAX_TASK_PHOTOS {
        return Err(too_many());
    }
    uploads::check_upload_rate(&state, "task-photo", caller.id, TASK_PHOTO_UPLOADS_PER_HOUR).await?;
    let bytes = PhotoForm::read(multipart).await?.required_file()?;
    let photo_id = new_id();
    let key = PhotoKey::Task(photo_id);
    uploads::store_photo(&state, key, bytes).await?;
    let change = task_photos::add_photo(&state.db, id, caller.id, photo_id, MAX_TASK_PHOTOS, Timestamp::now()).await;
    if !matches!(change, Ok(PhotoChange::Done)) {
        state.media.delete_photo(key).await;
    }
    match change? {
        PhotoChange::Done => {}
        PhotoChange::Full => return Err(too_many()),
        PhotoChange::NotOpen | PhotoChange::NotFound => return Err(not_open()),
    }
    live::task_edited(&state, &task_or_404(&state, id).await?).await;
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
    let task = posters_task(&state, caller, id).await?;
    if task.status != "open" {
        return Err(not_open());
    }
    match task_photos::remove_photo(&state.db, id, caller.id, photo_id, Timestamp::now()).await? {
        PhotoChange::Done => {}
        PhotoChange::NotFound => return Err(ApiError::not_found("Photo")),
        PhotoChange::NotOpen | PhotoChange::Full => return Err(not_open()),
    }
    state.media.delete_photo(PhotoKey::Task(photo_id)).await;
    live::task_edited(&state, &task_or_404(&state, id).await?).await;
    Ok(StatusCode::NO_CONTENT)
}
