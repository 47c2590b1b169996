//! Operator screens' API (`ADMIN_EMAILS`): the dispute queue and its
//! decisions, and the provider calls parked after too many failed attempts.

use axum::{
    Router,
    extract::State,
    routing::{get, post},
};
use serde::Deserialize;
use uuid::Uuid;

use domain::{
    accounts::names::public_name,
    moderation::actions,
    payments::disputes::{self, MAX_NOTE_CHARS, Resolution},
    wire::{
        assigned_tasks::Dispute,
        dispute_cases::{DisputeCase, DisputeQueue, PartyBrief, PaymentBrief, TaskBrief},
        payments::ParkedCalls,
    },
};
use model::{
    moderation::{AuditAction, AuditTarget},
    states::{DisputeOutcome, DisputeStatus},
};
use store::{audit_log::AuditEntry, profiles, provider_calls};

use crate::http::{
    error::{ApiError, ApiResult},
    extract::{ApiJson, ApiPath, ApiQuery, Operator, task_or_404},
    state::AppState,
};

const QUEUE_LIMIT: i64 = 100;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/admin/disputes", get(dispute_queue))
        .route("/admin/disputes/{id}/resolve", post(resolve_dispute))
        .route("/admin/provider-calls", get(parked_calls))
        .route("/admin/provider-calls/{id}/retry", post(retry_call))
}

#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[serde(default)]
#[into_params(parameter_in = Query)]
pub struct QueueQuery {
    /// `open` (default) or `resolved`.
    pub status: Option<String>,
}

async fn party(state: &AppState, id: Uuid) -> ApiResult<PartyBrief> {
    let profile = profiles::profile(&state.db, id).await?;
    let name = profile.map(|p| public_name(&p.first_name, &p.last_name)).unwrap_or_else(|| "Unknown".into());
    Ok(PartyBrief { id, name })
}

/// Open disputes oldest first (or resolved ones, newest first), at most 100.
#[utoipa::path(get, path = "/api/admin/disputes", tag = "admin", params(QueueQuery), security(("bearer" = [])),
    responses((status = 200, body = DisputeQueue), (status = 400), (status = 401), (status = 403), (status = 422)))]
pub async fn dispute_queue(
    State(state): State<AppState>,
    _operator: Operator,
    ApiQuery(query): ApiQuery<QueueQuery>,
) -> ApiResult<ApiJson<DisputeQueue>> {
    let status = DisputeStatus::parse(query.status.as_deref().unwrap_or("open"))
        .ok_or_else(|| ApiError::field("status", "Status must be open or resolved"))?;
    let mut items = Vec::new();
    for dispute in store::disputes::queue(&state.db, status, QUEUE_LIMIT).await? {
        let task = task_or_404(&state, dispute.task_id).await?;
        let payment = disputes::held_payment(&state, &dispute).await?;
        items.push(DisputeCase {
            task: TaskBrief { id: task.id, title: task.title.clone(), status: task.status },
            poster: party(&state, payment.poster_id).await?,
            tasker: party(&state, payment.tasker_id).await?,
            payment: PaymentBrief {
                amount_cents: payment.amount_cents,
                fee_cents: payment.fee_cents,
                currency: payment.currency.clone(),
                status: payment.status,
            },
            dispute: Dispute::from(&dispute),
        });
    }
    Ok(ApiJson(DisputeQueue { items }))
}

#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(default)]
pub struct ResolveInput {
    /// `release` | `partial_refund` | `refund`.
    pub outcome: String,
    /// For `partial_refund`: what the poster gets back, 1..amount−1 cents.
    pub refund_cents: Option<i64>,
    pub note: String,
}

/// Decides an open dispute: release to the tasker, refund the poster, or split.
/// Not an operator 403; already resolved 409; a bad outcome, amount or missing note 422.
#[utoipa::path(post, path = "/api/admin/disputes/{id}/resolve", tag = "admin", request_body = ResolveInput,
    params(("id" = Uuid, Path, description = "The dispute")), security(("bearer" = [])),
    responses((status = 200, body = Dispute), (status = 400), (status = 401), (status = 403), (status = 404),
        (status = 409), (status = 422)))]
