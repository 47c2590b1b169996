//! Public questions on open tasks and the poster's answers: each checks who asks or
//! answers, records it with the other side's notification, then publishes it on the
//! task's page.

use std::time::Duration;

use uuid::Uuid;

use model::marketplace::rules;
use store::{
    db::Timestamp,
    questions::{self, QuestionRow},
    tasks::TaskRow,
};

use crate::{
    live,
    marketplace::tasks::task_or_not_found,
    moderation::guard,
    notices,
    rate_limit::Limit,
    refusal::{DomainError, DomainResult},
    services::Services,
};

/// Asks a public question on an open task; the poster answers rather than asks.
pub async fn ask(state: &Services, task: &TaskRow, asker_id: Uuid, body: Option<&str>) -> DomainResult<QuestionRow> {
    if task.poster_id == asker_id {
        return Err(DomainError::Forbidden("You cannot ask a question on your own task".into()));
    }
    let body = rules::required_body("body", body, "Please enter your question")?;
    guard::keep_on_platform(&[("body", &body)])?;
    // Each question notifies the poster: a burst from one account, or at one task, waits (429).
    let hour = Duration::from_secs(3600);
    let per_account = Limit::new(state.config.questions_per_account_per_hour, hour);
    state.limiter.check(&format!("questions:account:{asker_id}"), per_account).await?;
    let per_task = Limit::new(state.config.questions_per_task_per_hour, hour);
    state.limiter.check(&format!("questions:task:{}", task.id), per_task).await?;
    let now = Timestamp::now();
    let notification = notices::new_question(task.poster_id, task.id, &task.title, now);
    let id = questions::ask_question(&state.db, task.id, asker_id, &body, &notification, now)
        .await?
        .ok_or_else(|| DomainError::Conflict("This task is no longer open for questions".into()))?;
    let row =
        questions::question(&state.db, id).await?.ok_or_else(|| anyhow::anyhow!("question vanished after insert"))?;
    live::question_created(state, &row).await;
    live::notifications_created(state, std::slice::from_ref(&notification)).await;
    Ok(row)
}

/// Answers a question on the poster's own task, once.
pub async fn answer(state: &Services, poster_id: Uuid, id: Uuid, body: Option<&str>) -> DomainResult<QuestionRow> {
    let question = questions::question(&state.db, id).await?.ok_or_else(|| DomainError::not_found("Question"))?;
    let task = task_or_not_found(state, question.task_id).await?;
    if task.poster_id != poster_id {
        return Err(DomainError::Forbidden("Only the poster can answer questions on this task".into()));
    }
    let answer = rules::required_body("body", body, "Please enter your answer")?;
    guard::keep_on_platform(&[("body", &answer)])?;
    let now = Timestamp::now();
    let notification = notices::question_answered(question.asker_id, question.task_id, &task.title, now);
    if !questions::answer_question(&state.db, &question, &answer, &notification, now).await? {
        return Err(DomainError::Conflict("This question has already been answered".into()));
    }
    let row = questions::question(&state.db, id).await?.ok_or_else(|| DomainError::not_found("Question"))?;
    live::question_answered(state, &row).await;
    live::notifications_created(state, std::slice::from_ref(&notification)).await;
    Ok(row)
}
