//! Categories, the browse list, posting, task detail, edit and cancel, My Tasks.

use axum::{
    Router,
    extract::State,
    http::{HeaderMap, StatusCode, header},
    routing::{get, post},
};
use serde::Deserialize;
use sha2::{Digest, Sha256};
use uuid::Uuid;

use domain::{
    marketplace,
    wire::{
        marketplace::{
            Badges, PersonSummary, PosterStats, QuestionView, TaskDetail, TaskPhoto, TaskSummary, fill_ratings,
        },
        paging::{self, Items, Page},
    },
};
use model::{
    geo,
    marketplace::{
        categories::{CATEGORIES, Category},
        rules::{self, TASK_REMOVED, TaskInput},
    },
    states::TaskStatus,
};
use store::{
    Position,
    browse::{After, BrowseFilter, BrowseSort},
    db::Timestamp,
    profile_facts, profiles, questions, task_photos,
    tasks::{self, TaskRow, TaskView},
};

use crate::http::{
    error::{ApiError, ApiResult},
    extract::{ApiJson, ApiPath, ApiQuery, AuthUser, ClientIp, Operator, VerifiedUser, task_or_404},
    state::AppState,
};

const DEFAULT_PAGE: i64 = 20;
const SIMILAR_TASKS: i64 = 4;
const MY_TASKS_LIMIT: i64 = 200;
const DAY_MS: i64 = 86_400_000;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/categories", get(list_categories))
        .route("/tasks", get(browse_tasks).post(create_task))
        .route("/tasks/{id}", get(task_detail).patch(update_task))
        .route("/tasks/{id}/cancel", post(cancel_task))
        .route("/me/tasks", get(my_tasks))
}

/// The 16 categories in the spec's order.
#[utoipa::path(get, path = "/api/categories", tag = "marketplace", responses((status = 200, body = [Category])))]
pub async fn list_categories() -> ApiJson<&'static [Category]> {
    ApiJson(&CATEGORIES)
}

#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[serde(default)]
#[into_params(parameter_in = Query)]
pub struct BrowseQuery {
    /// Words to find in the title or description: each word matches words that start with it,
    /// after stemming ("clean" finds "cleaner" and "cleaning"); every word must match.
    q: Option<String>,
    /// Category id (1-16).
    category: Option<String>,
    /// Location contains (case-insensitive).
    location: Option<String>,
    /// Dollars.
    min_budget: Option<String>,
    /// Dollars.
    max_budget: Option<String>,
    /// `lat,lon`: only tasks within `radius_km` of this point.
    near: Option<String>,
    /// 1-100 (default 10), with `near`.
    radius_km: Option<String>,
    /// best_match (the default with `q`) | newest (the default without) | budget_desc | budget_asc | due_soonest
    sort: Option<String>,
    /// 1-100, default 20.
    limit: Option<String>,
    cursor: Option<String>,
}

fn present(value: Option<String>) -> Option<String> {
    value.map(|text| text.trim().to_owned()).filter(|text| !text.is_empty())
}

/// Open tasks, filtered and sorted, one keyset page at a time.
#[utoipa::path(get, path = "/api/tasks", tag = "marketplace", params(BrowseQuery),
    responses((status = 200, body = Page<TaskSummary>), (status = 400), (status = 422)))]
pub async fn browse_tasks(
    State(state): State<AppState>,
    headers: HeaderMap,
    ApiQuery(query): ApiQuery<BrowseQuery>,
) -> ApiResult<ApiJson<Page<TaskSummary>>> {
    let q = present(query.q);
    let sort = match present(query.sort) {
        None if q.is_some() => BrowseSort::BestMatch,
        None => BrowseSort::Newest,
        Some(text) => BrowseSort::parse(&text).ok_or_else(|| {
            ApiError::field("sort", "Sort must be best_match, newest, budget_desc, budget_asc or due_soonest")
        })?,
    };
    let limit = paging::parse_limit(query.limit.as_deref(), DEFAULT_PAGE)?;
    let category_id = match present(query.category) {
        None => None,
        Some(text) => {
            Some(text.parse::<i64>().map_err(|_| ApiError::field("category", "Please choose a valid category"))?)
        }
    };
    let budget = |field: &str, value: Option<String>| match present(value) {
        None => Ok(None),
        Some(text) => {
            rules::dollars_to_cents(&text).map(Some).ok_or_else(|| ApiError::field(field, rules::INVALID_BUDGET))
        }
    };
    let (min_budget_cents, max_budget_cents) =
        (budget("min_budget", query.min_budget)?, budget("max_budget", query.max_budget)?);
    if let (Some(min), Some(max)) = (min_budget_cents, max_budget_cents)
        && min > max
    {
        return Err(ApiError::field("max_budget", "The maximum budget can't be less than the minimum budget"));
    }
    let near = near_filter(present(query.near), present(query.radius_km))?;
    let filter = BrowseFilter {
        words: q.as_deref().map(store::search::search_words),
        category_id,
        location: present(query.location).map(|location| location.to_lowercase()),
        min_budget_cents,
        max_budget_cents,
        within: near.map(|(lat, lon, radius_km)| geo::bounding_box(lat, lon, radius_km)),
    };
    let searching = filter.words.as_ref().is_some_and(|words| !words.is_empty());
    let after = present(query.cursor).map(|text| paging::decode_browse(sort, searching, &text)).transpose()?;
    // Everyone signed out is shown the same list: identical reads at once share theirs. The key is
    // the parsed request, so spellings of one query (`?q=fence`, `?sort=best_match&q=fence`) share.
    let key = format!("{filter:?}|{sort:?}|{after:?}|{limit}|{near:?}");
    let read = || browse_page(&state, filter, sort, after, limit, near);
    if headers.contains_key(header::AUTHORIZATION) {
        return Ok(ApiJson(read().await?));
    }
    Ok(ApiJson(state.browse_pages.read(key, read).await?))
}

