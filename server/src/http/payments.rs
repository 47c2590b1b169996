//! Accept & Pay: the checkout session, its verification (the /payment-success
//! page), Stripe's webhook, a task's payment as its parties see it, and
//! taskers' payout onboarding.

use axum::{
    Router,
    extract::State,
    http::HeaderMap,
    routing::{get, post},
};
use serde::Deserialize;
use uuid::Uuid;

use domain::{
    payments::{
        OnboardingRequest,
        escrow::{self, CheckoutStarted},
        payouts,
        webhook::{self, Action},
    },
    rate_limit::{PAYMENT_VERIFICATIONS, PAYOUT_ONBOARDINGS},
    verification::identity,
    wire::escrow::{PaymentInfo, PaymentView, PayoutOnboarding, VerifyResult, WebhookReceipt},
};
use model::{
    payments::rules::{self, Party},
    states::{PaymentPurpose, PaymentStatus},
};
use store::{db::Timestamp, payments, users, verification};

use crate::http::{
    earnings::{PAYOUTS_REFRESH_PATH, PAYOUTS_RETURN_PATH},
    error::{ApiError, ApiResult},
    extract::{ApiJson, AuthUser, RawBody, TaskFromPath, task_or_404},
    state::AppState,
};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/payments/checkout-session", post(create_checkout_session))
        .route("/payments/verify", post(verify_payment))
        .route("/payments/webhook", post(stripe_webhook))
        .route("/tasks/{id}/payment", get(task_payment))
        .route("/me/payouts/onboarding", post(payout_onboarding))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct CheckoutInput {
    pub task_id: Uuid,
    pub offer_id: Uuid,
}

/// Opens the hosted checkout for an offer (poster only); the task becomes `pending_payment`.
/// At most 10 sessions per task per 10 minutes (429).
#[utoipa::path(post, path = "/api/payments/checkout-session", tag = "payments", request_body = CheckoutInput, security(("bearer" = [])),
    responses((status = 200, body = CheckoutStarted), (status = 401), (status = 403), (status = 404), (status = 409), (status = 422), (status = 429)))]
pub async fn create_checkout_session(
    State(state): State<AppState>,
    caller: AuthUser,
    ApiJson(input): ApiJson<CheckoutInput>,
) -> ApiResult<ApiJson<CheckoutStarted>> {
    let started = escrow::accept_and_pay(&state, caller.id, input.task_id, input.offer_id).await?;
    Ok(ApiJson(started))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct VerifyInput {
    pub session_id: String,
    pub task_id: Uuid,
    pub offer_id: Uuid,
}

/// Confirms a checkout with the provider (poster only). Idempotent. 20 per 10 minutes per account and checkout.
#[utoipa::path(post, path = "/api/payments/verify", tag = "payments", request_body = VerifyInput, security(("bearer" = [])),
    responses((status = 200, body = VerifyResult), (status = 400), (status = 401), (status = 403), (status = 404), (status = 422), (status = 429)))]
