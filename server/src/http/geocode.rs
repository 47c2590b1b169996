//! `GET /api/geocode?q=`: location suggestions, from the Nominatim-compatible
//! service of `GEOCODER_URL` when set (see `geocoding`; from the gazetteer
//! while its one upstream slot is taken), else from the embedded Australian
//! gazetteer (see `gazetteer`), which needs no network. Limited per client.

use std::sync::Arc;

use axum::{Extension, Router, extract::State, routing::get};
use serde::Deserialize;

use domain::{
    config::Config,
    geocoding::{Geocoder, Lookup, MIN_QUERY_CHARS},
    rate_limit::{Limit, client_key},
};
use model::gazetteer::{self, Place};

use crate::http::{
    error::ApiResult,
    extract::{ApiJson, ApiQuery, ClientIp},
    state::AppState,
};

/// Suggestions one client may ask for a minute: typing a place asks a few times
/// (the app waits for a pause in typing); a stream of distinct queries is refused.
const LOOKUPS_PER_CLIENT: Limit = Limit::per_minute(60);

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

/// Up to 5 Australian places; `[]` for short queries or when the geocoder fails; 429 past 60 a minute per client.
#[utoipa::path(get, path = "/api/geocode", tag = "other", params(GeocodeQuery),
    responses((status = 200, body = [Place]), (status = 400), (status = 429)))]
pub async fn geocode(
    State(state): State<AppState>,
    ClientIp(client): ClientIp,
    Extension(suggestions): Extension<Arc<Suggestions>>,
    ApiQuery(query): ApiQuery<GeocodeQuery>,
) -> ApiResult<ApiJson<Vec<Place>>> {
    state.limiter.check(&format!("geocode:{}", client_key(client)), LOOKUPS_PER_CLIENT).await?;
    let q = query.q.trim();
    if q.chars().count() < MIN_QUERY_CHARS {
        return Ok(ApiJson(Vec::new()));
    }
    Ok(ApiJson(match suggestions.as_ref() {
        Suggestions::Geocoder(geocoder) => match geocoder.search(q).await {
            Lookup::Places(places) => places,
            Lookup::Busy => gazetteer::suggest(q),
        },
        Suggestions::Gazetteer => gazetteer::suggest(q),
    }))
}