/// One page of the browse list as the API shows it.
async fn browse_page(
    state: &AppState,
    filter: BrowseFilter,
    sort: BrowseSort,
    after: Option<After>,
    limit: i64,
    near: Option<(f64, f64, f64)>,
) -> ApiResult<Page<TaskSummary>> {
    let rows = store::open_tasks::page(&state.db, &state.walk_edge, &filter, sort, after.as_ref(), limit + 1).await?;
    let (rows, next_cursor) = paging::cut(rows, limit, |row| paging::encode_browse(sort, &row.after));
    let mut rows: Vec<TaskRow> = rows.into_iter().map(|row| row.task).collect();
    // The query kept a box around the circle; its corners go here (a page may come out short).
    if let Some((lat, lon, radius_km)) = near {
        rows.retain(|row| match (row.lat, row.lon) {
            (Some(task_lat), Some(task_lon)) => geo::distance_km(lat, lon, task_lat, task_lon) <= radius_km,
            _ => false,
        });
    }
    let mut items: Vec<TaskSummary> = rows.iter().map(TaskSummary::from).collect();
    let facts = profile_facts::card_facts(&state.db, items.iter().map(|task| task.poster.id)).await?;
    fill_ratings(items.iter_mut().map(|task| &mut task.poster), &facts);
    Ok(Page::new(items, next_cursor))
}

const DEFAULT_RADIUS_KM: f64 = 10.0;
const MAX_RADIUS_KM: f64 = 100.0;

/// `near=lat,lon` and `radius_km` → (lat, lon, radius in km).
fn near_filter(near: Option<String>, radius_km: Option<String>) -> ApiResult<Option<(f64, f64, f64)>> {
    let Some(near) = near else { return Ok(None) };
    let point = near
        .split_once(',')
        .and_then(|(lat, lon)| Some((lat.trim().parse::<f64>().ok()?, lon.trim().parse::<f64>().ok()?)))
        .filter(|(lat, lon)| geo::valid_coordinates(*lat, *lon))
        .ok_or_else(|| ApiError::field("near", "Near must be a latitude and a longitude, as lat,lon"))?;
    let radius = match radius_km {
        None => DEFAULT_RADIUS_KM,
        Some(text) => text
            .parse::<f64>()
            .ok()
            .filter(|radius| radius.is_finite() && *radius > 0.0 && *radius <= MAX_RADIUS_KM)
            .ok_or_else(|| ApiError::field("radius_km", "Radius must be a number of km from 1 to 100"))?,
    };
    Ok(Some((point.0, point.1, radius)))
}

/// Posts a task (status `open`). Each post may notify every matching tasker, so
/// posts are limited per account and per client address (429 past either).
#[utoipa::path(post, path = "/api/tasks", tag = "marketplace", request_body = TaskInput, security(("bearer" = [])),
    responses((status = 201, body = TaskDetail), (status = 401), (status = 403), (status = 422), (status = 429)))]
pub async fn create_task(
    State(state): State<AppState>,
    VerifiedUser(caller): VerifiedUser,
    ClientIp(client): ClientIp,
    ApiJson(input): ApiJson<TaskInput>,
) -> ApiResult<(StatusCode, ApiJson<TaskDetail>)> {
    let row = marketplace::tasks::post(&state, caller.id, client, &input).await?;
    Ok((StatusCode::CREATED, ApiJson(detail(&state, row, 0, Page::new(Vec::new(), None)).await?)))
}

