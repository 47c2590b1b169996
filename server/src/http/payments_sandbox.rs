//! The sandbox provider's hosted checkout page (`/sandbox/checkout/{id}`): what
//! Stripe Checkout is in production. It shows the task, the amount and the
//! fee, and takes a test card: Pay redirects to the session's success URL,
//! Cancel to its cancel URL. Card 4000 0000 0000 0002 is declined. A bank
//! debit (BECS test account 000123456) completes at once but settles two
//! minutes later, so the whole "processing" path works offline; account
//! 111111113 fails to settle.

use axum::{
    Form, Router,
    extract::State,
    http::{StatusCode, header},
    response::{Html, IntoResponse, Redirect, Response},
    routing::get,
};
use serde::Deserialize;

use domain::payments::sandbox::{DEBIT_ACCOUNT_FAILS, DEBIT_ACCOUNT_SETTLES, DEBIT_SETTLES_AFTER, DECLINED_CARD};
use model::payments::fees::{FEE_PERCENT, display_amount};
use store::{
    db::{Timestamp, new_id},
    sandbox_sessions::{self, SandboxSession},
};

use crate::http::{
    error::{ApiError, ApiResult},
    extract::ApiPath,
    security_headers,
    state::AppState,
    web::escape,
};

pub fn router() -> Router<AppState> {
    Router::new().route("/sandbox/checkout/{session_id}", get(checkout_page).post(submit))
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct CheckoutForm {
    action: String,
    card_number: String,
    account_number: String,
}

async fn checkout_page(State(state): State<AppState>, ApiPath(session_id): ApiPath<String>) -> ApiResult<Response> {
    let session = find(&state, &session_id).await?;
    Ok(render(&state, &session, StatusCode::OK, None))
}

async fn submit(
    State(state): State<AppState>,
    ApiPath(session_id): ApiPath<String>,
    Form(form): Form<CheckoutForm>,
) -> ApiResult<Response> {
    let session = find(&state, &session_id).await?;
    if form.action == "cancel" {
        return Ok(Redirect::to(&session.cancel_url).into_response());
    }
    if form.action == "debit" {
        return pay_by_debit(&state, &session, &form.account_number).await;
    }
    let card: String = form.card_number.chars().filter(char::is_ascii_digit).collect();
    if card.len() < 12 {
        return Ok(render(&state, &session, StatusCode::UNPROCESSABLE_ENTITY, Some("Your card number is incomplete.")));
    }
    if card == DECLINED_CARD {
        return Ok(render(&state, &session, StatusCode::PAYMENT_REQUIRED, Some("Your card was declined.")));
    }
    let charge_ref = format!("ch_sandbox_{}", new_id().simple());
    let paid = sandbox_sessions::complete(&state.db, &session.id, &charge_ref, Timestamp::now()).await?;
    if paid || session.status == "complete" {
        // Paying twice (a double click, a back button) lands on the same success page.
        return Ok(Redirect::to(&session.success_url).into_response());
    }
    Ok(render(&state, &session, StatusCode::GONE, Some("This checkout session has expired.")))
}

async fn pay_by_debit(state: &AppState, session: &SandboxSession, account_number: &str) -> ApiResult<Response> {
    let account: String = account_number.chars().filter(char::is_ascii_digit).collect();
    let fails = match account.as_str() {
        DEBIT_ACCOUNT_SETTLES => false,
        DEBIT_ACCOUNT_FAILS => true,
        _ => {
            let message = "Use a test account: 000123456 settles, 111111113 fails.";
            return Ok(render(state, session, StatusCode::UNPROCESSABLE_ENTITY, Some(message)));
        }
    };
    let now = Timestamp::now();
    let charge_ref = format!("ch_sandbox_{}", new_id().simple());
    let settles_at = Some(now.plus(DEBIT_SETTLES_AFTER));
    let paid = sandbox_sessions::complete_by_debit(&state.db, &session.id, &charge_ref, settles_at, fails, now).await?;
    if paid || session.status == "complete" {
        return Ok(Redirect::to(&session.success_url).into_response());
    }
    Ok(render(state, session, StatusCode::GONE, Some("This checkout session has expired.")))
}

async fn find(state: &AppState, session_id: &str) -> ApiResult<SandboxSession> {
    sandbox_sessions::session(&state.db, session_id).await?.ok_or_else(|| ApiError::not_found("Checkout session"))
}

fn render(state: &AppState, session: &SandboxSession, status: StatusCode, error: Option<&str>) -> Response {
    let payable = session.status == "open" && session.expires_at > Timestamp::now();
    let amount = display_amount(session.amount_cents, &session.currency);
    let fee = display_amount(session.fee_cents, &session.currency);
    let alert = match (error, payable) {
        (Some(message), _) => format!(r#"<p role="alert" class="error">{}</p>"#, escape(message)),
        (None, false) if session.status == "complete" && session.settles_at.is_some() => {
            r#"<p role="status">This session was paid by bank debit.</p>"#.to_owned()
        }
        (None, false) if session.status == "complete" => {
            r#"<p role="status">This session has been paid.</p>"#.to_owned()
        }
        (None, false) => r#"<p role="alert" class="error">This checkout session has expired.</p>"#.to_owned(),
        (None, true) => String::new(),
    };
    let disabled = if payable { "" } else { " disabled" };
    let html = format!(
        r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Checkout · Taskhub sandbox</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>{style}</style></head>
<body><main>
<span class="badge">Sandbox · no real money moves</span>
<h1>Pay for your task</h1>
<dl>
<dt>Task</dt><dd>{description}</dd>
<dt>Amount</dt><dd>{amount}</dd>
<dt>Service fee ({FEE_PERCENT}%)</dt><dd>{fee}</dd>
<dt><strong>Total</strong></dt><dd><strong>{amount}</strong></dd>
</dl>
<small>The service fee is deducted from the tasker's payout. Funds are held until the task is complete; only you release payment.</small>
{alert}
<form method="post">
<label for="card_number">Card number</label>
<input id="card_number" name="card_number" inputmode="numeric" autocomplete="cc-number" value="4242 4242 4242 4242"{disabled}>
<div class="row"><label>Expiry <input name="expiry" value="12/34" autocomplete="cc-exp"{disabled}></label>
<label>CVC <input name="cvc" value="123" autocomplete="cc-csc"{disabled}></label></div>
<small>Test card 4242 4242 4242 4242 pays; 4000 0000 0000 0002 is declined.</small>
<button class="pay" type="submit" name="action" value="pay"{disabled}>Pay {amount}</button>
<button class="cancel" type="submit" name="action" value="cancel">Cancel</button>
</form>
<form method="post" aria-labelledby="debit-heading">
<h2 id="debit-heading">Or pay by bank debit</h2>
<label for="account_number">Account number (BECS Direct Debit)</label>
<input id="account_number" name="account_number" inputmode="numeric" value="{settles}"{disabled}>
<small>Settles in about {minutes} minutes: the task is assigned once it does. Test account {settles} settles; {fails} fails.</small>
<button class="pay" type="submit" name="action" value="debit"{disabled}>Debit {amount} from my bank account</button>
</form>
</main></body></html>"#,
        style = CHECKOUT_STYLE,
        description = escape(&session.description),
        settles = DEBIT_ACCOUNT_SETTLES,
        fails = DEBIT_ACCOUNT_FAILS,
        minutes = DEBIT_SETTLES_AFTER.as_secs() / 60,
    );
    let policy = security_headers::policy_with_inline(&state.config, &[], &[CHECKOUT_STYLE]);
    (status, [(header::CONTENT_SECURITY_POLICY, policy)], Html(html)).into_response()
}

const CHECKOUT_STYLE: &str = "
body{font:16px/1.5 system-ui,sans-serif;background:#f3f4f6;color:#111827;margin:0}
main{max-width:440px;margin:3rem auto;background:#fff;border-radius:12px;padding:2rem;box-shadow:0 1px 3px #0002}
.badge{display:inline-block;background:#fef3c7;color:#92400e;border-radius:999px;padding:0 .6rem;font-size:.8rem}
dl{display:grid;grid-template-columns:1fr auto;gap:.25rem 1rem}dd{margin:0;text-align:right}
label{display:block;margin-top:.75rem;font-size:.9rem}input{width:100%;box-sizing:border-box;padding:.5rem;border:1px solid #d1d5db;border-radius:6px;font:inherit}
.row{display:flex;gap:.75rem}.row label{flex:1}
button{margin-top:1rem;width:100%;padding:.7rem;border:0;border-radius:6px;font:inherit;font-weight:600;cursor:pointer}
h2{font-size:1.1rem;margin:1.5rem 0 0}.pay{background:#2563eb;color:#fff}.cancel{background:#e5e7eb}.error{color:#b91c1c}small{color:#6b7280}
";
