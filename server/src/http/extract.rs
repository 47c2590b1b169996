//! Request extractors whose rejections use the API's error shape, and the
//! extractors that say who is calling.

use std::net::{IpAddr, SocketAddr};

use axum::{
    body::Bytes,
    extract::{ConnectInfo, FromRequest, FromRequestParts, Multipart, OptionalFromRequestParts, Request},
    http::{HeaderMap, header, request::Parts},
    response::{IntoResponse, Response},
};
use serde::{Serialize, de::DeserializeOwned};
use uuid::Uuid;

use domain::marketplace;
use store::tasks::TaskRow;

use crate::http::{
    error::{ApiError, ApiResult, MISSING_JSON_CONTENT_TYPE},
    state::AppState,
};

/// A JSON body (`Content-Type: application/json`), as axum's `Json` reads it, except that a
/// string anywhere in it holding a control character (`model::text`) is refused with 422 on the
/// top-level field it is under, before the handler sees it.
#[derive(Debug, Clone, Copy, Default)]
pub struct ApiJson<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for ApiJson<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        if !is_json(request.headers()) {
            return Err(ApiError::BadRequest(MISSING_JSON_CONTENT_TYPE.into()));
        }
        let bytes = Bytes::from_request(request, state).await?;
        refuse_control_characters(&bytes)?;
        let axum::Json(value) = axum::Json::<T>::from_bytes(&bytes)?;
        Ok(ApiJson(value))
    }
}

/// A JSON body holding a refused control character in any string: 422 on its top-level field.
/// `ApiJson` checks every body it reads; a route that parses its JSON body itself (`RawBody`)
/// calls this first.
pub fn refuse_control_characters(body: &[u8]) -> Result<(), ApiError> {
    match field_with_control_character(body) {
        Some(field) => Err(ApiError::field(&field, model::text::CONTROL_CHARACTERS)),
        None => Ok(()),
    }
}

/// `application/json` or a `+json` type, as axum's `Json` accepts.
fn is_json(headers: &HeaderMap) -> bool {
    let Some(content_type) = headers.get(header::CONTENT_TYPE).and_then(|value| value.to_str().ok()) else {
        return false;
    };
    let essence = content_type.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
    essence == "application/json" || (essence.starts_with("application/") && essence.ends_with("+json"))
}

/// The top-level field (`body` when the JSON is no object) of the first string holding a refused
/// control character. Valid JSON carries one only as a `\u`, `\b` or `\f` escape or, for DEL
/// and the C1 controls (UTF-8 `C2 80`–`C2 9F`), as itself; a body with none of these (most, even
/// with line breaks or quotes in its text) is passed over without a second parse.
fn field_with_control_character(bytes: &[u8]) -> Option<String> {
    let may_hold_one = bytes.contains(&0x7f)
        || bytes.windows(2).any(|pair| matches!(pair, [b'\\', b'u' | b'b' | b'f'] | [0xc2, 0x80..=0x9f]));
    if !may_hold_one {
        return None;
    }
    fn holds(value: &serde_json::Value) -> bool {
        match value {
            serde_json::Value::String(text) => model::text::has_refused_control(text),
            serde_json::Value::Array(items) => items.iter().any(holds),
            serde_json::Value::Object(fields) => {
                fields.iter().any(|(name, value)| model::text::has_refused_control(name) || holds(value))
            }
            _ => false,
        }
    }
    // A body that does not parse is left to the usual rejection.
    match serde_json::from_slice::<serde_json::Value>(bytes).ok()? {
        serde_json::Value::Object(fields) => fields
            .iter()
            .find(|(name, value)| model::text::has_refused_control(name) || holds(value))
            .map(|(name, _)| name.clone()),
        other => holds(&other).then(|| "body".to_owned()),
    }
}

impl<T: Serialize> IntoResponse for ApiJson<T> {
    fn into_response(self) -> Response {
        axum::Json(self.0).into_response()
    }
}

#[derive(Debug, Clone, Copy, Default, FromRequestParts)]
#[from_request(via(axum::extract::Path), rejection(ApiError))]
pub struct ApiPath<T>(pub T);

