//! Facts about this deployment the app shows to everyone: how to reach support, where we are social.

use axum::{Router, extract::State, routing::get};

use domain::wire::site::Site;

use crate::http::{extract::ApiJson, state::AppState};

/// Spec §9: support hours.
const SUPPORT_HOURS: &str = "Monday-Friday 9am-6pm EST";

pub fn router() -> Router<AppState> {
    Router::new().route("/site", get(site))
}

/// Contact addresses, phone and social links from configuration (public).
#[utoipa::path(get, path = "/api/site", tag = "other", responses((status = 200, body = Site)))]
pub async fn site(State(state): State<AppState>) -> ApiJson<Site> {
    let config = &state.config;
    ApiJson(Site {
        support_email: config.support_email.clone(),
        business_email: config.business_email.clone(),
        support_phone: config.support_phone.clone(),
        support_hours: SUPPORT_HOURS,
        social: config.social_links.clone(),
    })
}