/// The task page around `row`. Its reads do not depend on one another, so they run at once
/// (each on its own pooled connection): the page costs the slowest read, not the sum of ten.
async fn detail(
    state: &AppState,
    row: TaskRow,
    view_count: i64,
    questions: Page<QuestionView>,
) -> ApiResult<TaskDetail> {
    let db = &state.db;
    let assigned_tasker = async {
        let Some(id) = row.assigned_tasker_id else { return Ok(None) };
        Ok::<_, ApiError>(profiles::profile(db, id).await?.map(|tasker| PersonSummary {
            verified: Badges::of(&tasker),
            ..PersonSummary::new(id, &tasker.first_name, &tasker.last_name, tasker.avatar_url.as_ref())
        }))
    };
    let similar_tasks = async {
        let similar = tasks::similar_open_tasks(db, row.category_id, row.id, SIMILAR_TASKS).await?;
        let mut similar_tasks: Vec<TaskSummary> = similar.iter().map(TaskSummary::from).collect();
        let facts = profile_facts::card_facts(db, similar_tasks.iter().map(|task| task.poster.id)).await?;
        fill_ratings(similar_tasks.iter_mut().map(|task| &mut task.poster), &facts);
        Ok::<_, ApiError>(similar_tasks)
    };
    let (stats, poster, assigned_tasker, similar_tasks, photos) = tokio::try_join!(
        async { Ok::<_, ApiError>(profiles::profile_stats(db, row.poster_id).await?) },
        async { Ok::<_, ApiError>(profiles::profile(db, row.poster_id).await?) },
        assigned_tasker,
        similar_tasks,
        async { Ok::<_, ApiError>(task_photos::photos_of(db, row.id).await?) },
    )?;
    let mut task = TaskSummary::from(&row);
    task.poster.rating = stats.rating;
    task.photos = photos.into_iter().map(TaskPhoto::new).collect();
    task.poster.verified = poster.as_ref().map(Badges::of).unwrap_or_default();
    Ok(TaskDetail {
        task,
        view_count,
        assigned_tasker,
        poster_stats: PosterStats {
            rating: stats.rating,
            review_count: stats.review_count,
            tasks_completed: stats.tasks_completed,
            member_since: poster.map_or(row.created_at, |poster| poster.created_at),
        },
        questions_has_more: questions.has_more,
        questions_next_cursor: questions.next_cursor,
        questions: questions.items,
        similar_tasks,
        updated_at: row.updated_at,
    })
}

/// The questions the detail screen embeds: the first page only, however many there are.
async fn first_questions(state: &AppState, task_id: Uuid, operator: bool) -> ApiResult<Page<QuestionView>> {
    let rows = questions::questions_page(&state.db, task_id, None, paging::DEFAULT_LIMIT + 1).await?;
    let (rows, next_cursor) =
        paging::finish(rows, paging::DEFAULT_LIMIT, |row| Position { created_at: row.created_at, id: row.id });
    Ok(Page::new(rows.iter().map(|row| QuestionView::as_read(row, operator)).collect(), next_cursor))
}

/// Who a view is counted for: the signed-in user, else the (hashed) address.
fn viewer_key(caller: Option<AuthUser>, ip: std::net::IpAddr) -> String {
    match caller {
        Some(caller) => format!("user:{}", caller.id),
        None => format!("ip:{}", hex::encode(&Sha256::digest(ip.to_string().as_bytes())[..16])),
    }
}

/// Everything the detail screen shows; counts one view per viewer per day (not the poster's own).
/// A task a moderator removed is 404 "This task was removed" to everyone but operators, who read
/// it in full (removed questions too, marked removed).
#[utoipa::path(get, path = "/api/tasks/{id}", tag = "marketplace", security((), ("bearer" = [])), params(("id" = Uuid, Path, description = "The task")),
    responses((status = 200, body = TaskDetail), (status = 404)))]
pub async fn task_detail(
    State(state): State<AppState>,
    caller: Option<AuthUser>,
    ClientIp(ip): ClientIp,
    ApiPath(id): ApiPath<Uuid>,
) -> ApiResult<ApiJson<TaskDetail>> {
    let page = match caller {
        // Everyone signed out is shown the same page: identical reads at once share theirs.
        None => state.task_pages.read(id, || anonymous_page(&state, id)).await?,
        Some(caller) => {
            let row = task_or_404(&state, id).await?;
            let operator = Operator::reading(&state, Some(caller)).await?;
            if row.status == TaskStatus::Removed && !operator {
                return Err(ApiError::NotFound(TASK_REMOVED.into()));
            }
            let own_task = caller.id == row.poster_id;
            let page = detail_as_shown(&state, row, operator).await?;
            if own_task {
                return Ok(ApiJson(page));
            }
            page
        }
    };
    // Counted off the request path (`task_views`): in `view_count` within a second.
    let day = Timestamp::now().0.div_euclid(DAY_MS);
    state.task_views.record(TaskView { task_id: id, viewer_key: viewer_key(caller, ip), day });
    Ok(ApiJson(page))
}

