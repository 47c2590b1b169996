//! The sandbox provider's payout onboarding page (`/sandbox/payouts/{account}`):
//! what Stripe's hosted Connect onboarding is in production. The tasker
//! enters test bank details; Save makes their payout account ready (and
//! sends any transfer that was waiting for it) and returns them to their
//! Earnings page. The address itself is the credential, as an Account Link's is.

use axum::{
    Form, Router,
    extract::State,
    http::StatusCode,
    response::{Html, IntoResponse, Redirect, Response},
    routing::get,
};
use serde::Deserialize;

use domain::payments::payouts::{self, PAYOUT_TIME};
use model::payments::fees::FEE_PERCENT;
use store::payments;

use crate::http::{
    earnings::PAYOUTS_RETURN_PATH,
    error::{ApiError, ApiResult},
    extract::ApiPath,
    state::AppState,
};

pub fn router() -> Router<AppState> {
    Router::new().route("/sandbox/payouts/{account_ref}", get(onboarding_page).post(submit))
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct BankForm {
    action: String,
    account_name: String,
    bsb: String,
    account_number: String,
}

async fn onboarding_page(State(state): State<AppState>, ApiPath(account_ref): ApiPath<String>) -> ApiResult<Response> {
    let (_, ready) = find(&state, &account_ref).await?;
    Ok(render(ready, StatusCode::OK, None))
}

async fn submit(
    State(state): State<AppState>,
    ApiPath(account_ref): ApiPath<String>,
    Form(form): Form<BankForm>,
) -> ApiResult<Response> {
    let (user_id, ready) = find(&state, &account_ref).await?;
    if form.action == "cancel" {
        return Ok(Redirect::to(&state.link("/earnings")).into_response());
    }
    if let Some(problem) = bank_details_problem(&form) {
        return Ok(render(ready, StatusCode::UNPROCESSABLE_ENTITY, Some(problem)));
    }
    payouts::account_ready(&state, user_id).await?;
    Ok(Redirect::to(&state.link(PAYOUTS_RETURN_PATH)).into_response())
}

async fn find(state: &AppState, account_ref: &str) -> ApiResult<(uuid::Uuid, bool)> {
    let account = payments::payout_account_by_ref(&state.db, account_ref).await?;
    account.filter(|_| account_ref.starts_with("acct_sandbox_")).ok_or_else(|| ApiError::not_found("Payout account"))
}

fn digits(text: &str) -> String {
    text.chars().filter(char::is_ascii_digit).collect()
}

/// Australian bank details as Stripe's onboarding checks them: a name, a 6-digit BSB, a 5–9 digit account.
fn bank_details_problem(form: &BankForm) -> Option<&'static str> {
    if form.account_name.trim().is_empty() {
        return Some("Please enter the account holder's name.");
    }
    if digits(&form.bsb).len() != 6 {
        return Some("Your BSB must have 6 digits.");
    }
    if !(5..=9).contains(&digits(&form.account_number).len()) {
        return Some("Your account number must have 5 to 9 digits.");
    }
    None
}

fn render(ready: bool, status: StatusCode, error: Option<&str>) -> Response {
    let alert = match (error, ready) {
        (Some(message), _) => format!(r#"<p role="alert" class="error">{message}</p>"#),
        (None, true) => r#"<p role="status">Payouts are set up. You can update your bank account here.</p>"#.to_owned(),
        (None, false) => String::new(),
    };
    let html = format!(
        r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Set up payouts · Taskhub sandbox</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{{font:16px/1.5 system-ui,sans-serif;background:#f3f4f6;color:#111827;margin:0}}
main{{max-width:440px;margin:3rem auto;background:#fff;border-radius:12px;padding:2rem;box-shadow:0 1px 3px #0002}}
.badge{{display:inline-block;background:#fef3c7;color:#92400e;border-radius:999px;padding:0 .6rem;font-size:.8rem}}
label{{display:block;margin-top:.75rem;font-size:.9rem}}input{{width:100%;box-sizing:border-box;padding:.5rem;border:1px solid #d1d5db;border-radius:6px;font:inherit}}
button{{margin-top:1rem;width:100%;padding:.7rem;border:0;border-radius:6px;font:inherit;font-weight:600;cursor:pointer}}
.save{{background:#2563eb;color:#fff}}.cancel{{background:#e5e7eb}}.error{{color:#b91c1c}}small{{color:#6b7280}}
</style></head>
<body><main>
<span class="badge">Sandbox · no real money moves</span>
<h1>Set up payouts</h1>
<p>Released payments are transferred to this bank account, less the {FEE_PERCENT}% service fee. Payouts take {PAYOUT_TIME}.</p>
{alert}
<form method="post">
<label for="account_name">Account holder name</label>
<input id="account_name" name="account_name" autocomplete="name" required>
<label for="bsb">BSB</label>
<input id="bsb" name="bsb" inputmode="numeric" value="000-000" required>
<label for="account_number">Account number</label>
<input id="account_number" name="account_number" inputmode="numeric" value="000123456" required>
<small>Test details: BSB 000-000 and account 000123456.</small>
<button class="save" type="submit" name="action" value="save">Save bank account</button>
<button class="cancel" type="submit" name="action" value="cancel" formnovalidate>Cancel</button>
</form>
</main></body></html>"#
    );
    (status, Html(html)).into_response()
}