pub async fn verify_payment(
    State(state): State<AppState>,
    caller: AuthUser,
    ApiJson(input): ApiJson<VerifyInput>,
) -> ApiResult<ApiJson<VerifyResult>> {
    // Per account and checkout: how many checkouts an account has is bounded already
    // (checkout sessions per task, tasks posted per hour), and a poster paying for
    // many tasks in a row must not be refused the verification of the next one.
    let key = format!("payment-verify:{}:{}", caller.id, input.session_id);
    state.limiter.check(&key, PAYMENT_VERIFICATIONS).await?;
    let payment = payments::payment_by_session(&state.db, &input.session_id).await?;
    let payment = payment.ok_or_else(|| ApiError::not_found("Payment"))?;
    if payment.task_id != input.task_id || payment.offer_id != input.offer_id {
        return Err(ApiError::BadRequest("Payment verification failed due to mismatched information".into()));
    }
    rules::may_verify(if caller.id == payment.poster_id { Party::Poster } else { Party::Other })?;
    let payment = escrow::settle(&state, payment).await?;
    let task = task_or_404(&state, payment.task_id).await?;
    let increase = payment.purpose == PaymentPurpose::Increase;
    let tip = payment.purpose == PaymentPurpose::Tip;
    let (success, message) = match payment.status {
        PaymentStatus::Released if tip => (true, "Your tip was paid to your tasker in full"),
        PaymentStatus::Held | PaymentStatus::Released if increase => {
            (true, "The price increase is paid and held with the rest of the payment")
        }
        PaymentStatus::Held | PaymentStatus::Released => {
            (true, "Your task has been assigned and the tasker has been notified")
        }
        PaymentStatus::Refunded if increase => {
            (false, "The price increase was closed before your payment arrived, so it has been refunded")
        }
        PaymentStatus::Pending => (false, "The payment has not been completed yet"),
        PaymentStatus::Processing => {
            (false, "Your payment is processing. We'll assign the task as soon as your bank confirms it.")
        }
        PaymentStatus::Failed => {
            (false, "Your bank did not confirm this payment, so the task is open for offers again")
        }
        PaymentStatus::Refunded => (false, "This offer could no longer be accepted, so your payment has been refunded"),
        PaymentStatus::Expired => (false, "The checkout expired before payment was made"),
    };
    Ok(ApiJson(VerifyResult {
        success,
        message: message.into(),
        payment_info: PaymentInfo { amount_cents: payment.amount_cents, currency: payment.currency.clone() },
        payment_status: payment.status,
        task_status: task.status,
    }))
}

/// Stripe's events: signature-checked on the raw body, deduplicated by event id.
#[utoipa::path(post, path = "/api/payments/webhook", tag = "payments",
    request_body(content = String, description = "The raw Stripe event, signed in `Stripe-Signature`", content_type = "application/json"),
    responses((status = 200, body = WebhookReceipt), (status = 400, description = "Bad or stale signature"), (status = 404, description = "Webhooks not configured")))]
pub async fn stripe_webhook(
    State(state): State<AppState>,
    headers: HeaderMap,
    RawBody(body): RawBody,
) -> ApiResult<ApiJson<WebhookReceipt>> {
    let secret = state
        .config
        .stripe_webhook_secret
        .as_ref()
        .ok_or_else(|| ApiError::NotFound("Webhooks are not configured".into()))?;
    let signature = headers.get("stripe-signature").and_then(|value| value.to_str().ok()).unwrap_or("");
    let now = Timestamp::now().0 / 1000;
    if let Err(error) = webhook::verify_signature(&body, signature, secret.expose(), now, webhook::TOLERANCE_SECS) {
        tracing::warn!(%error, "webhook rejected");
        return Err(ApiError::BadRequest(format!("Webhook signature rejected: {error}")));
    }
    let event: webhook::Event =
        serde_json::from_slice(&body).map_err(|_| ApiError::BadRequest("Malformed event".into()))?;
    if payments::stripe_event_seen(&state.db, &event.id).await? {
        return Ok(ApiJson(WebhookReceipt { received: true, handled: false }));
    }
    let session_id = match event.action() {
        Action::Settle { session_id } => session_id,
        Action::CheckPayoutAccount { account_ref } => {
            let handled = check_payout_account(&state, &account_ref).await?;
            payments::record_stripe_event(&state.db, &event.id, &event.kind, Timestamp::now()).await?;
            return Ok(ApiJson(WebhookReceipt { received: true, handled }));
        }
        Action::CheckIdentity { session_ref } => {
            let handled = match verification::identity_session_by_ref(&state.db, &session_ref).await? {
                Some(session) => identity::settle(&state, &session).await?,
                None => false,
            };
            payments::record_stripe_event(&state.db, &event.id, &event.kind, Timestamp::now()).await?;
            return Ok(ApiJson(WebhookReceipt { received: true, handled }));
        }
        Action::Ignore => return Ok(ApiJson(WebhookReceipt { received: true, handled: false })),
    };
    let Some(payment) = payments::payment_by_session(&state.db, &session_id).await? else {
        return Ok(ApiJson(WebhookReceipt { received: true, handled: false }));
    };
    // The provider's own answer decides, not the event body: a forged-but-signed
    // or reordered event cannot mark anything paid that is not.
    escrow::settle(&state, payment).await?;
    payments::record_stripe_event(&state.db, &event.id, &event.kind, Timestamp::now()).await?;
    Ok(ApiJson(WebhookReceipt { received: true, handled: true }))
}

