//! The task a transition acts on.

use uuid::Uuid;

use crate::{
    refusal::{DomainError, DomainResult},
    state::AppState,
    store::tasks::{self, TaskRow},
};

/// The task named by a request or a row; unknown is not found.
pub async fn task_or_not_found(state: &AppState, id: Uuid) -> DomainResult<TaskRow> {
    tasks::task(&state.db, id).await?.ok_or_else(|| DomainError::not_found("Task"))
}
