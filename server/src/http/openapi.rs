//! The OpenAPI document (`/api/openapi.json`) and a self-contained docs page (`/api/docs`).
//!
//! The document drives tools (schemathesis in CI, the web app's generated types in
//! `web/src/lib/api-schema.d.ts`), so it must say everything a route can answer. A new
//! route's `#[utoipa::path]` declares:
//! - every path parameter with its type: `params(("id" = Uuid, Path, description = "…"))`;
//! - `request_body = T` (JSON) or `request_body(content = T, content_type = "multipart/form-data")`;
//! - `security(("bearer" = []))` when it needs a signed-in caller, or
//!   `security((), ("bearer" = []))` when a token is optional (a bad one still gets 401);
//! - its success answer with its body, and every status its own rules produce: 403, 404
//!   (a missing resource), 409, 422 (validation, and `ApiJson` bodies of the wrong shape),
//!   429 (rate limits), 503.
//!
//! [`ErrorResponses`] then adds what the extractors imply (401 for a bearer requirement, 400 and
//! 413 for a request body, 404 for path ids that are not UUIDs, 400 for query strings) and gives
//! every error answer the `ErrorBody` schema. [`ResponseFieldsPresent`] marks the fields of
//! response bodies required: an empty `Option` is sent as `null`, never left out. `ID_LINKS`
//! says where a new resource's id is used next (a route on a new `{id}` resource adds a line
//! to `ID_LINKS`). Add the handler to `paths(...)` below and run `server openapi > web/openapi.json`
//! (a test fails while the committed copy is stale).

use std::collections::BTreeSet;

use axum::{
    Router,
    extract::State,
    http::header,
    response::{Html, IntoResponse},
    routing::get,
};
use serde_json::{Value, json};
use utoipa::{
    Modify, OpenApi,
    openapi::{
        Content, Ref, RefOr, Response, Schema,
        path::{Operation, ParameterIn},
        schema::ArrayItems,
        security::{HttpAuthScheme, HttpBuilder, SecurityScheme},
    },
};

use crate::http::{
    admin, admin_reports, admin_users, alerts, auth, cancellations, contact, disputes, earnings, error::ErrorBody,
    extract::ApiJson, geocode, identities, invitations, me, messages, notification_settings, notifications, offers,
    oidc, payments, portfolio, price_increases, profiles, push, questions, realtime, receipts, release, reports,
    reschedules, reviews, security_headers, sign_in_handoff, site, state::AppState, task_photos, tasks, unsubscribe,
    verification,
};

