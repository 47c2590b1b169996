//! Rescheduling an assigned task: either party proposes a new date, the other
//! accepts or declines within 48 hours.

use axum::{
    Router,
    extract::State,
    http::StatusCode,
    routing::{get, post},
};
use serde::Deserialize;
use uuid::Uuid;

use domain::{
    marketplace::reschedules::{self, Proposal},
    wire::assigned_tasks::{Reschedule, RescheduleList, TaskChanges, TaskChangesList},
};
use model::{payments::rules::Party, states::RescheduleStatus};

use crate::http::{
    error::{ApiError, ApiResult},
    extract::{ApiJson, ApiPath, AuthUser, TaskFromPath},
    state::AppState,
};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/tasks/{id}/reschedule", post(propose_date))
        .route("/tasks/{id}/reschedules", get(list_reschedules))
        .route("/reschedules/{id}/accept", post(accept_date))
        .route("/reschedules/{id}/decline", post(decline_date))
        .route("/me/task-changes", get(my_task_changes))
}

/// The caller's tasks (posted or assigned to them) with a price increase or a new date waiting
/// for an answer, for My Tasks' badges.
#[utoipa::path(get, path = "/api/me/task-changes", tag = "tasks", security(("bearer" = [])),
    responses((status = 200, body = TaskChangesList), (status = 401)))]
pub async fn my_task_changes(State(state): State<AppState>, caller: AuthUser) -> ApiResult<ApiJson<TaskChangesList>> {
    let mut items: Vec<TaskChanges> = Vec::new();
    for (task_id, what) in store::reschedules::pending_changes_for(&state.db, caller.id).await? {
        let index = match items.iter().position(|item| item.task_id == task_id) {
            Some(index) => index,
            None => {
                items.push(TaskChanges { task_id, price_increase_waiting: false, new_date_proposed: false });
                items.len() - 1
            }
        };
        match what.as_str() {
            "price_increase" => items[index].price_increase_waiting = true,
            _ => items[index].new_date_proposed = true,
        }
    }
    Ok(ApiJson(TaskChangesList { items }))
}

#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(default)]
pub struct RescheduleInput {
    /// `YYYY-MM-DD`, today or later.
    pub due_date: String,
    /// An optional time window on that day, e.g. "8am–12pm" (up to 40 characters).
    pub window: Option<String>,
    pub note: Option<String>,
}

/// Either party of an assigned task proposes a new date; the other has 48 hours to answer. Anyone
/// else 403; not assigned, disputed, or a proposal already waiting 409; a bad or past date 422.
#[utoipa::path(post, path = "/api/tasks/{id}/reschedule", tag = "tasks", params(("id" = Uuid, Path, description = "The task")),
    request_body = RescheduleInput, security(("bearer" = [])),
    responses((status = 201, body = Reschedule), (status = 401), (status = 403), (status = 404), (status = 409), (status = 422)))]
pub async fn propose_date(
    State(state): State<AppState>,
    caller: AuthUser,
    TaskFromPath(task): TaskFromPath,
    ApiJson(input): ApiJson<RescheduleInput>,
) -> ApiResult<(StatusCode, ApiJson<Reschedule>)> {
    let proposal = Proposal { due_date: &input.due_date, window: input.window.as_deref(), note: input.note.as_deref() };
    let row = reschedules::propose(&state, &task, caller.id, proposal).await?;
    Ok((StatusCode::CREATED, ApiJson(Reschedule::from(&row))))
}

/// The task's date proposals, oldest first (its two parties only: 403).
#[utoipa::path(get, path = "/api/tasks/{id}/reschedules", tag = "tasks", params(("id" = Uuid, Path, description = "The task")),
    security(("bearer" = [])),
    responses((status = 200, body = RescheduleList), (status = 401), (status = 403), (status = 404)))]
pub async fn list_reschedules(
    State(state): State<AppState>,
    caller: AuthUser,
    TaskFromPath(task): TaskFromPath,
) -> ApiResult<ApiJson<RescheduleList>> {
    if Party::of(caller.id, task.poster_id, task.assigned_tasker_id) == Party::Other {
        return Err(ApiError::Forbidden("Only the poster and the assigned tasker can see this".into()));
    }
    Ok(ApiJson(RescheduleList {
        items: store::reschedules::for_task(&state.db, task.id).await?.iter().map(From::from).collect(),
    }))
}

/// The other party accepts: the task's due date changes (live to both parties and the task's
/// watchers). The proposer 403; no longer pending (or past its 48 hours) 409.
#[utoipa::path(post, path = "/api/reschedules/{id}/accept", tag = "tasks", params(("id" = Uuid, Path, description = "The proposal")),
    security(("bearer" = [])),
    responses((status = 200, body = Reschedule), (status = 401), (status = 403), (status = 404), (status = 409)))]
pub async fn accept_date(
    State(state): State<AppState>,
    caller: AuthUser,
    ApiPath(id): ApiPath<Uuid>,
) -> ApiResult<ApiJson<Reschedule>> {
    Ok(ApiJson(Reschedule::from(&reschedules::answer(&state, caller.id, id, RescheduleStatus::Accepted).await?)))
}

/// The other party declines: the date stays. The proposer 403; no longer pending 409.
#[utoipa::path(post, path = "/api/reschedules/{id}/decline", tag = "tasks", params(("id" = Uuid, Path, description = "The proposal")),
    security(("bearer" = [])),
    responses((status = 200, body = Reschedule), (status = 401), (status = 403), (status = 404), (status = 409)))]
pub async fn decline_date(
    State(state): State<AppState>,
    caller: AuthUser,
    ApiPath(id): ApiPath<Uuid>,
) -> ApiResult<ApiJson<Reschedule>> {
    Ok(ApiJson(Reschedule::from(&reschedules::answer(&state, caller.id, id, RescheduleStatus::Declined).await?)))
}
