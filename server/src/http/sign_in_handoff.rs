//! The last step of a provider sign-in: the callback hands the app a one-time code (in the URL
//! fragment) and, to the browser that signed in only, an HttpOnly cookie; the app's callback page
//! redeems the two for a session. A callback link sent to anyone else signs them in to nothing
//! (login CSRF), and no bearer token is ever in a URL.

use axum::{
    Router,
    extract::State,
    http::{HeaderMap, HeaderValue, header},
    response::{IntoResponse, Response},
    routing::post,
};
use serde::Deserialize;
use uuid::Uuid;

use domain::{auth::secrets, wire::sessions::SessionResponse};
use store::{db::Timestamp, identities, users};

use crate::http::{
    auth::{refuse_suspended, start_session},
    error::{ApiError, ApiResult},
    extract::ApiJson,
    state::AppState,
};

pub fn router() -> Router<AppState> {
    Router::new().route("/auth/oidc/redeem", post(redeem))
}

/// A handoff of `user_id`'s sign-in: the code for the callback's fragment, and the cookie that
/// binds it to this browser.
pub(crate) async fn issue(state: &AppState, user_id: Uuid) -> ApiResult<(String, HeaderValue)> {
    let (code, binding) = (secrets::new_token(), secrets::new_token());
    let now = Timestamp::now();
    let (code_hash, binding_hash) = (secrets::token_hash(&code), secrets::token_hash(&binding));
    identities::insert_handoff(&state.db, &code_hash, &binding_hash, user_id, now, now.plus(HANDOFF_TTL)).await?;
    Ok((code, handoff_cookie(state, &binding, HANDOFF_TTL.as_secs())))
}

/// How long the callback page has to redeem a sign-in.
const HANDOFF_TTL: std::time::Duration = std::time::Duration::from_secs(120);

const HANDOFF_COOKIE: &str = "taskhub_oidc_handoff";

/// The browser's half of a handoff: sent only to the redeem route, same-site requests only.
fn handoff_cookie(state: &AppState, value: &str, max_age: u64) -> HeaderValue {
    let secure = if state.public_url.starts_with("https://") { "; Secure" } else { "" };
    HeaderValue::from_str(&format!(
        "{HANDOFF_COOKIE}={value}; Path=/api/auth/oidc/redeem; HttpOnly; Max-Age={max_age}; SameSite=Lax{secure}"
    ))
    .expect("a token is a valid cookie value")
}

/// The value of the cookie `name` the request carries.
pub(crate) fn cookie<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|cookies| cookies.split(';'))
        .find_map(|cookie| cookie.trim().strip_prefix(name)?.strip_prefix('='))
}

#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(default)]
pub struct RedeemRequest {
    /// The `code` of the `/auth/callback#code=…` fragment.
    pub code: String,
}

/// The app's callback page turns a provider sign-in into a session: the one-time code from the
/// fragment, with the handoff cookie of the browser that signed in (200 and the session, the
/// cookie cleared). A wrong, used or expired code, or another browser: 400, nothing used.
#[utoipa::path(post, path = "/api/auth/oidc/redeem", tag = "accounts", request_body = RedeemRequest,
    responses((status = 200, body = SessionResponse),
        (status = 400, description = "Invalid, used or expired code, or another browser"),
        (status = 403, description = "Account suspended"), (status = 422, description = "A body that is not the request")))]
pub async fn redeem(
    State(state): State<AppState>,
    headers: HeaderMap,
    ApiJson(request): ApiJson<RedeemRequest>,
) -> ApiResult<Response> {
    let invalid = || {
        ApiError::BadRequest(
            "This sign-in is invalid or has expired, or it belongs to another browser. Please sign in again.".into(),
        )
    };
    let binding = cookie(&headers, HANDOFF_COOKIE).filter(|binding| !binding.is_empty()).ok_or_else(invalid)?;
    let (code_hash, binding_hash) = (secrets::token_hash(request.code.trim()), secrets::token_hash(binding));
    let user_id =
        identities::take_handoff(&state.db, &code_hash, &binding_hash, Timestamp::now()).await?.ok_or_else(invalid)?;
    refuse_suspended(&state, user_id).await?;
    let user = users::user_by_id(&state.db, user_id).await?.ok_or_else(invalid)?;
    let mut response = ApiJson(start_session(&state, user).await?).into_response();
    response.headers_mut().insert(header::SET_COOKIE, handoff_cookie(&state, "", 0));
    Ok(response)
}
