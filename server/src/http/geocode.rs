//! `GET /api/geocode?q=`: location suggestions (see `geocoding`).

use std::sync::Arc;

use axum::{Extension, Router, routing::get};
use serde::Deserialize;

use crate::{
    config::Config,
    geocoding::{Geocoder, Place},
    http::extract::{ApiJson, ApiQuery},
    state::AppState,
};

pub fn router(config: &Config) -> Router<AppState> {
    let geocoder = Arc::new(Geocoder::new(config.geocoder_url.as_deref()));
    Router::new().route("/geocode", get(geocode)).layer(Extension(geocoder))
}

#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[serde(default)]
#[into_params(parameter_in = Query)]
pub struct GeocodeQuery {
    /// At least 2 characters, else the answer is `[]`.
    q: String,
}

/// Up to 5 Australian places; `[]` for short queries or when the geocoder fails.
#[utoipa::path(get, path = "/api/geocode", tag = "other", params(GeocodeQuery), responses((status = 200, body = [Place])))]
pub async fn geocode(
    Extension(geocoder): Extension<Arc<Geocoder>>,
    ApiQuery(query): ApiQuery<GeocodeQuery>,
) -> ApiJson<Vec<Place>> {
    ApiJson(geocoder.search(&query.q).await)
}
