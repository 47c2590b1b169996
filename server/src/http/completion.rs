//! Writes run to completion whatever their client does. hyper drops a request's future when
//! its connection closes, so a client that gives up (a timeout, a closed tab) could stop a
//! handler between its commit and what must follow it: the live events, the notification's
//! push rows are in the commit, but a publish skipped that way never reaches open pages, and
//! nothing tells them to refetch. Requests that change state (any method but GET, HEAD,
//! OPTIONS and TRACE) therefore run in their own task; reads are simply dropped.

use axum::{
    extract::Request,
    middleware::Next,
    response::{IntoResponse, Response},
};
use tracing::Instrument;

use crate::http::error::ApiError;

pub async fn writes_run_to_completion(request: Request, next: Next) -> Response {
    if request.method().is_safe() {
        return next.run(request).await;
    }
    let write = tokio::spawn(next.run(request).in_current_span());
    match write.await {
        Ok(response) => response,
        Err(error) => ApiError::Internal(anyhow::anyhow!("request task failed: {error}")).into_response(),
    }
}
