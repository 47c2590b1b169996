//! Offers on tasks: make, list (amounts private), update, withdraw, My offers.

use axum::{
    Router,
    extract::State,
    http::StatusCode,
    routing::{get, patch, post},
};
use serde::Deserialize;
use serde_json::Value;
use uuid::Uuid;

use crate::{
    db::Timestamp,
    error::{ApiError, ApiResult},
    http::extract::{ApiJson, ApiPath, ApiQuery, AuthUser, Operator, TaskFromPath, VerifiedUser, task_or_404},
    live,
    marketplace::rules,
    moderation::guard,
    notices,
    rate_limit::Limit,
    state::AppState,
    store::{
        Position,
        offers::{self, CreateOfferError, NewOffer, OfferRow},
        profile_facts, tasks,
    },
    wire::{
        marketplace::{MyOfferView, OfferView, TaskSummary, fill_ratings},
        paging::{self, Items, Page, PageQuery},
    },
};

const MY_OFFERS_LIMIT: i64 = 200;
/// Offers made plus offers withdrawn, per tasker.
const OFFER_CHURN: Limit = Limit::per_minute(12);

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/tasks/{id}/offers", get(list_offers).post(make_offer))
        .route("/offers/{id}", patch(update_offer))
        .route("/offers/{id}/withdraw", post(withdraw_offer))
        .route("/me/offers", get(my_offers))
}

#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(default)]
pub struct OfferInput {
    /// Cents, at least 500.
    #[schema(value_type = Option<i64>)]
    amount_cents: Option<Value>,
    message: Option<String>,
}

/// Offers on a task, oldest first, a page at a time; amount and message only
/// for the poster and each offer's tasker.
#[utoipa::path(get, path = "/api/tasks/{id}/offers", tag = "marketplace", security((), ("bearer" = [])),
    params(("id" = Uuid, Path, description = "Task id"), PageQuery),
    responses((status = 200, body = Page<OfferView>), (status = 400), (status = 404), (status = 422)))]
pub async fn list_offers(
    State(state): State<AppState>,
    caller: Option<AuthUser>,
    TaskFromPath(task): TaskFromPath,
    ApiQuery(query): ApiQuery<PageQuery>,
) -> ApiResult<ApiJson<Page<OfferView>>> {
    let (after, limit) = query.parse()?;
    let viewer = caller.map(|caller| caller.id);
    let operator = Operator::reading(&state, caller).await?;
    let rows = offers::offers_page(&state.db, task.id, after, limit + 1).await?;
    let (rows, next_cursor) = paging::finish(rows, limit, |row| Position { created_at: row.created_at, id: row.id });
    let mut items: Vec<OfferView> =
        rows.iter().map(|row| OfferView::for_viewer(row, task.poster_id, viewer, operator)).collect();
    let facts = profile_facts::card_facts(&state.db, items.iter().map(|offer| offer.tasker.id)).await?;
    fill_ratings(items.iter_mut().map(|offer| &mut offer.tasker), &facts);
    Ok(ApiJson(Page::new(items, next_cursor)))
}

/// Makes an offer: not on your own task (403), only while open (409), one pending offer per tasker (409),
/// at most five per tasker per task, withdrawn ones included (409); offer churn is rate-limited (429).
#[utoipa::path(post, path = "/api/tasks/{id}/offers", tag = "marketplace", params(("id" = Uuid, Path, description = "The task")), request_body = OfferInput, security(("bearer" = [])),
    responses((status = 201, body = OfferView), (status = 401), (status = 403), (status = 404), (status = 409), (status = 422),
        (status = 429)))]
pub async fn make_offer(
    State(state): State<AppState>,
    VerifiedUser(caller): VerifiedUser,
    ApiPath(task_id): ApiPath<Uuid>,
    ApiJson(input): ApiJson<OfferInput>,
) -> ApiResult<(StatusCode, ApiJson<OfferView>)> {
    count_offer_churn(&state, caller).await?;
    let task = task_or_404(&state, task_id).await?;
    if task.poster_id == caller.id {
        return Err(ApiError::Forbidden("You cannot make an offer on your own task".into()));
    }
    let (amount_cents, message) = rules::validate_offer(input.amount_cents.as_ref(), input.message.as_deref())?;
    guard::keep_on_platform(&[("message", &message)])?;
    let now = Timestamp::now();
    let new_offer = NewOffer {
        task_id,
        tasker_id: caller.id,
        amount_cents,
        message: &message,
        notification: notices::new_offer(task.poster_id, task_id, &task.title, now),
        created_at: now,
    };
    let created =
        offers::create_offer(&state.db, &new_offer, rules::MAX_OFFERS_PER_TASKER_PER_TASK).await.map_err(|error| {
            match error {
                CreateOfferError::TaskNotOpen => ApiError::Conflict("This task is no longer open for offers".into()),
                CreateOfferError::AlreadyOffered => {
                    ApiError::Conflict("You already have a pending offer on this task".into())
                }
                CreateOfferError::TooManyOffers => ApiError::Conflict(format!(
                    "You have already made {} offers on this task, the most allowed",
                    rules::MAX_OFFERS_PER_TASKER_PER_TASK
                )),
                CreateOfferError::Database(error) => error.into(),
            }
        })?;
    let row = offers::offer(&state.db, created.offer_id)
        .await?
        .ok_or_else(|| anyhow::anyhow!("offer vanished after insert"))?;
    live::offer_changed(&state, "offer.created", &row, task.poster_id, created.offer_count).await;
    live::task_updated(&state, task_id, &task.status, created.offer_count).await;
    live::notifications_created(&state, std::slice::from_ref(&created.notification)).await;
    Ok((StatusCode::CREATED, ApiJson(OfferView::new(&row, true))))
}

