//! The sandbox identity provider's page (`/sandbox/identity/{id}`): what Stripe Identity's hosted
//! document-and-selfie check is in production. Verify marks the identity verified (and sends the
//! transfers that waited for it), Fail records a failed check; either returns the person to their
//! settings. The address itself is the credential, as a Stripe session URL is.

use axum::{
    Form, Router,
    extract::State,
    http::{StatusCode, header},
    response::{Html, IntoResponse, Redirect, Response},
    routing::get,
};
use serde::Deserialize;

use domain::verification::identity::{self, RETURN_PATH};
use store::verification::{self, IdentitySessionRow, IdentityStatus};

use crate::http::{
    error::{ApiError, ApiResult},
    extract::ApiPath,
    security_headers,
    state::AppState,
};

pub fn router() -> Router<AppState> {
    Router::new().route("/sandbox/identity/{session_ref}", get(identity_page).post(submit))
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct DecisionForm {
    action: String,
}

async fn identity_page(State(state): State<AppState>, ApiPath(session_ref): ApiPath<String>) -> ApiResult<Response> {
    let session = find(&state, &session_ref).await?;
    Ok(render(&state, &session))
}

async fn submit(
    State(state): State<AppState>,
    ApiPath(session_ref): ApiPath<String>,
    Form(form): Form<DecisionForm>,
) -> ApiResult<Response> {
    let session = find(&state, &session_ref).await?;
    let status = match form.action.as_str() {
        "verify" => IdentityStatus::Verified,
        "fail" => IdentityStatus::Failed,
        _ => return Err(ApiError::BadRequest("Choose Verify or Fail".into())),
    };
    identity::record(&state, &session, status).await?;
    Ok(Redirect::to(&state.link(RETURN_PATH)).into_response())
}

async fn find(state: &AppState, session_ref: &str) -> ApiResult<IdentitySessionRow> {
    let session = verification::identity_session_by_ref(&state.db, session_ref).await?;
    session.filter(|session| session.provider == "sandbox").ok_or_else(|| ApiError::not_found("Verification session"))
}

fn render(state: &AppState, session: &IdentitySessionRow) -> Response {
    let body = match session.status {
        IdentityStatus::Pending => r#"<p>In production, Stripe Identity asks for a photo of an identity document and a
selfie here, and checks that they match. Only the outcome is kept by Taskhub.</p>
<form method="post">
<button class="verify" type="submit" name="action" value="verify">Verify</button>
<button class="fail" type="submit" name="action" value="fail">Fail</button>
</form>"#
            .to_owned(),
        IdentityStatus::Verified => r#"<p role="status">This verification succeeded.</p>"#.to_owned(),
        IdentityStatus::Failed => {
            r#"<p role="status">This verification failed. Start a new one from your settings.</p>"#.to_owned()
        }
    };
    let html = format!(
        r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Verify your identity · Taskhub sandbox</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>{IDENTITY_STYLE}</style></head>
<body><main>
<span class="badge">Sandbox · no document is collected</span>
<h1>Verify your identity</h1>
{body}
<p><a href="{back}">Back to Taskhub</a></p>
</main></body></html>"#,
        back = state.link("/settings"),
    );
    let policy = security_headers::policy_with_inline(&state.config, &[], &[IDENTITY_STYLE]);
    (StatusCode::OK, [(header::CONTENT_SECURITY_POLICY, policy)], Html(html)).into_response()
}

const IDENTITY_STYLE: &str = "
body{font:16px/1.5 system-ui,sans-serif;background:#f3f4f6;color:#111827;margin:0}
main{max-width:440px;margin:3rem auto;background:#fff;border-radius:12px;padding:2rem;box-shadow:0 1px 3px #0002}
.badge{display:inline-block;background:#fef3c7;color:#92400e;border-radius:999px;padding:0 .6rem;font-size:.8rem}
button{margin-top:1rem;width:100%;padding:.7rem;border:0;border-radius:6px;font:inherit;font-weight:600;cursor:pointer}
.verify{background:#2563eb;color:#fff}.fail{background:#e5e7eb;color:#111827}a{color:#1d4ed8}
";