/// After `account.updated`: if the provider says the account can now receive
/// transfers, record it and send what was waiting. False for unknown or
/// already-ready accounts and accounts still unfinished.
async fn check_payout_account(state: &AppState, account_ref: &str) -> ApiResult<bool> {
    let Some((user_id, false)) = payments::payout_account_by_ref(&state.db, account_ref).await? else {
        return Ok(false);
    };
    if !state.payments.current().payout_account_ready(account_ref).await? {
        return Ok(false);
    }
    payouts::account_ready(state, user_id).await?;
    Ok(true)
}

/// The task's escrow as its poster or assigned tasker sees it.
#[utoipa::path(get, path = "/api/tasks/{id}/payment", tag = "payments", params(("id" = Uuid, Path, description = "The task")), security(("bearer" = [])),
    responses((status = 200, body = PaymentView), (status = 401), (status = 403), (status = 404)))]
pub async fn task_payment(
    State(state): State<AppState>,
    caller: AuthUser,
    TaskFromPath(task): TaskFromPath,
) -> ApiResult<ApiJson<PaymentView>> {
    if Party::of(caller.id, task.poster_id, task.assigned_tasker_id) == Party::Other {
        return Err(ApiError::Forbidden("Only the poster and the assigned tasker can see this payment".into()));
    }
    let all = payments::payments_for_task(&state.db, task.id).await?;
    // The charge that bought the task: in escrow, paid out, or refunded on cancellation.
    let shown = all
        .iter()
        .rev()
        .filter(|p| p.purpose == PaymentPurpose::Task)
        .find(|p| {
            matches!(p.status, PaymentStatus::Held | PaymentStatus::Released | PaymentStatus::Processing)
                || (p.status == PaymentStatus::Refunded && p.held_at.is_some())
        })
        .ok_or_else(|| ApiError::not_found("Payment"))?;
    let mut view = PaymentView::from(shown);
    view.increases_cents = all
        .iter()
        .filter(|p| p.purpose == PaymentPurpose::Increase && p.parent_payment_id == Some(shown.id))
        .filter(|p| p.status == shown.status)
        .map(|p| p.amount_cents)
        .sum();
    view.total_cents = view.amount_cents + view.increases_cents;
    Ok(ApiJson(view))
}

/// Creates the tasker's payout account (Stripe Connect Express) and a link to set it up (10 an hour).
#[utoipa::path(post, path = "/api/me/payouts/onboarding", tag = "payments", security(("bearer" = [])),
    responses((status = 200, body = PayoutOnboarding), (status = 401), (status = 429)))]
pub async fn payout_onboarding(
    State(state): State<AppState>,
    caller: AuthUser,
) -> ApiResult<ApiJson<PayoutOnboarding>> {
    state.limiter.check(&format!("payout-onboarding:{}", caller.id), PAYOUT_ONBOARDINGS).await?;
    let user = users::user_by_id(&state.db, caller.id)
        .await?
        .ok_or_else(|| ApiError::Unauthorized("Please sign in to continue.".into()))?;
    let existing = payments::payout_account(&state.db, caller.id).await?;
    let onboarding = state
        .payments
        .current()
        .onboarding(&OnboardingRequest {
            user_id: caller.id,
            email: user.email,
            account_ref: existing.map(|(account_ref, _)| account_ref),
            refresh_url: state.link(PAYOUTS_REFRESH_PATH),
            return_url: state.link(PAYOUTS_RETURN_PATH),
        })
        .await?;
    payments::save_payout_account(
        &state.db,
        caller.id,
        state.payments.current().name(),
        &onboarding.account_ref,
        onboarding.ready,
        Timestamp::now(),
    )
    .await?;
    if onboarding.ready {
        payouts::account_ready(&state, caller.id).await?;
    }
    Ok(ApiJson(PayoutOnboarding { url: onboarding.url, ready: onboarding.ready }))
}