/// The page as anyone signed out sees it: a removed task is 404.
async fn anonymous_page(state: &AppState, id: Uuid) -> ApiResult<TaskDetail> {
    let row = task_or_404(state, id).await?;
    if row.status == TaskStatus::Removed {
        return Err(ApiError::NotFound(TASK_REMOVED.into()));
    }
    detail_as_shown(state, row, false).await
}

/// The task as `GET /api/tasks/{id}` shows it (views so far, the first page of questions), without
/// counting a view: also written into the task's web page, so the app can render it at once.
pub async fn detail_as_shown(state: &AppState, row: TaskRow, operator: bool) -> ApiResult<TaskDetail> {
    let (view_count, questions) = tokio::try_join!(
        async { Ok::<_, ApiError>(tasks::view_count(&state.db, row.id).await?) },
        first_questions(state, row.id, operator),
    )?;
    detail(state, row, view_count, questions).await
}

/// Edits an open task (poster only). Absent fields keep their value.
#[utoipa::path(patch, path = "/api/tasks/{id}", tag = "marketplace", params(("id" = Uuid, Path, description = "The task")), request_body = TaskInput, security(("bearer" = [])),
    responses((status = 200, body = TaskDetail), (status = 401), (status = 403), (status = 404), (status = 409), (status = 422)))]
pub async fn update_task(
    State(state): State<AppState>,
    caller: AuthUser,
    ApiPath(id): ApiPath<Uuid>,
    ApiJson(patch): ApiJson<TaskInput>,
) -> ApiResult<ApiJson<TaskDetail>> {
    let row = marketplace::tasks::edit(&state, caller.id, id, patch).await?;
    let questions = first_questions(&state, id, false).await?;
    let view_count = tasks::view_count(&state.db, id).await?;
    Ok(ApiJson(detail(&state, row, view_count, questions).await?))
}

#[derive(Debug, Default, serde::Deserialize, utoipa::ToSchema)]
#[serde(default)]
pub struct CancelInput {
    /// A reason from the fixed list (`marketplace::cancellations::REASONS`); `other` when left out.
    pub reason_code: Option<String>,
}

/// Cancels an open task (poster only), with an optional reason from the list (attributed to the
/// poster); pending offers become `not_selected` and their taskers are told. An unknown reason 422.
#[utoipa::path(post, path = "/api/tasks/{id}/cancel", tag = "marketplace", params(("id" = Uuid, Path, description = "The task")),
    request_body(content = Option<CancelInput>, description = "Optional"), security(("bearer" = [])),
    responses((status = 200, body = TaskSummary), (status = 401), (status = 403), (status = 404), (status = 409), (status = 422)))]
pub async fn cancel_task(
    State(state): State<AppState>,
    caller: AuthUser,
    ApiPath(id): ApiPath<Uuid>,
    crate::http::extract::RawBody(body): crate::http::extract::RawBody,
) -> ApiResult<ApiJson<TaskSummary>> {
    crate::http::extract::refuse_control_characters(&body)?;
    let input: CancelInput = if body.iter().all(u8::is_ascii_whitespace) {
        CancelInput::default()
    } else {
        serde_json::from_slice(&body)
            .map_err(|_| ApiError::field("reason_code", "Please choose a reason from the list"))?
    };
    let row = marketplace::tasks::cancel_open(&state, caller.id, id, input.reason_code.as_deref()).await?;
    Ok(ApiJson(TaskSummary::from(&row)))
}

/// My Tasks, "Tasks I Posted": any status, newest first.
#[utoipa::path(get, path = "/api/me/tasks", tag = "marketplace", security(("bearer" = [])),
    responses((status = 200, body = Items<TaskSummary>), (status = 401)))]
pub async fn my_tasks(State(state): State<AppState>, caller: AuthUser) -> ApiResult<ApiJson<Items<TaskSummary>>> {
    let rows = tasks::tasks_posted_by(&state.db, caller.id, MY_TASKS_LIMIT).await?;
    let mut items: Vec<TaskSummary> = rows.iter().map(TaskSummary::from).collect();
    let facts = profile_facts::card_facts(&state.db, items.iter().map(|task| task.poster.id)).await?;
    fill_ratings(items.iter_mut().map(|task| &mut task.poster), &facts);
    Ok(ApiJson(Items { items }))
}
