//! Money across all of one person's tasks: the tasker's payout account and
//! Earnings, the poster's payment history. Each answers only about the caller.

use axum::{Router, extract::State, routing::get};
use uuid::Uuid;

use domain::{
    payments::payouts::{self, EarningState},
    rate_limit::{PAYOUT_ACCOUNT_LOOKUPS, Verdict},
    wire::{
        earnings::{EarningLine, EarningTotals, Earnings, PayoutAccountView},
        paging::{self, Page, PageQuery},
        payments::Receipt,
    },
};
use store::{
    Position,
    db::Timestamp,
    earnings::{self, EarningRow},
    payments, verification,
};

use crate::http::{
    error::ApiResult,
    extract::{ApiJson, ApiQuery, AuthUser},
    state::AppState,
};

/// Where the provider's onboarding returns the tasker (Stripe's `return_url`, the sandbox page's Save).
pub const PAYOUTS_RETURN_PATH: &str = "/earnings?payouts=done";
/// Where Stripe sends the tasker when an onboarding link expired (`refresh_url`): the page asks for a new one.
pub const PAYOUTS_REFRESH_PATH: &str = "/earnings?payouts=refresh";

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/me/payout-account", get(payout_account))
        .route("/me/earnings", get(my_earnings))
        .route("/me/payments", get(my_payments))
}

/// The caller's payout account. An unfinished one is checked with the
/// provider (Stripe: the account's `payouts_enabled`), so coming back from
/// onboarding shows the outcome, and transfers that were waiting go out; at
/// most once every 30 s per account (in between it is still `pending`).
#[utoipa::path(get, path = "/api/me/payout-account", tag = "payments", security(("bearer" = [])),
    responses((status = 200, body = PayoutAccountView), (status = 401)))]
pub async fn payout_account(State(state): State<AppState>, caller: AuthUser) -> ApiResult<ApiJson<PayoutAccountView>> {
    let ready = match payments::payout_account(&state.db, caller.id).await? {
        None => return Ok(ApiJson(PayoutAccountView { status: "none" })),
        Some((_, true)) => true,
        Some((account_ref, false)) => {
            let lookup = state.limiter.hit(&format!("payout-lookup:{}", caller.id), PAYOUT_ACCOUNT_LOOKUPS).await;
            lookup == Verdict::Allowed && provider_says_ready(&state, caller.id, &account_ref).await?
        }
    };
    Ok(ApiJson(PayoutAccountView { status: if ready { "ready" } else { "pending" } }))
}

async fn provider_says_ready(state: &AppState, user_id: Uuid, account_ref: &str) -> ApiResult<bool> {
    match state.payments.current().payout_account_ready(account_ref).await {
        Ok(true) => {
            payouts::account_ready(state, user_id).await?;
            Ok(true)
        }
        Ok(false) => Ok(false),
        Err(error) => {
            tracing::warn!(%error, "could not ask the provider about a payout account; showing it unfinished");
            Ok(false)
        }
    }
}

/// The caller's earnings as a tasker: every payment held for them and what became of it.
#[utoipa::path(get, path = "/api/me/earnings", tag = "payments", security(("bearer" = [])), params(PageQuery),
    responses((status = 200, body = Earnings), (status = 400), (status = 401), (status = 422)))]
pub async fn my_earnings(
    State(state): State<AppState>,
    caller: AuthUser,
    ApiQuery(query): ApiQuery<PageQuery>,
) -> ApiResult<ApiJson<Earnings>> {
    let (after, limit) = query.parse()?;
    let account = payments::payout_account(&state.db, caller.id).await?;
    let account_ready = account.as_ref().is_some_and(|(_, ready)| *ready);
    let rows = earnings::earnings_of(&state.db, caller.id, Timestamp::now()).await?;
    let identity_needed = state.config.payouts_require_identity
        && verification::verification(&state.db, caller.id)
            .await?
            .is_none_or(|facts| facts.identity_verified_at.is_none());
    let mut totals = EarningTotals::default();
    for row in &rows {
        totals.add(row, state_of(row, account_ready, identity_needed));
    }
    // Newest first, so a page starts at the first line older than the cursor's.
    let position = |row: &EarningRow| Position { created_at: row.held_at.unwrap_or(Timestamp(0)), id: row.payment_id };
    let page: Vec<&EarningRow> =
        rows.iter().filter(|row| after.is_none_or(|after| position(row) < after)).take(limit as usize + 1).collect();
    let (page, next_cursor) = paging::finish(page, limit, |row| position(row));
    let payout_account = match account {
        None => "none",
        Some((_, true)) => "ready",
        Some((_, false)) => "pending",
    };
    let currency = rows.first().map_or_else(|| "aud".to_owned(), |row| row.currency.clone());
    let items =
        page.into_iter().map(|row| EarningLine::new(row, state_of(row, account_ready, identity_needed))).collect();
    let has_more = next_cursor.is_some();
    Ok(ApiJson(Earnings { currency, payout_account, identity_needed, totals, items, has_more, next_cursor }))
}

/// A transfer that could go out but for the tasker's identity says so.
fn state_of(row: &EarningRow, account_ready: bool, identity_needed: bool) -> EarningState {
    match payouts::earning_state(row, account_ready) {
        EarningState::TransferPending if identity_needed => EarningState::WaitingForIdentity,
        state => state,
    }
}

/// The caller's payment history as a poster: one receipt per charge.
#[utoipa::path(get, path = "/api/me/payments", tag = "payments", security(("bearer" = [])), params(PageQuery),
    responses((status = 200, body = Page<Receipt>, description = "Newest first, a page at a time"), (status = 400), (status = 401), (status = 422)))]
pub async fn my_payments(
    State(state): State<AppState>,
    caller: AuthUser,
    ApiQuery(query): ApiQuery<PageQuery>,
) -> ApiResult<ApiJson<Page<Receipt>>> {
    let (after, limit) = query.parse()?;
    let rows = earnings::receipts_page(&state.db, caller.id, after, limit + 1).await?;
    let (items, next_cursor) =
        paging::finish(rows, limit, |row| Position { created_at: row.created_at, id: row.payment_id });
    Ok(ApiJson(Page::new(items.iter().map(Receipt::from).collect(), next_cursor)))
}