pub async fn resolve_dispute(
    State(state): State<AppState>,
    operator: Operator,
    ApiPath(id): ApiPath<Uuid>,
    ApiJson(input): ApiJson<ResolveInput>,
) -> ApiResult<ApiJson<Dispute>> {
    let dispute = store::disputes::dispute(&state.db, id).await?.ok_or_else(|| ApiError::not_found("Dispute"))?;
    let task = task_or_404(&state, dispute.task_id).await?;
    let parties: Vec<Uuid> = [Some(task.poster_id), task.assigned_tasker_id].into_iter().flatten().collect();
    let attempt =
        AuditEntry::new(operator.id, AuditAction::DisputeDecision, (AuditTarget::Dispute, id), input.note.trim());
    actions::refuse_own_case(&state, attempt, &parties).await?;
    if dispute.status != DisputeStatus::Open {
        return Err(ApiError::Conflict("This dispute was already resolved".into()));
    }
    let payment = disputes::held_payment(&state, &dispute).await?;
    let resolution = match (DisputeOutcome::parse(&input.outcome), input.refund_cents) {
        (Some(DisputeOutcome::Release), _) => Resolution::Release,
        (Some(DisputeOutcome::Refund), _) => Resolution::Refund,
        (Some(DisputeOutcome::PartialRefund), Some(cents)) if cents >= 1 && cents < payment.amount_cents => {
            Resolution::PartialRefund(cents)
        }
        (Some(DisputeOutcome::PartialRefund), _) => {
            return Err(ApiError::field(
                "refund_cents",
                "A partial refund must be more than nothing and less than the whole payment",
            ));
        }
        (None, _) => return Err(ApiError::field("outcome", "Please choose release, partial_refund or refund")),
    };
    let note = input.note.trim();
    if note.is_empty() || note.chars().count() > MAX_NOTE_CHARS {
        return Err(ApiError::field("note", "Please explain the decision"));
    }
    let resolved = disputes::resolve(&state, &task, &dispute, &payment, resolution, operator.id, note).await?;
    Ok(ApiJson(Dispute::from(&resolved)))
}

/// Transfers and refunds given up on after too many failed attempts, newest first.
#[utoipa::path(get, path = "/api/admin/provider-calls", tag = "admin", security(("bearer" = [])),
    responses((status = 200, body = ParkedCalls), (status = 401), (status = 403)))]
pub async fn parked_calls(State(state): State<AppState>, _operator: Operator) -> ApiResult<ApiJson<ParkedCalls>> {
    Ok(ApiJson(ParkedCalls {
        items: provider_calls::parked(&state.db, QUEUE_LIMIT).await?.iter().map(From::from).collect(),
    }))
}

/// Puts a parked call back in the queue with a fresh count (e.g. once the tasker set up payouts).
#[utoipa::path(post, path = "/api/admin/provider-calls/{id}/retry", tag = "admin",
    params(("id" = Uuid, Path, description = "The parked provider call")), security(("bearer" = [])),
    responses((status = 204), (status = 400), (status = 401), (status = 403), (status = 409)))]
pub async fn retry_call(
    State(state): State<AppState>,
    operator: Operator,
    ApiPath(id): ApiPath<Uuid>,
) -> ApiResult<axum::http::StatusCode> {
    let audit = AuditEntry::new(operator.id, AuditAction::ProviderCallRetry, (AuditTarget::ProviderCall, id), "");
    if let Some(call) = provider_calls::call(&state.db, id).await?
        && let Some(payment) = store::payments::payment(&state.db, call.payment_id).await?
    {
        actions::refuse_own_case(&state, audit.clone(), &[payment.poster_id, payment.tasker_id]).await?;
    }
    if !provider_calls::unpark_by_operator(&state.db, id, &audit).await? {
        return Err(ApiError::Conflict("Only a parked call can be retried".into()));
    }
    Ok(axum::http::StatusCode::NO_CONTENT)
}
