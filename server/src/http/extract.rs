//! Request extractors whose rejections use the API's error shape, and the
//! extractors that say who is calling.

use std::net::{IpAddr, SocketAddr};

use axum::{
    extract::{ConnectInfo, FromRequest, FromRequestParts, OptionalFromRequestParts},
    http::{header, request::Parts},
    response::{IntoResponse, Response},
};
use serde::Serialize;
use uuid::Uuid;

use crate::{error::ApiError, state::AppState};

#[derive(Debug, Clone, Copy, Default, FromRequest)]
#[from_request(via(axum::Json), rejection(ApiError))]
pub struct ApiJson<T>(pub T);

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

/// A signed-in caller (valid access token). Missing or bad token → 401.
#[derive(Debug, Clone, Copy)]
pub struct AuthUser {
    pub id: Uuid,
}

impl FromRequestParts<AppState> for AuthUser {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        match bearer_token(parts) {
            None => Err(ApiError::Unauthorized("Please sign in to continue.".into())),
            Some(token) => state
                .access_tokens
                .verify(token)
                .map(|id| AuthUser { id })
                .ok_or_else(|| ApiError::Unauthorized("Your session has expired. Please log in again.".into())),
        }
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

/// A signed-in operator (`ADMIN_EMAILS`). Not signed in → 401, anyone else → 403.
#[derive(Debug, Clone, Copy)]
pub struct Operator {
    pub id: Uuid,
}

impl FromRequestParts<AppState> for Operator {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let caller = <AuthUser as FromRequestParts<AppState>>::from_request_parts(parts, state).await?;
        let user = crate::store::users::user_by_id(&state.db, caller.id).await?;
        match user {
            Some(user) if state.config.is_operator(&user.email) => Ok(Operator { id: caller.id }),
            _ => Err(ApiError::Forbidden("Only operators can do this".into())),
        }
    }
}

fn bearer_token(parts: &Parts) -> Option<&str> {
    let value = parts.headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then_some(token.trim()).filter(|token| !token.is_empty())
}

/// The caller's address: the socket peer, or the left-most `X-Forwarded-For`
/// entry when `TRUST_PROXY` is on (behind the load balancer of docker-compose).
#[derive(Debug, Clone, Copy)]
pub struct ClientIp(pub IpAddr);

impl FromRequestParts<AppState> for ClientIp {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        if state.config.trust_proxy {
            let forwarded = parts
                .headers
                .get("x-forwarded-for")
                .and_then(|value| value.to_str().ok())
                .and_then(|value| value.split(',').next())
                .and_then(|value| value.trim().parse().ok());
            if let Some(ip) = forwarded {
                return Ok(ClientIp(ip));
            }
        }
        let peer = parts.extensions.get::<ConnectInfo<SocketAddr>>().map(|info| info.0.ip());
        Ok(ClientIp(peer.unwrap_or(IpAddr::from([127, 0, 0, 1]))))
    }
}