#[derive(Debug, Clone, Copy, Default, FromRequestParts)]
#[from_request(via(axum::extract::Query), rejection(ApiError))]
pub struct ApiQuery<T>(pub T);

/// The raw body, for routes that parse it themselves; one over the size limit gets a 413 in
/// the API's error shape.
pub struct RawBody(pub Bytes);

impl<S: Send + Sync> FromRequest<S> for RawBody {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        Ok(RawBody(Bytes::from_request(request, state).await?))
    }
}

/// `Multipart`, refusing a body that is not `multipart/form-data` (or has no boundary) with a 400
/// in the API's error shape.
pub struct ApiMultipart(pub Multipart);

impl<S: Send + Sync> FromRequest<S> for ApiMultipart {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        Ok(ApiMultipart(Multipart::from_request(request, state).await?))
    }
}

/// A signed-in caller (valid access token of a session that has not ended). Missing or bad token → 401.
#[derive(Debug, Clone, Copy)]
pub struct AuthUser {
    pub id: Uuid,
    /// The session (refresh-token family) the access token names; None for tokens from before
    /// sessions were named.
    pub session_id: Option<Uuid>,
}

impl FromRequestParts<AppState> for AuthUser {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let expired = || ApiError::Unauthorized("Your session has expired. Please log in again.".into());
        let token = bearer_token(parts).ok_or_else(|| ApiError::Unauthorized("Please sign in to continue.".into()))?;
        let verified = state.access_tokens.verify(token).ok_or_else(expired)?;
        if let Some(session_id) = verified.session_id
            && state.sessions.is_revoked(&state.db, session_id).await?
        {
            return Err(ApiError::Unauthorized("Your session has ended. Please log in again.".into()));
        }
        Ok(AuthUser { id: verified.user_id, session_id: verified.session_id })
    }
}

/// `Option<AuthUser>`: visitors are welcome, but a token that is present must be valid.
impl OptionalFromRequestParts<AppState> for AuthUser {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Option<Self>, Self::Rejection> {
        if bearer_token(parts).is_none() {
            return Ok(None);
        }
        <AuthUser as FromRequestParts<AppState>>::from_request_parts(parts, state).await.map(Some)
    }
}

/// A signed-in operator (`ADMIN_EMAILS`, with that address verified). Not signed in → 401,
/// anyone else → 403.
#[derive(Debug, Clone, Copy)]
pub struct Operator {
    pub id: Uuid,
}

impl FromRequestParts<AppState> for Operator {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let caller = <AuthUser as FromRequestParts<AppState>>::from_request_parts(parts, state).await?;
        if !Operator::is(state, caller.id).await? {
            return Err(ApiError::Forbidden("Only operators can do this".into()));
        }
        Ok(Operator { id: caller.id })
    }
}

impl Operator {
    /// Whether `user_id` is an operator (for routes that also let other callers in).
    pub async fn is(state: &AppState, user_id: Uuid) -> Result<bool, ApiError> {
        let user = store::users::user_by_id(&state.db, user_id).await?;
        Ok(user.is_some_and(|user| Operator::user_is(&state.config, &user)))
    }

    /// Whether the (possibly signed-out) caller is an operator: they read removed content.
    pub async fn reading(state: &AppState, caller: Option<AuthUser>) -> Result<bool, ApiError> {
        match caller {
            Some(caller) => Operator::is(state, caller.id).await,
            None => Ok(false),
        }
    }

    /// Operator status needs the address proven: with `REQUIRE_EMAIL_VERIFICATION` off, anyone
    /// could otherwise sign up as an `ADMIN_EMAILS` address nobody had registered yet.
    pub fn user_is(config: &domain::config::Config, user: &store::users::UserRow) -> bool {
        user.email_verified && config.is_operator(&user.email)
    }
}

/// A signed-in caller whose email is confirmed (when the server requires it): posting tasks,
/// offers, questions and invitations needs one. Not signed in → 401, unconfirmed → 403
/// `email_not_confirmed`.
#[derive(Debug, Clone, Copy)]
pub struct VerifiedUser(pub AuthUser);