#[derive(OpenApi)]
#[openapi(
    info(title = "Taskhub API", description = "The HTTP contract of the Taskhub marketplace. Errors: `{\"error\": {\"code\", \"message\", \"fields\"?}}`."),
    paths(
        auth::signup, auth::verify_email, auth::resend_verification, auth::login, auth::refresh, auth::logout,
        auth::recover, auth::reset_password,
        oidc::list_providers, oidc::start, oidc::callback, oidc::callback_form, oidc::complete_signup, oidc::confirm_signup, sign_in_handoff::redeem, identities::my_identities,
        identities::unlink_identity,
        me::me, me::update_profile, me::become_tasker, me::upload_my_avatar, me::upload_signup_avatar,
        profiles::public_profile, profiles::profile_reviews,
        realtime::issue_ticket,
        tasks::list_categories, tasks::browse_tasks, tasks::create_task, tasks::task_detail, tasks::update_task,
        tasks::cancel_task, tasks::my_tasks,
        offers::list_offers, offers::make_offer, offers::update_offer, offers::withdraw_offer, offers::my_offers,
        invitations::invite_tasker, questions::list_questions, questions::ask_question, questions::answer_question,
        notifications::list_notifications, notifications::mark_read, notifications::mark_all_read,
        alerts::list_alerts, alerts::create_alert, alerts::update_alert, alerts::delete_alert,
        geocode::geocode, contact::send_contact_message, site::site,
        payments::create_checkout_session, payments::verify_payment, payments::stripe_webhook, payments::task_payment,
        payments::payout_onboarding, earnings::payout_account, earnings::my_earnings, earnings::my_payments,
        release::request_payment, release::release_payment, cancellations::cancellation,
        cancellations::request_cancellation, cancellations::accept_cancellation, cancellations::decline_cancellation,
        price_increases::ask_increase, price_increases::list_increases, price_increases::approve_increase,
        price_increases::decline_increase, reschedules::propose_date, reschedules::list_reschedules,
        reschedules::accept_date, reschedules::decline_date, reschedules::my_task_changes,
        messages::list_messages, messages::send_message, messages::message_photo, messages::message_photo_thumb,
        portfolio::add_portfolio_item, portfolio::update_portfolio_item, portfolio::delete_portfolio_item,
        task_photos::add_task_photo, task_photos::remove_task_photo, reviews::list_reviews, reviews::write_review,
        disputes::open_dispute, disputes::task_dispute, admin::dispute_queue, admin::resolve_dispute,
        admin::parked_calls, admin::retry_call,
        reports::file_report, admin_reports::report_queue, admin_reports::resolve_report, admin_users::search_users,
        admin_users::user_record, admin_users::suspend_user, admin_users::reinstate_user, admin_users::audit_log_page,
        push::public_key, push::list_devices, push::add_device, push::remove_device, push::send_test,
        notification_settings::settings, notification_settings::save_settings, unsubscribe::one_click_unsubscribe,
        receipts::mark_messages_read, receipts::privacy, receipts::save_privacy,
        verification::start_phone_verification, verification::verify_phone, verification::start_identity_verification,
        verification::my_verification,
    ),
    // The live events are not an answer of any path; the web generates their types from here too.
    components(schemas(ErrorBody, domain::wire::events::LiveEvent)),
    modifiers(&BearerAuth, &ErrorResponses, &ResponseFieldsPresent),
)]
pub struct ApiDoc;

impl ApiDoc {
    /// The document as served: utoipa's, with the links between operations.
    pub fn document() -> Value {
        let mut document = serde_json::to_value(Self::openapi()).expect("the OpenAPI document serializes");
        add_id_links(&mut document);
        document
    }

    /// The document pretty-printed (what `server openapi` prints).
    pub fn json() -> String {
        let mut json = serde_json::to_string_pretty(&Self::document()).expect("the OpenAPI document serializes");
        json.push('\n');
        json
    }
}

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

/// See the module documentation: statuses implied by an operation's inputs, and the error schema.
struct ErrorResponses;

impl Modify for ErrorResponses {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        for item in openapi.paths.paths.values_mut() {
            let operations = [&mut item.get, &mut item.put, &mut item.post, &mut item.delete, &mut item.patch];
            for operation in operations.into_iter().flatten() {
                for status in implied_statuses(operation) {
                    operation.responses.responses.entry(status.to_string()).or_insert_with(|| Response::new("").into());
                }
                for (status, response) in &mut operation.responses.responses {
                    let RefOr::T(response) = response else { continue };
                    if !(status.starts_with('4') || status.starts_with('5')) {
                        continue;
                    }
                    if response.description.is_empty() {
                        response.description = error_description(status).to_owned();
                    }
                    if response.content.is_empty() {
                        let schema = Ref::from_schema_name("ErrorBody");
                        response.content.insert("application/json".to_owned(), Content::new(Some(schema)));
                    }
                }
            }
        }
    }
}

fn implied_statuses(operation: &Operation) -> Vec<u16> {
    let mut statuses = Vec::new();
    let parameters = operation.parameters.as_deref().unwrap_or_default();
    if parameters.iter().any(|parameter| parameter.parameter_in == ParameterIn::Path) {
        statuses.push(404);
    }
    if parameters.iter().any(|parameter| parameter.parameter_in == ParameterIn::Query) {
        statuses.push(400);
    }
    if operation.request_body.is_some() {
        statuses.extend([400, 413]);
    }
    let needs_bearer = operation
        .security
        .iter()
        .flatten()
        .any(|requirement| serde_json::to_value(requirement).is_ok_and(|value| value.get("bearer").is_some()));
    if needs_bearer {
        statuses.push(401);
    }
    statuses
}

