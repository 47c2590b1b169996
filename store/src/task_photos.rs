//! Photos on a task, in upload order. The pictures live in the media store under the photo's id
//! (`media::photos::PhotoKey::Task`); a row is what makes one appear.

use tracing::instrument;
use uuid::Uuid;

use model::states::TaskStatus;

use crate::{
    db::{BeginWrite, Db, Timestamp},
    on_pool,
};

/// What became of an addition or a removal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PhotoChange {
    Done,
    /// The task is not (or no longer) the caller's open task.
    NotOpen,
    /// The task already has the most photos allowed.
    Full,
    /// No such photo on the task.
    NotFound,
}

/// The task's photos, oldest first.
#[instrument(skip_all)]
pub async fn photos_of(db: &Db, task_id: Uuid) -> sqlx::Result<Vec<Uuid>> {
    on_pool!(db, |pool| {
        sqlx::query_scalar("select id from task_photos where task_id = $1 order by id")
            .bind(task_id)
            .fetch_all(pool)
            .await
    })
}

/// The status of the task a photo is on; none when no task has it (deleted, or never added).
#[instrument(skip_all)]
pub async fn task_status_of_photo(db: &Db, photo_id: Uuid) -> sqlx::Result<Option<TaskStatus>> {
    let status: Option<String> = on_pool!(db, |pool| {
        sqlx::query_scalar("select t.status from task_photos p join tasks t on t.id = p.task_id where p.id = $1")
            .bind(photo_id)
            .fetch_optional(pool)
            .await
    })?;
    Ok(status.and_then(|status| TaskStatus::parse(&status)))
}

/// Adds photo `photo_id` to `poster_id`'s open task, unless it already has `max`.
#[instrument(skip_all)]
pub async fn add_photo(
    db: &Db,
    task_id: Uuid,
    poster_id: Uuid,
    photo_id: Uuid,
    max: i64,
    now: Timestamp,
) -> sqlx::Result<PhotoChange> {
    on_pool!(db, |pool| {
        async {
            let mut tx = pool.begin_write().await?;
            // The conditional update both checks the task is still open and takes its row lock,
            // so two uploads at once cannot both be the 7th, nor one land after assignment.
            let open =
                sqlx::query("update tasks set updated_at = $3 where id = $1 and poster_id = $2 and status = 'open'")
                    .bind(task_id)
                    .bind(poster_id)
                    .bind(now)
                    .execute(&mut *tx)
                    .await?
                    .rows_affected();
            if open == 0 {
                return Ok(PhotoChange::NotOpen);
            }
            let count: i64 = sqlx::query_scalar("select count(*) from task_photos where task_id = $1")
                .bind(task_id)
                .fetch_one(&mut *tx)
                .await?;
            if count >= max {
                return Ok(PhotoChange::Full);
            }
            sqlx::query("insert into task_photos (id, task_id, created_at) values ($1, $2, $3)")
                .bind(photo_id)
                .bind(task_id)
                .bind(now)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
            Ok(PhotoChange::Done)
        }
        .await
    })
}

/// Removes photo `photo_id` from `poster_id`'s open task.
#[instrument(skip_all)]
pub async fn remove_photo(
    db: &Db,
    task_id: Uuid,
    poster_id: Uuid,
    photo_id: Uuid,
    now: Timestamp,
) -> sqlx::Result<PhotoChange> {
    on_pool!(db, |pool| {
        async {
            let mut tx = pool.begin_write().await?;
            let open =
                sqlx::query("update tasks set updated_at = $3 where id = $1 and poster_id = $2 and status = 'open'")
                    .bind(task_id)
                    .bind(poster_id)
                    .bind(now)
                    .execute(&mut *tx)
                    .await?
                    .rows_affected();
            if open == 0 {
                return Ok(PhotoChange::NotOpen);
            }
            let removed = sqlx::query("delete from task_photos where id = $1 and task_id = $2")
                .bind(photo_id)
                .bind(task_id)
                .execute(&mut *tx)
                .await?
                .rows_affected();
            if removed == 0 {
                return Ok(PhotoChange::NotFound);
            }
            tx.commit().await?;
            Ok(PhotoChange::Done)
        }
        .await
    })
}