impl FromRequestParts<AppState> for VerifiedUser {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let caller = <AuthUser as FromRequestParts<AppState>>::from_request_parts(parts, state).await?;
        let user = store::users::user_by_id(&state.db, caller.id)
            .await?
            .ok_or_else(|| ApiError::Unauthorized("Authentication error. Please log in again.".into()))?;
        if state.config.require_email_verification && !user.email_verified {
            return Err(ApiError::EmailNotConfirmed);
        }
        Ok(VerifiedUser(caller))
    }
}

/// The task named by the route's only path parameter (`/tasks/{id}/…`); no such task → 404.
#[derive(Debug)]
pub struct TaskFromPath(pub TaskRow);

impl FromRequestParts<AppState> for TaskFromPath {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let ApiPath(id) = ApiPath::<Uuid>::from_request_parts(parts, state).await?;
        Ok(TaskFromPath(task_or_404(state, id).await?))
    }
}

/// A task named elsewhere than the path (by an offer, a dispute, a body), or read again after
/// a change; no such task → 404.
pub async fn task_or_404(state: &AppState, id: Uuid) -> ApiResult<TaskRow> {
    Ok(marketplace::tasks::task_or_not_found(state, id).await?)
}

fn bearer_token(parts: &Parts) -> Option<&str> {
    let value = parts.headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then_some(token.trim()).filter(|token| !token.is_empty())
}

/// The caller's address: the socket peer, or with `TRUST_PROXY` the right-most
/// `X-Forwarded-For` entry our own proxies did not write (`TRUSTED_PROXY_COUNT`
/// from the right; entries left of it are whatever the client sent).
#[derive(Debug, Clone, Copy)]
pub struct ClientIp(pub IpAddr);

impl FromRequestParts<AppState> for ClientIp {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        if state.config.trust_proxy
            && let Some(ip) = forwarded_client(&parts.headers, state.config.trusted_proxy_count)
        {
            return Ok(ClientIp(ip));
        }
        let peer = parts.extensions.get::<ConnectInfo<SocketAddr>>().map(|info| info.0.ip());
        Ok(ClientIp(peer.unwrap_or(IpAddr::from([127, 0, 0, 1]))))
    }
}

/// The entry `trusted_proxies` places from the right of all `X-Forwarded-For`
/// headers (the left-most when the chain is shorter: every entry came from a proxy).
fn forwarded_client(headers: &HeaderMap, trusted_proxies: usize) -> Option<IpAddr> {
    let hops: Vec<&str> = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .map(str::trim)
        .filter(|hop| !hop.is_empty())
        .collect();
    let index = hops.len().saturating_sub(trusted_proxies.max(1));
    parse_hop(hops.get(index)?)
}

/// `203.0.113.1`, `2001:db8::1`, or either with a port (`[2001:db8::1]:443`).
fn parse_hop(hop: &str) -> Option<IpAddr> {
    hop.parse::<IpAddr>().ok().or_else(|| hop.parse::<SocketAddr>().ok().map(|addr| addr.ip()))
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;

    use super::*;

    fn headers(values: &[&str]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for value in values {
            headers.append("x-forwarded-for", HeaderValue::from_str(value).unwrap());
        }
        headers
    }

    #[test]
    fn the_client_is_the_right_most_hop_our_proxies_did_not_write() {
        let ip = |text: &str| Some(text.parse::<IpAddr>().unwrap());
        // One proxy: it appended what it saw; anything left of that is the client's own claim.
        assert_eq!(forwarded_client(&headers(&["1.1.1.1, 203.0.113.5"]), 1), ip("203.0.113.5"));
        assert_eq!(forwarded_client(&headers(&["1.1.1.1", "203.0.113.5"]), 1), ip("203.0.113.5"));
        // Two proxies: skip the inner one's entry.
        assert_eq!(forwarded_client(&headers(&["1.1.1.1, 203.0.113.5, 10.0.0.2"]), 2), ip("203.0.113.5"));
        assert_eq!(forwarded_client(&headers(&["203.0.113.5"]), 2), ip("203.0.113.5"));
        assert_eq!(forwarded_client(&headers(&["[2001:db8::1]:443"]), 1), ip("2001:db8::1"));
        assert_eq!(forwarded_client(&headers(&["garbage"]), 1), None);
        assert_eq!(forwarded_client(&headers(&[]), 1), None);
    }
}
