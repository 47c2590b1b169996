//! Verifying oneself: a phone number by a code sent by SMS, an identity through the identity
//! provider, and where one stands (`GET /api/me/verification`).

use std::time::Duration;

use axum::{
    Router,
    extract::State,
    http::StatusCode,
    routing::{get, post},
};
use serde::Deserialize;

use domain::{
    rate_limit::{Limit, Verdict},
    sms::{SmsError, TextMessage},
    verification::{
        identity,
        phone::{self, CODE_LIFETIME},
    },
    wire::{
        accounts::ProfileView,
        verification::{CodeSent, IdentitySessionStarted, MyVerification},
    },
};
use store::{
    db::{Timestamp, new_id},
    profile_facts, profiles,
    verification::{self, IdentityStatus, PhoneCodeRow},
};

use crate::http::{
    error::{ApiError, ApiResult},
    extract::{ApiJson, AuthUser, VerifiedUser},
    state::AppState,
};

/// Identity sessions one account may open an hour (each one costs us at Stripe).
const IDENTITY_SESSIONS_PER_HOUR: Limit = Limit::new(5, Duration::from_secs(3600));
/// How often a pending session is checked with the provider when someone looks.
const IDENTITY_LOOKUPS: Limit = Limit::new(1, Duration::from_secs(10));

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/me/phone/start", post(start_phone_verification))
        .route("/me/phone/verify", post(verify_phone))
        .route("/me/identity/session", post(start_identity_verification))
        .route("/me/verification", get(my_verification))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct PhoneInput {
    /// A mobile number, national (`0412 345 678`) or international (`+61 412 345 678`).
    pub phone: String,
}

/// Sends a 6-digit code by SMS to a number of one of `SMS_ALLOWED_COUNTRIES` (422 otherwise).
/// At most 1 code a minute, 5 an hour and 10 a day per account and per number, and a daily
/// ceiling per country (429 with `Retry-After`). The code expires in 10 minutes.
#[utoipa::path(post, path = "/api/me/phone/start", tag = "verification", request_body = PhoneInput, security(("bearer" = [])),
    responses((status = 202, body = CodeSent), (status = 400), (status = 401), (status = 403), (status = 422),
        (status = 429), (status = 503)))]
pub async fn start_phone_verification(
    State(state): State<AppState>,
    VerifiedUser(caller): VerifiedUser,
    ApiJson(input): ApiJson<PhoneInput>,
) -> ApiResult<(StatusCode, ApiJson<CodeSent>)> {
    let number = phone::parse_phone(&input.phone, &state.config.sms_allowed_countries)
        .map_err(|error| ApiError::field("phone", &error.to_string()))?;
    let now = Timestamp::now();
    let counts = verification::send_counts(&state.db, caller.id, &number.e164, &number.country, now).await?;
    if let Some(retry_after_secs) = model::verification::retry_after(&counts, state.config.sms_daily_limit_per_country)
    {
        return Err(ApiError::RateLimited { retry_after_secs });
    }
    let code = phone::new_code();
    let id = new_id();
    let row = PhoneCodeRow {
        id,
        user_id: caller.id,
        phone: number.e164.clone(),
        country: number.country,
        code_hash: phone::hash_code(id, &code),
        created_at: now,
        expires_at: now.plus(CODE_LIFETIME),
        attempts: 0,
        used_at: None,
    };
    verification::insert_phone_code(&state.db, &row).await?;
    let message = TextMessage { to: number.e164.clone(), body: phone::text_for(&code) };
    if let Err(error) = state.sms.send(&message).await {
        verification::delete_phone_code(&state.db, id).await?;
        return Err(match error {
            SmsError::Rejected(_) => ApiError::field("phone", "We could not send a text to this number"),
            SmsError::Unavailable(reason) => {
                tracing::warn!(reason, provider = state.sms.name(), "could not send a verification text");
                ApiError::Unavailable
            }
        });
    }
    let sent =
        CodeSent { phone: number.e164, expires_at: row.expires_at, resend_at: now.plus(Duration::from_secs(60)) };
    Ok((StatusCode::ACCEPTED, ApiJson(sent)))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct CodeInput {
    pub code: String,
}

/// Confirms the number with the newest code sent to it: wrong or expired 422, past 5 tries
/// 429 (ask for a new code). The profile's `phone` becomes that number, `phone_verified: true`.
#[utoipa::path(post, path = "/api/me/phone/verify", tag = "verification", request_body = CodeInput, security(("bearer" = [])),
    responses((status = 200, body = ProfileView), (status = 400), (status = 401), (status = 422), (status = 429)))]
