//! Location suggestions through a Nominatim-compatible service: Australia only,
//! 5 results, queries of 2+ characters, answers cached, at most one upstream
//! request per second, and an empty list whenever anything goes wrong. While
//! the one upstream slot is taken the caller is told so at once (and answered
//! from the gazetteer) rather than queued behind a stream of other queries.

use std::{
    collections::HashMap,
    sync::Mutex,
    time::{Duration, Instant},
};

use model::gazetteer::Place;
use serde::Deserialize;

const DEFAULT_URL: &str = "https://nominatim.openstreetmap.org/search";
const USER_AGENT: &str =
    concat!("Taskhub/", env!("CARGO_PKG_VERSION"), " (local services marketplace; location suggestions)");
pub const MIN_QUERY_CHARS: usize = 2;
const MAX_QUERY_CHARS: usize = 200;
const RESULTS: usize = 5;
const CACHE_TTL: Duration = Duration::from_secs(60 * 60);
const CACHE_ENTRIES: usize = 10_000;
const UPSTREAM_INTERVAL: Duration = Duration::from_secs(1);
const UPSTREAM_TIMEOUT: Duration = Duration::from_secs(5);

#[derive(Deserialize)]
struct NominatimPlace {
    display_name: String,
    lat: String,
    lon: String,
}

/// What a search found: the service's places, or that its slot was taken.
#[derive(Debug, PartialEq)]
pub enum Lookup {
    Places(Vec<Place>),
    Busy,
}

pub struct Geocoder {
    client: reqwest::Client,
    search_url: String,
    cache: Mutex<HashMap<String, (Instant, Vec<Place>)>>,
    /// When the last upstream request went out; holding the lock is holding the turn.
    last_request: tokio::sync::Mutex<Option<Instant>>,
}

impl Geocoder {
    /// `base_url` is the service's root or its `/search` endpoint; `None` uses public Nominatim.
    pub fn new(base_url: Option<&str>) -> Self {
        let search_url = match base_url.map(|url| url.trim_end_matches('/')) {
            None | Some("") => DEFAULT_URL.to_owned(),
            Some(url) if url.ends_with("/search") => url.to_owned(),
            Some(url) => format!("{url}/search"),
        };
        let client =
            reqwest::Client::builder().user_agent(USER_AGENT).timeout(UPSTREAM_TIMEOUT).build().unwrap_or_default();
        Self { client, search_url, cache: Mutex::default(), last_request: tokio::sync::Mutex::new(None) }
    }

    pub async fn search(&self, query: &str) -> Lookup {
        let query = query.trim();
        if query.chars().count() < MIN_QUERY_CHARS || query.chars().count() > MAX_QUERY_CHARS {
            return Lookup::Places(Vec::new());
        }
        let key = query.to_lowercase();
        if let Some(places) = self.cached(&key) {
            return Lookup::Places(places);
        }
        let Ok(mut last) = self.last_request.try_lock() else {
            return Lookup::Busy;
        };
        if let Some(previous) = *last {
            tokio::time::sleep_until((previous + UPSTREAM_INTERVAL).into()).await;
        }
        *last = Some(Instant::now());
        Lookup::Places(match self.fetch(query).await {
            Ok(places) => {
                self.remember(key, places.clone());
                places
            }
            Err(error) => {
                tracing::warn!(error = %error, "geocoder request failed");
                Vec::new()
            }
        })
    }

    async fn fetch(&self, query: &str) -> anyhow::Result<Vec<Place>> {
        let limit = RESULTS.to_string();
        let response = self
            .client
            .get(&self.search_url)
            .query(&[("format", "json"), ("q", query), ("countrycodes", "au"), ("limit", limit.as_str())])
            .send()
            .await?
            .error_for_status()?;
        let places: Vec<NominatimPlace> = response.json().await?;
        Ok(places
            .into_iter()
            .filter_map(|place| {
                Some(Place {
                    display_name: place.display_name,
                    lat: place.lat.parse().ok()?,
                    lon: place.lon.parse().ok()?,
                })
            })
            .take(RESULTS)
            .collect())
    }

    fn cached(&self, key: &str) -> Option<Vec<Place>> {
        let cache = self.cache.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        cache.get(key).filter(|(at, _)| at.elapsed() < CACHE_TTL).map(|(_, places)| places.clone())
    }

    fn remember(&self, key: String, places: Vec<Place>) {
        let mut cache = self.cache.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if cache.len() >= CACHE_ENTRIES {
            cache.retain(|_, (at, _)| at.elapsed() < CACHE_TTL);
            if cache.len() >= CACHE_ENTRIES {
                cache.clear();
            }
        }
        cache.insert(key, (Instant::now(), places));
    }
}
