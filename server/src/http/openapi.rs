//! The OpenAPI document (`/api/openapi.json`) and a self-contained docs page (`/api/docs`).

use axum::{Router, response::Html, routing::get};
use utoipa::{
    Modify, OpenApi,
    openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme},
};

use crate::{
    http::{
        admin, auth, contact, disputes, extract::ApiJson, geocode, lifecycle, me, messages, notifications, offers,
        payments, profiles, questions, realtime, reviews, site, tasks,
    },
    state::AppState,
};

#[derive(OpenApi)]
#[openapi(
    info(title = "Taskhub API", description = "The HTTP contract of the Taskhub marketplace. Errors: `{\"error\": {\"code\", \"message\", \"fields\"?}}`."),
    paths(
        auth::signup, auth::verify_email, auth::resend_verification, auth::login, auth::refresh, auth::logout,
        auth::recover, auth::reset_password,
        me::me, me::update_profile, me::become_tasker, me::upload_my_avatar, me::upload_signup_avatar,
        profiles::public_profile,
        realtime::issue_ticket,
        tasks::list_categories, tasks::browse_tasks, tasks::create_task, tasks::task_detail, tasks::update_task,
        tasks::cancel_task, tasks::my_tasks,
        offers::list_offers, offers::make_offer, offers::update_offer, offers::withdraw_offer, offers::my_offers,
        questions::list_questions, questions::ask_question, questions::answer_question,
        notifications::list_notifications, notifications::mark_read, notifications::mark_all_read,
        geocode::geocode, contact::send_contact_message, site::site,
        payments::create_checkout_session, payments::verify_payment, payments::stripe_webhook, payments::task_payment,
        payments::payout_onboarding, lifecycle::request_payment, lifecycle::release_payment, lifecycle::cancellation,
        lifecycle::request_cancellation, lifecycle::accept_cancellation, lifecycle::decline_cancellation,
        messages::list_messages, messages::send_message, reviews::list_reviews, reviews::write_review,
        disputes::open_dispute, disputes::task_dispute, admin::dispute_queue, admin::resolve_dispute,
        admin::parked_calls, admin::retry_call,
    ),
    modifiers(&BearerAuth),
)]
pub struct ApiDoc;

struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).bearer_format("JWT").build()),
        );
    }
}

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/openapi.json", get(|| async { ApiJson(ApiDoc::openapi()) }))
        .route("/docs", get(|| async { Html(DOCS_PAGE) }))
}

/// Renders the OpenAPI document without any third-party script, so it works offline.
const DOCS_PAGE: &str = r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Taskhub API</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:15px/1.5 system-ui,sans-serif;max-width:960px;margin:2rem auto;padding:0 1rem;color:#1f2937}
h1{margin-bottom:0}code{background:#f3f4f6;padding:0 .25rem;border-radius:4px}
details{border:1px solid #e5e7eb;border-radius:8px;margin:.5rem 0;padding:.5rem 1rem}
summary{cursor:pointer;font-weight:600}.m{display:inline-block;min-width:4.5rem;text-transform:uppercase;color:#2563eb}
pre{background:#f9fafb;padding:.75rem;overflow:auto;border-radius:6px}
</style></head>
<body><h1>Taskhub API</h1><p>Machine-readable: <a href="/api/openapi.json">/api/openapi.json</a></p><div id="ops">Loading…</div>
<script>
fetch('/api/openapi.json').then(r => r.json()).then(doc => {
  const ops = document.getElementById('ops'); ops.textContent = '';
  for (const [path, item] of Object.entries(doc.paths)) for (const [method, op] of Object.entries(item)) {
    const d = document.createElement('details'); const s = document.createElement('summary');
    s.innerHTML = '<span class="m"></span><code></code> '; s.querySelector('.m').textContent = method;
    s.querySelector('code').textContent = path; s.append(op.summary || op.description || '');
    const pre = document.createElement('pre'); pre.textContent = JSON.stringify(op, null, 2);
    d.append(s, pre); ops.append(d);
  }
  const schemas = document.createElement('details'); schemas.innerHTML = '<summary>Schemas</summary>';
  const pre = document.createElement('pre'); pre.textContent = JSON.stringify((doc.components||{}).schemas||{}, null, 2);
  schemas.append(pre); ops.append(schemas);
});
</script></body></html>"#;