pub async fn verify_phone(
    State(state): State<AppState>,
    caller: AuthUser,
    ApiJson(input): ApiJson<CodeInput>,
) -> ApiResult<ApiJson<ProfileView>> {
    let now = Timestamp::now();
    let wrong = || ApiError::field("code", "That code is not right. Check the text and try again.");
    let expired = || ApiError::field("code", "That code has expired. Ask for a new one.");
    let code = verification::latest_phone_code(&state.db, caller.id)
        .await?
        .ok_or_else(|| ApiError::field("code", "Ask for a code first."))?;
    if code.used_at.is_some() || code.expires_at <= now {
        return Err(expired());
    }
    if !verification::spend_attempt(&state.db, code.id).await? {
        return Err(ApiError::RateLimited { retry_after_secs: 60 });
    }
    let entered: String = input.code.chars().filter(|c| !c.is_whitespace()).collect();
    if entered.len() != 6 || phone::hash_code(code.id, &entered) != code.code_hash {
        return Err(wrong());
    }
    if !verification::confirm_phone(&state.db, &code, now).await? {
        return Err(expired());
    }
    let row = profiles::profile(&state.db, caller.id).await?.ok_or_else(|| ApiError::not_found("Profile"))?;
    let stats = profiles::profile_stats(&state.db, caller.id).await?;
    Ok(ApiJson(ProfileView::new(&row, &stats)))
}

/// Opens an identity verification (document and selfie) with the identity provider; at most 5
/// an hour (429). Already verified → 409.
#[utoipa::path(post, path = "/api/me/identity/session", tag = "verification", security(("bearer" = [])),
    responses((status = 200, body = IdentitySessionStarted), (status = 401), (status = 403), (status = 409),
        (status = 429), (status = 503)))]
pub async fn start_identity_verification(
    State(state): State<AppState>,
    VerifiedUser(caller): VerifiedUser,
) -> ApiResult<ApiJson<IdentitySessionStarted>> {
    let facts = verification::verification(&state.db, caller.id).await?.unwrap_or_default();
    if facts.identity_verified_at.is_some() {
        return Err(ApiError::Conflict("Your identity is already verified".into()));
    }
    state.limiter.check(&format!("identity-session:{}", caller.id), IDENTITY_SESSIONS_PER_HOUR).await?;
    let url = identity::start(&state, caller.id).await?;
    Ok(ApiJson(IdentitySessionStarted { url }))
}

/// The caller's verifications. A pending identity verification is first checked with its
/// provider (so coming back from Stripe's page shows the outcome).
#[utoipa::path(get, path = "/api/me/verification", tag = "verification", security(("bearer" = [])),
    responses((status = 200, body = MyVerification), (status = 401)))]
pub async fn my_verification(State(state): State<AppState>, caller: AuthUser) -> ApiResult<ApiJson<MyVerification>> {
    let pending = verification::pending_identity_sessions(&state.db, caller.id).await?;
    if let Some(newest) = pending.first()
        && state.limiter.hit(&format!("identity-lookup:{}", caller.id), IDENTITY_LOOKUPS).await == Verdict::Allowed
        && let Err(error) = identity::settle(&state, newest).await
    {
        tracing::warn!(%error, "could not ask the identity provider about a session; showing it pending");
    }
    let facts = verification::verification(&state.db, caller.id)
        .await?
        .ok_or_else(|| ApiError::Unauthorized("Authentication error. Please log in again.".into()))?;
    let latest = verification::latest_identity_session(&state.db, caller.id).await?;
    let phone_verified = facts.phone_verified_at.is_some();
    Ok(ApiJson(MyVerification {
        email: facts.email_verified,
        phone: phone_verified,
        identity: facts.identity_verified_at.is_some(),
        payment: profile_facts::has_payment_method(&state.db, caller.id).await?,
        phone_number: facts.phone.filter(|_| phone_verified),
        identity_verified_at: facts.identity_verified_at,
        identity_pending: latest.as_ref().is_some_and(|session| session.status == IdentityStatus::Pending),
        identity_failed: latest.as_ref().is_some_and(|session| session.status == IdentityStatus::Failed),
        identity_required_for_payouts: state.config.payouts_require_identity,
    }))
}
