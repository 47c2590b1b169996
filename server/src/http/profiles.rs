use axum::{Router, extract::State, routing::get};
use uuid::Uuid;

use domain::{
    marketplace::responsiveness::responsiveness,
    wire::{
        accounts::{PortfolioItemView, ProfileFacts, ProfileReview, PublicProfileView},
        paging::{self, Page, PageQuery},
    },
};
use model::marketplace::cancellations;
use store::{Position, db::Timestamp, portfolio, profile_facts, profiles, receipts, reviews, track_record};

use crate::http::{
    error::{ApiError, ApiResult},
    extract::{ApiJson, ApiPath, ApiQuery, AuthUser, Operator},
    state::AppState,
};

const LATEST_REVIEWS: i64 = 20;

pub fn router() -> Router<AppState> {
    Router::new().route("/profiles/{id}", get(public_profile)).route("/profiles/{id}/reviews", get(profile_reviews))
}

/// Anyone's public profile: no email or phone.
#[utoipa::path(get, path = "/api/profiles/{id}", tag = "accounts", security((), ("bearer" = [])),
    params(("id" = Uuid, Path, description = "The person's id")),
    responses((status = 200, body = PublicProfileView), (status = 404)))]
pub async fn public_profile(
    State(state): State<AppState>,
    caller: Option<AuthUser>,
    ApiPath(id): ApiPath<Uuid>,
) -> ApiResult<ApiJson<PublicProfileView>> {
    let row = profiles::profile(&state.db, id).await?.ok_or_else(|| ApiError::not_found("Profile"))?;
    let stats = profiles::profile_stats(&state.db, id).await?;
    let now = Timestamp::now();
    let facts = ProfileFacts {
        // What they did, to the day, and only when they share it: a refresh of a token is no
        // activity, and a time to the second would tell when someone is at their phone.
        last_active_at: if receipts::privacy(&state.db, id).await?.share_online {
            profile_facts::last_active(&state.db, id).await?.map(Timestamp::start_of_day)
        } else {
            None
        },
        responsiveness: responsiveness(&profile_facts::conversations_with(&state.db, id).await?, now),
        completion_rate: {
            let since = now.minus(std::time::Duration::from_secs(365 * 24 * 3600));
            let (completed, against) = track_record::completion_counts(&state.db, id, since).await?;
            cancellations::completion_rate(completed, against)
        },
        payment_verified: profile_facts::has_payment_method(&state.db, id).await?,
    };
    let operator = Operator::reading(&state, caller).await?;
    let rows = reviews::visible_reviews_about(&state.db, id, now, None, LATEST_REVIEWS + 1, operator).await?;
    let (rows, next_cursor) = paging::finish(rows, LATEST_REVIEWS, review_position);
    let mut view = PublicProfileView::new(&row, &stats, facts, &rows, next_cursor);
    view.portfolio = portfolio::items_of(&state.db, id).await?.iter().map(PortfolioItemView::from).collect();
    Ok(ApiJson(view))
}

fn review_position(row: &reviews::ProfileReviewRow) -> Position {
    Position { created_at: row.created_at, id: row.id }
}

/// The visible reviews about someone, newest first, a page at a time (after the profile's first 20).
#[utoipa::path(get, path = "/api/profiles/{id}/reviews", tag = "accounts", security((), ("bearer" = [])),
    params(("id" = Uuid, Path, description = "The person's id"), PageQuery),
    responses((status = 200, body = Page<ProfileReview>), (status = 400), (status = 404), (status = 422)))]
pub async fn profile_reviews(
    State(state): State<AppState>,
    caller: Option<AuthUser>,
    ApiPath(id): ApiPath<Uuid>,
    ApiQuery(query): ApiQuery<PageQuery>,
) -> ApiResult<ApiJson<Page<ProfileReview>>> {
    let (before, limit) = query.parse()?;
    profiles::profile(&state.db, id).await?.ok_or_else(|| ApiError::not_found("Profile"))?;
    let operator = Operator::reading(&state, caller).await?;
    let rows = reviews::visible_reviews_about(&state.db, id, Timestamp::now(), before, limit + 1, operator).await?;
    let (rows, next_cursor) = paging::finish(rows, limit, review_position);
    Ok(ApiJson(Page::new(rows.iter().map(ProfileReview::from).collect(), next_cursor)))
}
