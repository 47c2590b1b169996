//! HTTP routes: each resource module exposes `router()`, merged here.

pub mod admin;
pub mod admin_reports;
pub mod admin_users;
pub mod alerts;
pub mod auth;
pub mod cancellations;
mod completion;
pub mod contact;
pub mod crawlers;
pub mod dev_mailbox;
pub mod disputes;
pub mod earnings;
pub mod error;
pub mod error_statuses;
pub mod extract;
pub mod geocode;
pub mod health;
pub mod identities;
pub mod identity_sandbox;
pub mod invitations;
pub mod me;
pub mod messages;
pub mod notification_settings;
pub mod notifications;
pub mod offers;
pub mod oidc;
pub mod openapi;
pub mod payments;
pub mod payments_sandbox;
pub mod payouts_sandbox;
pub mod portfolio;
pub mod price_increases;
pub mod profiles;
pub mod push;
pub mod questions;
pub mod realtime;
pub mod receipts;
pub mod release;
pub mod reports;
pub mod reschedules;
pub mod reviews;
pub mod sandbox_oidc;
pub mod security_headers;
pub mod shared_reads;
pub mod sign_in_handoff;
pub mod site;
mod stale_reads;
pub mod state;
pub mod task_photos;
pub mod tasks;
pub mod unsubscribe;
pub mod uploads;
pub mod verification;
pub mod web;

use axum::{
    Router,
    http::{HeaderName, HeaderValue, header},
    middleware,
};
use tower_http::{
    compression::{CompressionLayer, DefaultPredicate, Predicate, predicate::SizeAbove},
    request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer},
    set_header::SetResponseHeaderLayer,
    trace::TraceLayer,
};

use crate::{
    http::{error::ApiError, state::AppState},
    observability,
};

const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");
/// Default cap on request bodies; upload routes raise it for themselves.
const MAX_BODY_BYTES: usize = 1024 * 1024;
/// Smaller responses gain too little from compression to pay for it.
const MIN_COMPRESSED_BYTES: u16 = 1024;

pub fn router(state: AppState) -> Router {
    let api = Router::new()
        .merge(auth::router())
        .merge(oidc::router())
        .merge(sign_in_handoff::router())
        .merge(identities::router())
        .merge(me::router())
        .merge(profiles::router())
        .merge(realtime::api_router())
        .merge(tasks::router())
        .merge(offers::router())
        .merge(invitations::router())
        .merge(questions::router())
        .merge(notifications::router())
        .merge(push::router())
        .merge(notification_settings::router())
        .merge(unsubscribe::api_router())
        .merge(alerts::router())
        .merge(geocode::router(&state.config))
        .merge(contact::router())
        .merge(site::router())
        .merge(payments::router())
        .merge(earnings::router())
        .merge(release::router())
        .merge(cancellations::router())
        .merge(price_increases::router())
        .merge(reschedules::router())
        .merge(disputes::router())
        .merge(admin::router())
        .merge(admin_reports::router())
        .merge(admin_users::router())
        .merge(messages::router())
        .merge(receipts::router())
        .merge(reviews::router())
        .merge(reports::router())
        .merge(portfolio::router())
        .merge(task_photos::router())
        .merge(verification::router())
        .merge(openapi::router())
        .fallback(|| async { ApiError::NotFound("No such API route".into()) })
        .method_not_allowed_fallback(|| async { ApiError::MethodNotAllowed("Method not allowed on this route".into()) })
        .layer(middleware::from_fn_with_state(
            stale_reads::StaleReads::default(),
            stale_reads::serve_stale_when_unavailable,
        ));

    let mut app = Router::new()
        .nest("/api", api)
        .merge(health::router())
        .merge(unsubscribe::page_router())
        .merge(crawlers::router())
        .merge(web::media_router());
    if state.config.sandboxes_allowed() {
        app = app.merge(payments_sandbox::router()).merge(payouts_sandbox::router()).merge(identity_sandbox::router());
    }
    if state.config.dev_mode {
        app = app.merge(dev_mailbox::router()).merge(sandbox_oidc::router());
    }
    // Brotli or gzip for text (JSON included) unless the body is already encoded (precompressed
    // web files) or is an image; the WebSocket upgrade is merged after, uncompressed.
    let app = app
        .merge(web::spa(&state.config.web_dist))
        .layer(CompressionLayer::new().compress_when(DefaultPredicate::new().and(SizeAbove::new(MIN_COMPRESSED_BYTES))))
        .merge(realtime::socket_router());
    security_headers::apply(app, &state.config)
        .layer(axum::extract::DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(middleware::from_fn(completion::writes_run_to_completion))
        .layer(middleware::from_fn(observability::track_requests))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::REFERRER_POLICY,
            HeaderValue::from_static("strict-origin-when-cross-origin"),
        ))
        .layer(PropagateRequestIdLayer::new(REQUEST_ID))
        .layer(TraceLayer::new_for_http().make_span_with(|request: &axum::http::Request<_>| {
            let request_id = request.headers().get(REQUEST_ID).and_then(|value| value.to_str().ok()).unwrap_or("-");
            tracing::info_span!("request", method = %request.method(), uri = %request.uri().path(), request_id)
        }))
        .layer(SetRequestIdLayer::new(REQUEST_ID, MakeRequestUuid))
        .with_state(state)
}
