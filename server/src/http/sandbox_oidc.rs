//! The sandbox identity provider's endpoints (dev mode only; `signin::sandbox` holds its
//! logic): discovery, keys, the authorization page where you pick or type who you are, and
//! the token endpoint.

use std::collections::HashMap;

use axum::{
    Router,
    extract::State,
    http::{StatusCode, header},
    response::{Html, IntoResponse, Redirect, Response},
    routing::{get, post},
};
use serde_json::json;
use url::form_urlencoded;

use domain::signin::sandbox::{AuthorizeParams, SandboxIssuer, SandboxPerson, TokenForm};
use store::identities;

use crate::http::{
    error::{ApiError, ApiResult},
    extract::{ApiQuery, RawBody},
    security_headers,
    state::AppState,
    web::escape,
};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/sandbox/oidc/.well-known/openid-configuration", get(discovery))
        .route("/sandbox/oidc/jwks", get(jwks))
        .route("/sandbox/oidc/authorize", get(authorize_page).post(authorize))
        .route("/sandbox/oidc/token", post(token))
}

fn issuer(state: &AppState) -> ApiResult<&SandboxIssuer> {
    state.signin.sandbox_issuer.as_deref().ok_or_else(|| ApiError::NotFound("The sandbox provider is off.".into()))
}

async fn discovery(State(state): State<AppState>) -> ApiResult<Response> {
    Ok(axum::Json(issuer(&state)?.discovery()).into_response())
}

async fn jwks(State(state): State<AppState>) -> ApiResult<Response> {
    Ok(axum::Json(issuer(&state)?.jwks()).into_response())
}

async fn authorize_page(
    State(state): State<AppState>,
    ApiQuery(params): ApiQuery<AuthorizeParams>,
) -> ApiResult<Response> {
    let issuer = issuer(&state)?;
    if let Err(message) = issuer.check_authorize(&params) {
        return Err(ApiError::BadRequest(message.into()));
    }
    Ok(render(&state, &params, StatusCode::OK, None).await)
}

async fn authorize(State(state): State<AppState>, RawBody(body): RawBody) -> ApiResult<Response> {
    let issuer = issuer(&state)?;
    let form: HashMap<String, String> = form_urlencoded::parse(&body).into_owned().collect();
    let field = |name: &str| form.get(name).cloned().unwrap_or_default();
    let params = AuthorizeParams {
        response_type: field("response_type"),
        client_id: field("client_id"),
        redirect_uri: field("redirect_uri"),
        scope: field("scope"),
        state: field("state"),
        nonce: field("nonce"),
        code_challenge: field("code_challenge"),
        code_challenge_method: field("code_challenge_method"),
    };
    if let Err(message) = issuer.check_authorize(&params) {
        return Err(ApiError::BadRequest(message.into()));
    }
    if field("action") == "cancel" {
        return Ok(Redirect::to(&issuer.deny(&params)?).into_response());
    }
    let email = field("email").trim().to_owned();
    let name = field("name").trim().to_owned();
    if !email.contains('@') || email.len() > 254 || name.chars().count() > 100 {
        let message = "Enter an email address (and a name of at most 100 characters).";
        return Ok(render(&state, &params, StatusCode::UNPROCESSABLE_ENTITY, Some(message)).await);
    }
    let person = SandboxPerson { email: &email, name: &name, email_verified: form.contains_key("email_verified") };
    Ok(Redirect::to(&issuer.approve(&params, &person)?).into_response())
}

async fn token(State(state): State<AppState>, RawBody(body): RawBody) -> ApiResult<Response> {
    let issuer = issuer(&state)?;
    let mut form = TokenForm::default();
    for (key, value) in form_urlencoded::parse(&body) {
        let value = value.into_owned();
        match key.as_ref() {
            "grant_type" => form.grant_type = value,
            "code" => form.code = value,
            "redirect_uri" => form.redirect_uri = value,
            "code_verifier" => form.code_verifier = value,
            "client_id" => form.client_id = value,
            "client_secret" => form.client_secret = value,
            _ => {}
        }
    }
    let no_store = [(header::CACHE_CONTROL, "no-store")];
    Ok(match issuer.redeem(&form) {
        Ok(tokens) => (no_store, axum::Json(tokens)).into_response(),
        Err(refusal) => (
            StatusCode::BAD_REQUEST,
            no_store,
            axum::Json(json!({ "error": refusal.error, "error_description": refusal.description })),
        )
            .into_response(),
    })
}

async fn render(state: &AppState, params: &AuthorizeParams, status: StatusCode, error: Option<&str>) -> Response {
    let recent = identities::recent_emails(&state.db, 8).await.unwrap_or_default();
    let hidden: String = [
        ("response_type", &params.response_type),
        ("client_id", &params.client_id),
        ("redirect_uri", &params.redirect_uri),
        ("scope", &params.scope),
        ("state", &params.state),
        ("nonce", &params.nonce),
        ("code_challenge", &params.code_challenge),
        ("code_challenge_method", &params.code_challenge_method),
    ]
    .iter()
    .map(|(name, value)| format!(r#"<input type="hidden" name="{name}" value="{}">"#, escape(value)))
    .collect();
    let options: String =
        recent.iter().map(|email| format!(r#"<option value="{}"></option>"#, escape(email))).collect();
    let alert =
        error.map(|message| format!(r#"<p role="alert" class="error">{}</p>"#, escape(message))).unwrap_or_default();
    let html = format!(
        r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sign in · Taskhub sandbox ID</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>{style}</style></head>
<body><main>
<span class="badge">Sandbox identity provider · dev mode only</span>
<h1>Sign in to Taskhub</h1>
<p>Stands in for Google, Facebook and Apple: choose who you are signing in as.</p>
{alert}
<form method="post">
{hidden}
<label for="email">Email</label>
<input id="email" name="email" type="email" list="recent-emails" autocomplete="email" required>
<datalist id="recent-emails">{options}</datalist>
<label for="name">Name</label>
<input id="name" name="name" autocomplete="name">
<label class="check"><input type="checkbox" name="email_verified" value="true" checked> The provider has verified this email</label>
<button class="go" type="submit" name="action" value="approve">Continue</button>
<button class="cancel" type="submit" name="action" value="cancel" formnovalidate>Cancel</button>
</form>
</main></body></html>"#,
        style = PAGE_STYLE,
    );
    let policy = security_headers::policy_with_inline(&state.config, &[], &[PAGE_STYLE]);
    (status, [(header::CONTENT_SECURITY_POLICY, policy)], Html(html)).into_response()
}

const PAGE_STYLE: &str = "
body{font:16px/1.5 system-ui,sans-serif;background:#f3f4f6;color:#111827;margin:0}
main{max-width:420px;margin:3rem auto;background:#fff;border-radius:12px;padding:2rem;box-shadow:0 1px 3px #0002}
.badge{display:inline-block;background:#fef3c7;color:#92400e;border-radius:999px;padding:0 .6rem;font-size:.8rem}
label{display:block;margin-top:.75rem;font-size:.9rem}input{width:100%;box-sizing:border-box;padding:.5rem;border:1px solid #6b7280;border-radius:6px;font:inherit}
.check input{width:auto;margin-right:.5rem}
button{margin-top:1rem;width:100%;padding:.7rem;border:0;border-radius:6px;font:inherit;font-weight:600;cursor:pointer}
.go{background:#1d4ed8;color:#fff}.cancel{background:#e5e7eb;color:#111827}.error{color:#b91c1c}
";
