//! Unsubscribing from notification email without signing in: the one-click
//! `POST /api/unsubscribe?token=` that mail clients call (RFC 8058), and the
//! page the mail's visible link opens (`GET /unsubscribe?token=`), which asks
//! before it acts so that link scanners fetching it change nothing.

use axum::{
    Router,
    extract::State,
    response::Html,
    routing::{get, post},
};
use serde::Deserialize;
use uuid::Uuid;

use domain::wire::notifications::Unsubscribed;
use store::{db::Timestamp, notification_preferences};

use crate::http::{
    error::{ApiError, ApiResult},
    extract::{ApiJson, ApiQuery},
    state::AppState,
};

const INVALID_LINK: &str = "This unsubscribe link is not valid or has expired (links work for 60 days). \
     Change your email settings under Settings → Notifications.";

pub fn api_router() -> Router<AppState> {
    Router::new().route("/unsubscribe", post(one_click_unsubscribe))
}

pub fn page_router() -> Router<AppState> {
    Router::new().route("/unsubscribe", get(confirm_page).post(unsubscribe_page))
}

#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[serde(default)]
#[into_params(parameter_in = Query)]
pub struct TokenQuery {
    /// The token from the mail's unsubscribe link.
    token: String,
}

fn user_of(state: &AppState, token: &str) -> Option<Uuid> {
    state.delivery.unsubscribe.verify(token, Timestamp::now())
}

/// Turns off every kind of notification email for the token's user; a bad or expired (60 days)
/// token is 400.
#[utoipa::path(post, path = "/api/unsubscribe", tag = "push", params(TokenQuery),
    responses((status = 200, body = Unsubscribed), (status = 400)))]
pub async fn one_click_unsubscribe(
    State(state): State<AppState>,
    ApiQuery(query): ApiQuery<TokenQuery>,
) -> ApiResult<ApiJson<Unsubscribed>> {
    let user_id = user_of(&state, &query.token).ok_or_else(|| ApiError::BadRequest(INVALID_LINK.into()))?;
    notification_preferences::turn_off_email(&state.db, user_id).await?;
    Ok(ApiJson(Unsubscribed { message: "You will no longer receive notification emails from Taskhub.".into() }))
}

async fn confirm_page(State(state): State<AppState>, ApiQuery(query): ApiQuery<TokenQuery>) -> Html<String> {
    match user_of(&state, &query.token) {
        // The token is URL-safe base64 once verified, so it is safe inside the attribute.
        Some(_) => page(&format!(
            "<h1>Unsubscribe from Taskhub emails?</h1>\
             <p>You will stop receiving emails about new offers, messages and payments. \
             In-app and push notifications are not affected.</p>\
             <form method=\"post\" action=\"/unsubscribe?token={}\"><button type=\"submit\">Unsubscribe</button></form>",
            query.token.trim()
        )),
        None => page(&format!("<h1>Link not valid</h1><p>{INVALID_LINK}</p>")),
    }
}

async fn unsubscribe_page(
    State(state): State<AppState>,
    ApiQuery(query): ApiQuery<TokenQuery>,
) -> ApiResult<Html<String>> {
    let Some(user_id) = user_of(&state, &query.token) else {
        return Ok(page(&format!("<h1>Link not valid</h1><p>{INVALID_LINK}</p>")));
    };
    notification_preferences::turn_off_email(&state.db, user_id).await?;
    Ok(page(
        "<h1>You are unsubscribed</h1><p>You will no longer receive notification emails from Taskhub. \
         You can turn them back on under Settings → Notifications.</p><p><a href=\"/\">Go to Taskhub</a></p>",
    ))
}

fn page(body: &str) -> Html<String> {
    Html(format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Taskhub email settings</title>\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <style>body{{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1f2937}}\
         button{{font:inherit;padding:.5rem 1rem;border-radius:6px;border:0;background:#2563eb;color:#fff;cursor:pointer}}</style>\
         </head><body><main>{body}</main></body></html>"
    ))
}
