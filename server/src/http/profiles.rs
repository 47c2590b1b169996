use axum::{Router, extract::State, routing::get};
use uuid::Uuid;

use crate::{
    db::Timestamp,
    error::{ApiError, ApiResult},
    http::{
        extract::{ApiJson, ApiPath},
        views::PublicProfileView,
    },
    state::AppState,
    store::{profiles, reviews},
};

const LATEST_REVIEWS: i64 = 20;

pub fn router() -> Router<AppState> {
    Router::new().route("/profiles/{id}", get(public_profile))
}

/// Anyone's public profile: no email or phone.
#[utoipa::path(get, path = "/api/profiles/{id}", tag = "accounts", params(("id" = Uuid, Path, description = "The user")),
    responses((status = 200, body = PublicProfileView), (status = 404)))]
pub async fn public_profile(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<Uuid>,
) -> ApiResult<ApiJson<PublicProfileView>> {
    let row = profiles::profile(&state.db, id).await?.ok_or_else(|| ApiError::not_found("Profile"))?;
    let stats = profiles::profile_stats(&state.db, id).await?;
    let reviews = reviews::visible_reviews_about(&state.db, id, Timestamp::now(), LATEST_REVIEWS).await?;
    Ok(ApiJson(PublicProfileView::new(&row, &stats, &reviews)))
}
