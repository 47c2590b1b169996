//! Public reads stay readable while the database is away. The anonymous browse list, task
//! pages and categories keep their last good answer for 30 s; when the database cannot answer
//! (503: it restarted, failed over, or the pool is exhausted) the request gets that copy with an
//! `Age` header instead of the error. Signed-in requests are never served from it: their answers
//! carry what only they may see.

use std::{
    sync::Arc,
    time::{Duration, Instant},
};

use axum::{
    body::{Body, Bytes, to_bytes},
    extract::{Request, State},
    http::{HeaderMap, HeaderValue, Method, StatusCode, header},
    middleware::Next,
    response::Response,
};
use dashmap::DashMap;

/// The oldest copy served: a listing half a minute old is still useful, an older one misleads.
pub const MAX_AGE: Duration = Duration::from_secs(30);
/// Bounds the memory the copies take (keys include query strings, which anyone can vary).
const MAX_ENTRIES: usize = 2_000;
/// Larger answers are not kept (a browse page is a few tens of kB).
const MAX_BODY_BYTES: usize = 512 * 1024;

#[derive(Clone, Default)]
pub struct StaleReads {
    copies: Arc<DashMap<String, Copy>>,
}

struct Copy {
    stored_at: Instant,
    headers: HeaderMap,
    body: Bytes,
}

/// The reads that may be answered stale: `GET /api/categories`, `GET /api/tasks` (browse) and
/// `GET /api/tasks/{id}`, without credentials. Paths are as seen inside the `/api` nest.
fn cache_key(request: &Request) -> Option<String> {
    if request.method() != Method::GET || request.headers().contains_key(header::AUTHORIZATION) {
        return None;
    }
    let path = request.uri().path();
    let public = match path.strip_prefix("/tasks") {
        Some("") => true,
        Some(rest) => rest.strip_prefix('/').is_some_and(|id| !id.is_empty() && !id.contains('/')),
        None => path == "/categories",
    };
    public.then(|| request.uri().path_and_query().map(|whole| whole.as_str().to_owned()).unwrap_or_default())
}

pub async fn serve_stale_when_unavailable(State(stale): State<StaleReads>, request: Request, next: Next) -> Response {
    let Some(key) = cache_key(&request) else { return next.run(request).await };
    let response = next.run(request).await;
    match response.status() {
        StatusCode::OK => stale.keep(key, response).await,
        StatusCode::SERVICE_UNAVAILABLE => stale.copy_of(&key).unwrap_or(response),
        _ => response,
    }
}

impl StaleReads {
    async fn keep(&self, key: String, response: Response) -> Response {
        let (parts, body) = response.into_parts();
        let body = match to_bytes(body, MAX_BODY_BYTES).await {
            Ok(body) => body,
            // Too large to keep, or the body failed: answer what we have (nothing, for a failure).
            Err(_) => return Response::from_parts(parts, Body::empty()),
        };
        if self.copies.len() >= MAX_ENTRIES {
            self.copies.retain(|_, copy| copy.stored_at.elapsed() < MAX_AGE);
        }
        if self.copies.len() < MAX_ENTRIES || self.copies.contains_key(&key) {
            let headers = kept_headers(&parts.headers);
            self.copies.insert(key, Copy { stored_at: Instant::now(), headers, body: body.clone() });
        }
        Response::from_parts(parts, Body::from(body))
    }

    fn copy_of(&self, key: &str) -> Option<Response> {
        let copy = self.copies.get(key)?;
        let age = copy.stored_at.elapsed();
        if age > MAX_AGE {
            return None;
        }
        let mut response = Response::new(Body::from(copy.body.clone()));
        *response.headers_mut() = copy.headers.clone();
        response.headers_mut().insert(header::AGE, HeaderValue::from(age.as_secs()));
        tracing::info!(key, age_secs = age.as_secs(), "database unavailable; served a stale copy");
        Some(response)
    }
}

/// What describes the body; per-request headers (request id, cookies) are not replayed.
fn kept_headers(headers: &HeaderMap) -> HeaderMap {
    let mut kept = HeaderMap::new();
    for name in [header::CONTENT_TYPE, header::CACHE_CONTROL, header::ETAG, header::VARY] {
        if let Some(value) = headers.get(&name) {
            kept.insert(name, value.clone());
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    fn get(uri: &str) -> Request {
        Request::builder().uri(uri).body(Body::empty()).unwrap()
    }

    #[test]
    fn only_anonymous_public_reads_are_kept() {
        assert_eq!(cache_key(&get("/tasks?q=clean&sort=newest")).as_deref(), Some("/tasks?q=clean&sort=newest"));
        assert_eq!(cache_key(&get("/tasks/0192f3a4")).as_deref(), Some("/tasks/0192f3a4"));
        assert_eq!(cache_key(&get("/categories")).as_deref(), Some("/categories"));
        for private in ["/tasks/0192f3a4/offers", "/tasks/0192f3a4/messages", "/me", "/notifications", "/tasks/"] {
            assert_eq!(cache_key(&get(private)), None, "{private}");
        }
        let signed_in =
            Request::builder().uri("/tasks").header(header::AUTHORIZATION, "Bearer x").body(Body::empty()).unwrap();
        assert_eq!(cache_key(&signed_in), None);
        let post = Request::builder().method(Method::POST).uri("/tasks").body(Body::empty()).unwrap();
        assert_eq!(cache_key(&post), None);
    }
}
