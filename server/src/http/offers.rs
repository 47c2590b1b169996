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

use domain::{
    marketplace,
    wire::{
        marketplace::{MyOfferView, OfferView, TaskSummary, fill_ratings},
        paging::{self, Items, Page, PageQuery},
    },
};
use store::{Position, offers, profile_facts, tasks};

use crate::http::{
    error::ApiResult,
    extract::{ApiJson, ApiPath, ApiQuery, AuthUser, Operator, TaskFromPath, VerifiedUser},
    state::AppState,
};

const MY_OFFERS_LIMIT: i64 = 200;

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

impl OfferInput {
    fn as_sent(&self) -> marketplace::offers::OfferInput<'_> {
        marketplace::offers::OfferInput { amount_cents: self.amount_cents.as_ref(), message: self.message.as_deref() }
    }
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
    let row = marketplace::offers::make(&state, caller.id, task_id, input.as_sent()).await?;
    Ok((StatusCode::CREATED, ApiJson(OfferView::new(&row, true))))
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
    let row = marketplace::offers::update(&state, caller.id, id, input.as_sent()).await?;
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
    let row = marketplace::offers::withdraw(&state, caller.id, id).await?;
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
