//! Photos on a task: the poster adds up to six while the task is open, and removes them. The
//! photo itself is stored by the caller (its upload limits and errors are HTTP's); these record
//! it on the task and publish the task's new photos.

use uuid::Uuid;

use model::{refusal::Invalid, states::TaskStatus};
use store::{
    db::Timestamp,
    task_photos::{self, PhotoChange},
    tasks::TaskRow,
};

use crate::{
    live,
    marketplace::tasks::{posters_task, task_or_not_found},
    media::photos::PhotoKey,
    refusal::{DomainError, DomainResult},
    services::Services,
};

/// Whether `/media` may serve a task photo: only while it is on a task a moderator has not
/// removed (the photos go with the task).
pub async fn is_shown(state: &Services, photo_id: Uuid) -> DomainResult<bool> {
    let status = task_photos::task_status_of_photo(&state.db, photo_id).await?;
    Ok(status.is_some_and(|status| status != TaskStatus::Removed))
}

/// The most photos one task carries.
pub const MAX_TASK_PHOTOS: i64 = 6;

fn not_open() -> DomainError {
    DomainError::Conflict("Photos can only be changed while the task is open".into())
}

fn too_many() -> DomainError {
    Invalid::field("file", "A task can have at most 6 photos").into()
}

/// The poster's task, while it is open and has room for another photo.
pub async fn room_for_photo(state: &Services, poster_id: Uuid, task_id: Uuid) -> DomainResult<TaskRow> {
    let task = posters_task(state, poster_id, task_id).await?;
    if task.status != TaskStatus::Open {
        return Err(not_open());
    }
    if task_photos::photos_of(&state.db, task_id).await?.len() as i64 >= MAX_TASK_PHOTOS {
        return Err(too_many());
    }
    Ok(task)
}

/// Adds the photo stored under `photo_id` to the poster's open task (checked by
/// [`room_for_photo`]); the stored photo is deleted again when it cannot be added.
pub async fn add(state: &Services, poster_id: Uuid, task_id: Uuid, photo_id: Uuid) -> DomainResult<()> {
    let change =
        task_photos::add_photo(&state.db, task_id, poster_id, photo_id, MAX_TASK_PHOTOS, Timestamp::now()).await;
    if !matches!(change, Ok(PhotoChange::Done)) {
        state.media.delete_photo(PhotoKey::Task(photo_id)).await;
    }
    match change? {
        PhotoChange::Done => {}
        PhotoChange::Full => return Err(too_many()),
        PhotoChange::NotOpen | PhotoChange::NotFound => return Err(not_open()),
    }
    live::task_edited(state, &task_or_not_found(state, task_id).await?).await;
    Ok(())
}

/// Removes a photo from the poster's open task.
pub async fn remove(state: &Services, poster_id: Uuid, task_id: Uuid, photo_id: Uuid) -> DomainResult<()> {
    let task = posters_task(state, poster_id, task_id).await?;
    if task.status != TaskStatus::Open {
        return Err(not_open());
    }
    match task_photos::remove_photo(&state.db, task_id, poster_id, photo_id, Timestamp::now()).await? {
        PhotoChange::Done => {}
        PhotoChange::NotFound => return Err(DomainError::not_found("Photo")),
        PhotoChange::NotOpen | PhotoChange::Full => return Err(not_open()),
    }
    state.media.delete_photo(PhotoKey::Task(photo_id)).await;
    live::task_edited(state, &task_or_not_found(state, task_id).await?).await;
    Ok(())
}