fn error_description(status: &str) -> &'static str {
    match status {
        "400" => "Malformed request (body, query string or content type)",
        "401" => "Not signed in, or the session has expired or ended",
        "403" => "Not allowed for this caller",
        "404" => "Not found (or the id is not a UUID)",
        "409" => "Conflicts with the current state",
        "413" => "Request body too large",
        "422" => "Validation failed; `fields` names the fields",
        "429" => "Too many requests; see Retry-After",
        "503" => "Temporarily unavailable",
        _ => "Error",
    }
}

/// utoipa leaves `Option` fields out of `required`, which is right for request bodies (a field
/// may be omitted) but not for what the server answers: serde writes every field, `None` as
/// `null`. So in each schema that only responses use, every property is required, except the
/// few a response really leaves out (`skip_serializing_if`), listed in `MAY_BE_ABSENT`.
struct ResponseFieldsPresent;

const MAY_BE_ABSENT: &[(&str, &str)] = &[("ErrorDetail", "fields")];

impl Modify for ResponseFieldsPresent {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let document = serde_json::to_value(&*openapi).unwrap_or_default();
        let schemas = &document["components"]["schemas"];
        let mut answered = BTreeSet::new();
        let mut taken = BTreeSet::new();
        for item in document["paths"].as_object().into_iter().flat_map(|paths| paths.values()) {
            for operation in item.as_object().into_iter().flat_map(|item| item.values()) {
                collect_refs(&operation["responses"], schemas, &mut answered);
                collect_refs(&operation["requestBody"], schemas, &mut taken);
                collect_refs(&operation["parameters"], schemas, &mut taken);
            }
        }
        let Some(components) = openapi.components.as_mut() else { return };
        for name in answered.difference(&taken) {
            if let Some(RefOr::T(schema)) = components.schemas.get_mut(name) {
                require_all_properties(name, schema);
            }
        }
    }
}

/// Adds the names of the component schemas `value` refers to, directly or through other schemas.
fn collect_refs(value: &Value, schemas: &Value, found: &mut BTreeSet<String>) {
    match value {
        Value::Object(object) => {
            if let Some(name) = object.get("$ref").and_then(Value::as_str).and_then(|r| r.rsplit('/').next())
                && found.insert(name.to_owned())
            {
                collect_refs(&schemas[name], schemas, found);
            }
            object.values().for_each(|value| collect_refs(value, schemas, found));
        }
        Value::Array(items) => items.iter().for_each(|value| collect_refs(value, schemas, found)),
        _ => {}
    }
}

fn require_all_properties(name: &str, schema: &mut Schema) {
    match schema {
        Schema::Object(object) => {
            for (property, value) in &mut object.properties {
                if !object.required.contains(property) && !MAY_BE_ABSENT.contains(&(name, property.as_str())) {
                    object.required.push(property.clone());
                }
                // Generic bodies (`Page<OfferView>`) hold their items inline.
                if let RefOr::T(value) = value {
                    require_all_properties(name, value);
                }
            }
        }
        Schema::Array(array) => {
            if let ArrayItems::RefOrSchema(items) = &mut array.items
                && let RefOr::T(items) = items.as_mut()
            {
                require_all_properties(name, items);
            }
        }
        // `#[serde(flatten)]`: the struct's own fields are an inline object among the parts.
        Schema::AllOf(all_of) => {
            for part in &mut all_of.items {
                if let RefOr::T(part) = part {
                    require_all_properties(name, part);
                }
            }
        }
        _ => {}
    }
}

