//! The caller's linked sign-in providers (`/api/me/identities`): listed, and unlinked unless
//! it is the last way into the account.

use axum::{Router, extract::State, http::StatusCode, routing::get};

use domain::{
    signin::ProviderId,
    wire::signin::{IdentitiesResponse, IdentityView},
};
use store::identities::{self, Unlink};

use crate::http::{
    error::{ApiError, ApiResult},
    extract::{ApiJson, ApiPath, AuthUser},
    state::AppState,
};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/me/identities", get(my_identities))
        .route("/me/identities/{provider}", axum::routing::delete(unlink_identity))
}

/// The providers linked to the caller's account, oldest first.
#[utoipa::path(get, path = "/api/me/identities", tag = "accounts", security(("bearer" = [])),
    responses((status = 200, body = IdentitiesResponse), (status = 401)))]
pub async fn my_identities(State(state): State<AppState>, user: AuthUser) -> ApiResult<ApiJson<IdentitiesResponse>> {
    let (rows, has_password) = identities::identities_of(&state.db, user.id).await?;
    let items = rows
        .into_iter()
        .filter_map(|row| {
            let provider = ProviderId::parse(&row.provider)?;
            Some(IdentityView { provider, name: provider.display_name(), email: row.email, linked_at: row.created_at })
        })
        .collect();
    Ok(ApiJson(IdentitiesResponse { items, has_password }))
}

/// Unlinks a provider: 204; not linked 404; the account's last way to sign in (no password and
/// no other provider) 409.
#[utoipa::path(delete, path = "/api/me/identities/{provider}", tag = "accounts",
    params(("provider" = ProviderId, Path, description = "The provider")), security(("bearer" = [])),
    responses((status = 204), (status = 401), (status = 404, description = "Not linked"),
        (status = 409, description = "The last way to sign in")))]
pub async fn unlink_identity(
    State(state): State<AppState>,
    user: AuthUser,
    ApiPath(provider): ApiPath<String>,
) -> ApiResult<StatusCode> {
    let not_linked = || ApiError::NotFound("That sign-in provider is not linked to your account.".into());
    let provider = ProviderId::parse(&provider).ok_or_else(not_linked)?;
    match identities::unlink(&state.db, user.id, provider.as_str()).await? {
        Unlink::Removed => Ok(StatusCode::NO_CONTENT),
        Unlink::NotLinked => Err(not_linked()),
        Unlink::LastWay => Err(ApiError::Conflict(format!(
            "{} is the only way you sign in. Set a password (Forgot password? on the login page) or link another \
             provider before you unlink it.",
            provider.display_name()
        ))),
    }
}