/// Making and withdrawing offers notifies posters and updates live pages: one budget per tasker.
async fn count_offer_churn(state: &AppState, caller: AuthUser) -> ApiResult<()> {
    Ok(state.limiter.check(&format!("offer-churn:{}", caller.id), OFFER_CHURN).await?)
}

/// The offer, when the caller is its tasker: 404 unknown, 403 someone else's.
async fn taskers_offer(state: &AppState, caller: AuthUser, id: Uuid) -> ApiResult<OfferRow> {
    let row = offers::offer(&state.db, id).await?.ok_or_else(|| ApiError::not_found("Offer"))?;
    if row.tasker_id != caller.id {
        return Err(ApiError::Forbidden("Only the tasker who made this offer can change it".into()));
    }
    Ok(row)
}

fn not_pending() -> ApiError {
    ApiError::Conflict("This offer can no longer be changed".into())
}

/// Changes the amount or message of a pending offer (its tasker only).
#[utoipa::path(patch, path = "/api/offers/{id}", tag = "marketplace", params(("id" = Uuid, Path, description = "The offer")), request_body = OfferInput, security(("bearer" = [])),
    responses((status = 200, body = OfferView), (status = 401), (status = 403), (status = 404), (status = 409), (status = 422)))]
pub async fn update_offer(
    State(state): State<AppState>,
    caller: AuthUser,
    ApiPath(id): ApiPath<Uuid>,
    ApiJson(input): ApiJson<OfferInput>,
) -> ApiResult<ApiJson<OfferView>> {
    let current = taskers_offer(&state, caller, id).await?;
    let amount = input.amount_cents.unwrap_or(current.amount_cents.into());
    let message = input.message.unwrap_or(current.message.clone());
    let (amount_cents, message) = rules::validate_offer(Some(&amount), Some(&message))?;
    guard::keep_on_platform(&[("message", &message)])?;
    if !offers::update_pending_offer(&state.db, id, caller.id, amount_cents, &message, Timestamp::now()).await? {
        return Err(not_pending());
    }
    let row = offers::offer(&state.db, id).await?.ok_or_else(|| ApiError::not_found("Offer"))?;
    let task = task_or_404(&state, row.task_id).await?;
    live::offer_changed(&state, "offer.updated", &row, task.poster_id, task.offer_count).await;
    Ok(ApiJson(OfferView::new(&row, true)))
}

/// Withdraws a pending offer (its tasker only); offer churn is rate-limited (429).
#[utoipa::path(post, path = "/api/offers/{id}/withdraw", tag = "marketplace", params(("id" = Uuid, Path, description = "The offer")), security(("bearer" = [])),
    responses((status = 200, body = OfferView), (status = 401), (status = 403), (status = 404), (status = 409), (status = 429)))]
pub async fn withdraw_offer(
    State(state): State<AppState>,
    caller: AuthUser,
    ApiPath(id): ApiPath<Uuid>,
) -> ApiResult<ApiJson<OfferView>> {
    count_offer_churn(&state, caller).await?;
    taskers_offer(&state, caller, id).await?;
    let offer_count =
        offers::withdraw_offer(&state.db, id, caller.id, Timestamp::now()).await?.ok_or_else(not_pending)?;
    let row = offers::offer(&state.db, id).await?.ok_or_else(|| ApiError::not_found("Offer"))?;
    let task = task_or_404(&state, row.task_id).await?;
    live::offer_changed(&state, "offer.withdrawn", &row, task.poster_id, offer_count).await;
    live::task_updated(&state, task.id, &task.status, offer_count).await;
    Ok(ApiJson(OfferView::new(&row, true)))
}

/// My Tasks, "Tasks I'm Offering On": my offers with their tasks, newest first.
#[utoipa::path(get, path = "/api/me/offers", tag = "marketplace", security(("bearer" = [])),
    responses((status = 200, body = Items<MyOfferView>), (status = 401)))]
pub async fn my_offers(State(state): State<AppState>, caller: AuthUser) -> ApiResult<ApiJson<Items<MyOfferView>>> {
    let rows = offers::offers_by_tasker(&state.db, caller.id, MY_OFFERS_LIMIT).await?;
    let tasks = tasks::tasks_offered_on_by(&state.db, caller.id).await?;
    let mut items: Vec<MyOfferView> = rows
        .iter()
        .filter_map(|offer| {
            let task = tasks.iter().find(|task| task.id == offer.task_id)?;
            Some(MyOfferView { offer: OfferView::new(offer, true), task: TaskSummary::from(task) })
        })
        .collect();
    let facts = profile_facts::card_facts(&state.db, items.iter().map(|item| item.task.poster.id)).await?;
    fill_ratings(items.iter_mut().map(|item| &mut item.task.poster), &facts);
    Ok(ApiJson(Items { items }))
}
