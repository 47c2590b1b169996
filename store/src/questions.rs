use sqlx::FromRow;
use tracing::instrument;
use uuid::Uuid;

use crate::{
    Position,
    db::{BeginWrite, Db, Timestamp, new_id},
    insert_notification,
    notifications::NotificationRow,
    on_pool,
};

#[derive(Clone, Debug, FromRow)]
pub struct QuestionRow {
    pub id: Uuid,
    pub task_id: Uuid,
    pub asker_id: Uuid,
    pub body: String,
    pub answer: Option<String>,
    pub answered_at: Option<Timestamp>,
    pub created_at: Timestamp,
    pub asker_first_name: String,
    pub asker_last_name: String,
    pub asker_avatar_url: Option<String>,
    /// Removed by a moderator: the text is kept, readers are told it was removed.
    pub removed: bool,
}

const QUESTION_COLUMNS: &str = "q.id, q.task_id, q.asker_id, q.body, q.answer, q.answered_at, q.created_at,
    p.first_name as asker_first_name, p.last_name as asker_last_name, p.avatar_url as asker_avatar_url,
    q.removed_at is not null as removed";

/// A page of a task's questions, oldest first, after `after` when given; at most `limit`.
#[instrument(skip_all)]
pub async fn questions_page(
    db: &Db,
    task_id: Uuid,
    after: Option<Position>,
    limit: i64,
) -> sqlx::Result<Vec<QuestionRow>> {
    let (after_time, after_id) = after.map_or((Timestamp(i64::MIN), Uuid::nil()), |at| (at.created_at, at.id));
    on_pool!(db, |pool| {
        sqlx::query_as::<_, QuestionRow>(sqlx::AssertSqlSafe(format!(
            "select {QUESTION_COLUMNS} from questions q join profiles p on p.id = q.asker_id
             where q.task_id = $1 and (q.created_at > $2 or (q.created_at = $2 and q.id > $3))
             order by q.created_at, q.id
             limit $4"
        )))
        .bind(task_id)
        .bind(after_time)
        .bind(after_id)
        .bind(limit)
        .fetch_all(pool)
        .await
    })
}

#[instrument(skip_all)]
pub async fn question(db: &Db, id: Uuid) -> sqlx::Result<Option<QuestionRow>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, QuestionRow>(sqlx::AssertSqlSafe(format!(
            "select {QUESTION_COLUMNS} from questions q join profiles p on p.id = q.asker_id where q.id = $1"
        )))
        .bind(id)
        .fetch_optional(pool)
        .await
    })
}

/// Asks a public question on an open task and notifies its poster (the
/// `notification`), in one transaction; `None` when the task is not open.
#[instrument(skip_all)]
pub async fn ask_question(
    db: &Db,
    task_id: Uuid,
    asker_id: Uuid,
    body: &str,
    notification: &NotificationRow,
    now: Timestamp,
) -> sqlx::Result<Option<Uuid>> {
    let id = new_id();
    on_pool!(db, |pool| {
        async {
            let mut tx = pool.begin_write().await?;
            let inserted = sqlx::query(
                "insert into questions (id, task_id, asker_id, body, created_at)
                 select $1, $2, $3, $4, $5 where exists (select 1 from tasks where id = $2 and status = 'open')",
            )
            .bind(id)
            .bind(task_id)
            .bind(asker_id)
            .bind(body)
            .bind(now)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if inserted == 0 {
                return Ok(None);
            }
            insert_notification!(tx, notification)?;
            tx.commit().await?;
            Ok(Some(id))
        }
        .await
    })
}

/// Records the poster's answer to an unanswered question and notifies the
/// asker (the `notification`), in one transaction; false when it was already answered.
#[instrument(skip_all)]
pub async fn answer_question(
    db: &Db,
    question: &QuestionRow,
    answer: &str,
    notification: &NotificationRow,
    now: Timestamp,
) -> sqlx::Result<bool> {
    on_pool!(db, |pool| {
        async {
            let mut tx = pool.begin_write().await?;
            let answered =
                sqlx::query("update questions set answer = $2, answered_at = $3 where id = $1 and answer is null")
                    .bind(question.id)
                    .bind(answer)
                    .bind(now)
                    .execute(&mut *tx)
                    .await?
                    .rows_affected();
            if answered == 0 {
                return Ok(false);
            }
            insert_notification!(tx, notification)?;
            tx.commit().await?;
            Ok(true)
        }
        .await
    })
}
