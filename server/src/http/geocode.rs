//! `GET /api/geocode?q=`: location suggestions, from the Nominatim-compatible
//! service of `GEOCODER_URL` when set (see `geocoding`), else from the
//! embedded Australian gazetteer (see `gazetteer`), which needs no network.

use std::sync::Arc;

use axum::{Extension, Router, routing::get};
use serde::Deserialize;

use crate::{
    config::Config,
    gazetteer,
    geocoding::{Geocoder, MIN_QUERY_CHARS, Place},
    http::extract::{ApiJson, ApiQuery},
    state::AppState,
};

/// Where suggestions come from.
pub enum Suggestions {
    Gazetteer,
    Geocoder(Geocoder),
}

pub fn router(config: &Config) -> Router<AppState> {
    let suggestions = match config.geocoder_url.as_deref() {
        Some(url) => Suggestions::Geocoder(Geocoder::new(Some(url))),
        None => Suggestions::Gazetteer,
    };
    Router::new().route("/geocode", get(geocode)).layer(Extension(Arc::new(suggestions)))
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
    Extension(suggestions): Extension<Arc<Suggestions>>,
    ApiQuery(query): ApiQuery<GeocodeQuery>,
) -> ApiJson<Vec<Place>> {
    let q = query.q.trim();
    match suggestions.as_ref() {
        Suggestions::Geocoder(geocoder) => ApiJson(geocoder.search(q).await),
        Suggestions::Gazetteer if q.chars().count() < MIN_QUERY_CHARS => ApiJson(Vec::new()),
        Suggestions::Gazetteer => ApiJson(gazetteer::suggest(q)),
    }
}