/// OpenAPI links from the operations that hand out ids to those that take them as `{id}`, so
/// tools (schemathesis's stateful phase) can post a task and then open, edit and cancel it.
/// (method, path, status, where the id is in its body, path prefix of the operations taking it)
const ID_LINKS: &[(&str, &str, &str, &str, &str)] = &[
    ("post", "/api/tasks", "201", "/id", "/api/tasks/{id}"),
    ("get", "/api/tasks", "200", "/items/0/id", "/api/tasks/{id}"),
    ("post", "/api/tasks/{id}/offers", "201", "/id", "/api/offers/{id}"),
    ("post", "/api/tasks/{id}/questions", "201", "/id", "/api/questions/{id}"),
    ("post", "/api/tasks/{id}/dispute", "201", "/id", "/api/admin/disputes/{id}"),
    ("post", "/api/tasks/{id}/price-increases", "201", "/id", "/api/price-increases/{id}"),
    ("post", "/api/tasks/{id}/reschedule", "201", "/id", "/api/reschedules/{id}"),
    ("get", "/api/notifications", "200", "/items/0/id", "/api/notifications/{id}"),
    ("post", "/api/reports", "201", "/id", "/api/admin/reports/{id}"),
    ("get", "/api/admin/users", "200", "/items/0/id", "/api/admin/users/{id}"),
    ("post", "/api/me/portfolio", "201", "/id", "/api/me/portfolio/{id}"),
];

/// Adds `ID_LINKS` to the document. On the JSON, because utoipa 5 writes a link's
/// `operationId` as `operation_id`, which is not OpenAPI.
fn add_id_links(document: &mut Value) {
    for &(method, path, status, pointer, prefix) in ID_LINKS {
        let targets: Vec<String> = document["paths"]
            .as_object()
            .into_iter()
            .flatten()
            .filter(|(target, _)| *target == prefix || target.starts_with(&format!("{prefix}/")))
            // Only operations whose one path parameter is the id (not e.g. `…/photos/{photo_id}`).
            .filter(|(target, _)| target.matches('{').count() == 1)
            .flat_map(|(_, item)| item.as_object().into_iter().flat_map(|item| item.values()))
            .filter_map(|operation| operation["operationId"].as_str().map(str::to_owned))
            .collect();
        let Some(response) = document
            .pointer_mut(&format!("/paths/{}/{method}/responses/{status}", path.replace('/', "~1")))
            .and_then(Value::as_object_mut)
        else {
            continue;
        };
        let links = response.entry("links").or_insert_with(|| json!({}));
        for target in targets {
            links[&target] =
                json!({ "operationId": target, "parameters": { "id": format!("$response.body#{pointer}") } });
        }
    }
}

pub fn router() -> Router<AppState> {
    Router::new().route("/openapi.json", get(|| async { ApiJson(ApiDoc::document()) })).route("/docs", get(docs_page))
}

/// Renders the OpenAPI document without any third-party script, so it works offline. Its inline
/// style and script are allowed by hash in the page's Content-Security-Policy.
async fn docs_page(State(state): State<AppState>) -> axum::response::Response {
    let policy = security_headers::policy_with_inline(&state.config, &[DOCS_SCRIPT], &[DOCS_STYLE]);
    let html = format!(
        r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Taskhub API</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>{DOCS_STYLE}</style></head>
<body><h1>Taskhub API</h1><p>Machine-readable: <a href="/api/openapi.json">/api/openapi.json</a></p><div id="ops">Loading…</div>
<script>{DOCS_SCRIPT}</script></body></html>"#
    );
    ([(header::CONTENT_SECURITY_POLICY, policy)], Html(html)).into_response()
}

const DOCS_STYLE: &str = r#"
body{font:15px/1.5 system-ui,sans-serif;max-width:960px;margin:2rem auto;padding:0 1rem;color:#1f2937}
h1{margin-bottom:0}code{background:#f3f4f6;padding:0 .25rem;border-radius:4px}
details{border:1px solid #e5e7eb;border-radius:8px;margin:.5rem 0;padding:.5rem 1rem}
summary{cursor:pointer;font-weight:600}.m{display:inline-block;min-width:4.5rem;text-transform:uppercase;color:#2563eb}
pre{background:#f9fafb;padding:.75rem;overflow:auto;border-radius:6px}
"#;

const DOCS_SCRIPT: &str = r#"
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
"#;
