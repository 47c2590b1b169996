//! Social sign-in routes: the providers on offer, the start (a 302 to the provider with PKCE,
//! `state` and `nonce`, all kept server-side), the provider's callback, and a new person's
//! choice of customer or tasker. The rules live in `signin`; the SQL in `store::identities`.

use axum::{
    Router,
    extract::State,
    http::{HeaderMap, HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
    routing::{get, post},
};
use serde::Deserialize;
use url::form_urlencoded;

use domain::{
    accounts::validation::{self, AccountType, Skill},
    auth::{password, secrets},
    signin::{
        AuthorizationRequest, IdentityProvider, LOGIN_TTL, ProviderId, ProviderIdentity, SIGNUP_TTL, SignInError,
        may_link, names_for, safe_redirect,
    },
    wire::{sessions::SessionResponse, signin::ProviderView},
};
use store::{
    db::{Timestamp, new_id},
    identities::{self, NewLogin, NewSignup, SignupError},
    users::{self, NewAccount},
};

use crate::http::{
    auth::{refuse_suspended, send_verification_email, start_session},
    error::{ApiError, ApiResult, FieldErrors},
    extract::{ApiJson, ApiPath, ApiQuery, ClientIp, RawBody},
    state::AppState,
};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/auth/providers", get(list_providers))
        .route("/auth/oidc/{provider}/start", get(start))
        .route("/auth/oidc/{provider}/callback", get(callback).post(callback_form))
        .route("/auth/oidc/complete-signup", post(complete_signup))
}

/// The sign-in providers configured on this server, in button order (`sandbox` only in dev mode).
#[utoipa::path(get, path = "/api/auth/providers", tag = "accounts", responses((status = 200, body = [ProviderView])))]
pub async fn list_providers(State(state): State<AppState>) -> ApiJson<Vec<ProviderView>> {
    ApiJson(state.signin.list().into_iter().map(|id| ProviderView { id, name: id.display_name() }).collect())
}

#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(default)]
pub struct StartQuery {
    /// A path on this site to return to after signing in (default `/`).
    redirect: Option<String>,
}

fn configured(state: &AppState, provider: &str) -> ApiResult<(ProviderId, std::sync::Arc<dyn IdentityProvider>)> {
    let not_offered = || ApiError::NotFound("This sign-in provider is not available.".into());
    let id = ProviderId::parse(provider).ok_or_else(not_offered)?;
    let provider = state.signin.get(id).ok_or_else(not_offered)?;
    Ok((id, provider))
}

/// Sends the browser to the provider: 302 with PKCE (S256), a `state` and a `nonce`, kept
/// server-side for 10 minutes and good for one callback. A provider not configured: 404.
#[utoipa::path(get, path = "/api/auth/oidc/{provider}/start", tag = "accounts",
    params(("provider" = ProviderId, Path, description = "The provider"), StartQuery),
    responses((status = 302, description = "To the provider's sign-in page"), (status = 404, description = "Provider not configured"),
        (status = 429), (status = 503, description = "The provider could not be reached")))]
pub async fn start(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    ApiPath(provider): ApiPath<String>,
    ApiQuery(query): ApiQuery<StartQuery>,
) -> ApiResult<Response> {
    let (id, provider) = configured(&state, &provider)?;
    state.auth_limits.check("oidc_start", ip, None).await?;
    let (login_state, nonce, pkce_verifier) = (secrets::new_token(), secrets::new_token(), secrets::new_token());
    let url = provider
        .authorize_url(&AuthorizationRequest { state: &login_state, nonce: &nonce, pkce_verifier: &pkce_verifier })
        .await
        .map_err(|error| unavailable(id, error))?;
    let now = Timestamp::now();
    identities::insert_login(
        &state.db,
        &NewLogin {
            state_hash: &secrets::token_hash(&login_state),
            provider: id.as_str(),
            nonce: &nonce,
            pkce_verifier: &pkce_verifier,
            redirect_path: &safe_redirect(query.redirect.as_deref()),
            now,
            expires_at: now.plus(LOGIN_TTL),
        },
    )
    .await?;
    let mut response = found(url.as_str());
    response.headers_mut().insert(header::SET_COOKIE, binding_cookie(&state, &login_state, LOGIN_TTL.as_secs()));
    Ok(response)
}

/// The sign-in is bound to the browser that started it: the callback must come with this
/// cookie holding its `state`, so nobody can hand someone else a callback link that signs
/// them in to the sender's account (login CSRF). `SameSite=None` behind https, because Apple
/// returns with a cross-site form POST; `Lax` otherwise (the redirect back is a top-level GET).
fn binding_cookie(state: &AppState, value: &str, max_age: u64) -> HeaderValue {
    let same_site = if state.public_url.starts_with("https://") { "None; Secure" } else { "Lax" };
    HeaderValue::from_str(&format!(
        "{BINDING_COOKIE}={value}; Path=/api/auth/oidc; HttpOnly; Max-Age={max_age}; SameSite={same_site}"
    ))
    .expect("a token is a valid cookie value")
}

const BINDING_COOKIE: &str = "taskhub_oidc";

fn bound_state(headers: &HeaderMap) -> Option<&str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|cookies| cookies.split(';'))
        .find_map(|cookie| cookie.trim().strip_prefix(BINDING_COOKIE)?.strip_prefix('='))
}

fn unavailable(id: ProviderId, error: SignInError) -> ApiError {
    tracing::warn!(provider = id.as_str(), error = %error, "sign-in provider unavailable");
    ApiError::Unavailable
}

fn found(location: &str) -> Response {
    // Never cached: each answer carries a one-time value.
    (StatusCode::FOUND, [(header::LOCATION, location.to_owned()), (header::CACHE_CONTROL, "no-store".to_owned())])
        .into_response()
}

#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(default)]
pub struct CallbackQuery {
    code: String,
    state: String,
    /// Set when the person cancelled or the provider refused (`access_denied`).
    error: Option<String>,
    /// Apple only, on the first sign-in: the person's name as JSON.
    #[param(ignore)]
    #[serde(skip)]
    user: Option<String>,
}

/// Where the provider returns. A `state` this server did not issue, already used or expired:
/// 400, nothing changes; an ID token whose signature, audience, issuer or `nonce` is wrong: 400.
/// Then a linked identity signs in, an identity whose verified address matches a verified
/// account is linked and signs in, any other existing address is refused, and a new person
/// goes to `/signup?oidc=…` to choose customer or tasker. A session arrives at
/// `/auth/callback#refresh_token=…&redirect=…`; refusals at `/auth/callback#error=…`.
#[utoipa::path(get, path = "/api/auth/oidc/{provider}/callback", tag = "accounts",
    params(("provider" = ProviderId, Path, description = "The provider"), CallbackQuery),
    responses((status = 302, description = "To the app's /auth/callback or /signup?oidc=…"),
        (status = 400, description = "Forged, used or expired state; an ID token that does not check out"),
        (status = 404, description = "Provider not configured"), (status = 503, description = "The provider could not be reached")))]
pub async fn callback(
    State(state): State<AppState>,
    ApiPath(provider): ApiPath<String>,
    headers: HeaderMap,
    ApiQuery(query): ApiQuery<CallbackQuery>,
) -> ApiResult<Response> {
    finish(&state, &provider, &headers, query).await
}

#[derive(utoipa::ToSchema)]
#[allow(dead_code)]
pub struct CallbackForm {
    code: String,
    state: String,
    error: Option<String>,
    /// Apple only, on the first sign-in: the person's name as JSON.
    user: Option<String>,
}

/// The callback as a form POST (`response_mode=form_post`, which Apple uses); answers as the GET.
#[utoipa::path(post, path = "/api/auth/oidc/{provider}/callback", tag = "accounts",
    params(("provider" = ProviderId, Path, description = "The provider")),
    request_body(content = CallbackForm, content_type = "application/x-www-form-urlencoded"),
    responses((status = 302, description = "To the app's /auth/callback or /signup?oidc=…"),
        (status = 400, description = "Forged, used or expired state; an ID token that does not check out"),
        (status = 404, description = "Provider not configured"), (status = 503, description = "The provider could not be reached")))]
pub async fn callback_form(
    State(state): State<AppState>,
    ApiPath(provider): ApiPath<String>,
    headers: HeaderMap,
    RawBody(body): RawBody,
) -> ApiResult<Response> {
    let mut query = CallbackQuery::default();
    for (key, value) in form_urlencoded::parse(&body) {
        match key.as_ref() {
            "code" => query.code = value.into_owned(),
            "state" => query.state = value.into_owned(),
            "error" => query.error = Some(value.into_owned()),
            "user" => query.user = Some(value.into_owned()),
            _ => {}
        }
    }
    finish(&state, &provider, &headers, query).await
}

async fn finish(state: &AppState, provider: &str, headers: &HeaderMap, query: CallbackQuery) -> ApiResult<Response> {
    let mut response = finish_bound(state, provider, headers, query).await?;
    // Whatever came of it, this sign-in is over.
    response.headers_mut().insert(header::SET_COOKIE, binding_cookie(state, "", 0));
    Ok(response)
}

async fn finish_bound(
    state: &AppState,
    provider: &str,
    headers: &HeaderMap,
    query: CallbackQuery,
) -> ApiResult<Response> {
    let (id, provider) = configured(state, provider)?;
    let expired = || ApiError::BadRequest("This sign-in is invalid or has expired. Please start again.".into());
    if query.state.is_empty() || bound_state(headers) != Some(query.state.as_str()) {
        return Err(expired());
    }
    let login = identities::take_login(&state.db, &secrets::token_hash(&query.state), id.as_str(), Timestamp::now())
        .await?
        .ok_or_else(expired)?;
    if query.error.is_some() {
        return Ok(refused(&format!("Signing in with {} was cancelled.", id.display_name())));
    }
    let mut identity = match provider.identify(&query.code, &login.pkce_verifier, &login.nonce).await {
        Ok(identity) => identity,
        Err(SignInError::NotConfirmed(reason)) => {
            tracing::warn!(provider = id.as_str(), %reason, "sign-in not confirmed");
            return Err(ApiError::BadRequest(format!(
                "{} could not confirm who signed in. Please try again.",
                id.display_name()
            )));
        }
        Err(error) => return Err(unavailable(id, error)),
    };
    if let Some(user) = query.user.as_deref() {
        fill_apple_names(&mut identity, user);
    }
    arrive(state, id, identity, &login.redirect_path).await
}

/// The person the provider vouched for: signs in, is linked, is refused or goes to sign-up.
async fn arrive(state: &AppState, id: ProviderId, identity: ProviderIdentity, redirect: &str) -> ApiResult<Response> {
    let provider = id.display_name();
    if let Some(user_id) = identities::identity_owner(&state.db, id.as_str(), &identity.subject).await? {
        let Some(user) = users::user_by_id(&state.db, user_id).await? else {
            return Ok(refused("This account no longer exists."));
        };
        return signed_in(state, user, redirect).await;
    }
    let email = identity.email.as_deref().and_then(|email| validation::normalize_email(email).ok());
    let Some(email) = email else {
        return Ok(refused(&format!(
            "{provider} did not share your email address, so we cannot sign you in. Allow Taskhub to see it and try again."
        )));
    };
    if let Some(user) = users::user_by_email(&state.db, &email).await? {
        if !may_link(&identity, user.email_verified) {
            return Ok(refused(&format!(
                "An account with {email} already exists. We link {provider} to it only once both {provider} and Taskhub \
                 have confirmed the address: sign in with your password (and confirm your email if asked), then try again."
            )));
        }
        if !identities::link(&state.db, user.id, id.as_str(), &identity.subject, Some(&email), Timestamp::now()).await?
        {
            return Ok(refused(&format!("Your Taskhub account is already linked to another {provider} account.")));
        }
        return signed_in(state, user, redirect).await;
    }
    let token = secrets::new_token();
    let (first_name, last_name) = names_for(&identity, &email);
    let now = Timestamp::now();
    identities::insert_signup(
        &state.db,
        &NewSignup {
            token_hash: &secrets::token_hash(&token),
            provider: id.as_str(),
            subject: &identity.subject,
            email: &email,
            email_verified: identity.email_verified,
            first_name: &first_name,
            last_name: &last_name,
            redirect_path: redirect,
            now,
            expires_at: now.plus(SIGNUP_TTL),
        },
    )
    .await?;
    let query: String = form_urlencoded::Serializer::new(String::new())
        .append_pair("oidc", &token)
        .append_pair("provider", id.as_str())
        .append_pair("email", &email)
        .append_pair("first_name", &first_name)
        .append_pair("last_name", &last_name)
        .finish();
    Ok(found(&format!("/signup?{query}")))
}

async fn signed_in(state: &AppState, user: users::UserRow, redirect: &str) -> ApiResult<Response> {
    match refuse_suspended(state, user.id).await {
        Err(ApiError::AccountSuspended(message)) => return Ok(refused(&message)),
        other => other?,
    }
    let session = start_session(state, user).await?;
    let fragment: String = form_urlencoded::Serializer::new(String::new())
        .append_pair("refresh_token", &session.refresh_token)
        .append_pair("redirect", redirect)
        .finish();
    Ok(found(&format!("/auth/callback#{fragment}")))
}

/// The app's callback page shows the message; nothing was signed in or changed.
fn refused(message: &str) -> Response {
    let fragment: String = form_urlencoded::Serializer::new(String::new()).append_pair("error", message).finish();
    found(&format!("/auth/callback#{fragment}"))
}

/// Apple sends the name once, beside the ID token rather than in it.
fn fill_apple_names(identity: &mut ProviderIdentity, user: &str) {
    #[derive(Deserialize)]
    struct AppleUser {
        name: Option<AppleName>,
    }
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct AppleName {
        first_name: Option<String>,
        last_name: Option<String>,
    }
    if let Ok(AppleUser { name: Some(name) }) = serde_json::from_str::<AppleUser>(user) {
        identity.first_name = identity.first_name.take().or(name.first_name);
        identity.last_name = identity.last_name.take().or(name.last_name);
    }
}

#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(default)]
pub struct CompleteSignupRequest {
    /// The `oidc` value of the `/signup?oidc=…` link.
    pub token: String,
    pub account_type: Option<AccountType>,
    pub skills: Vec<Skill>,
}

/// A new person who came back from a provider chooses customer or tasker (skills required for
/// taskers, 422): the account is created without a password, the identity linked, and a
/// session starts (201). A used, unknown or expired token: 400; the address taken meanwhile: 409.
#[utoipa::path(post, path = "/api/auth/oidc/complete-signup", tag = "accounts", request_body = CompleteSignupRequest,
    responses((status = 201, body = SessionResponse), (status = 400, description = "Invalid or used sign-up token"),
        (status = 409, description = "Email taken"), (status = 422, description = "Invalid fields"), (status = 429)))]
pub async fn complete_signup(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    ApiJson(request): ApiJson<CompleteSignupRequest>,
) -> ApiResult<(StatusCode, ApiJson<SessionResponse>)> {
    state.auth_limits.check("signup", ip, None).await?;
    let mut fields = FieldErrors::new();
    let account_type = match request.account_type {
        Some(account_type) => account_type,
        None => {
            fields.insert("account_type".into(), "Please choose how you will use Taskhub".into());
            AccountType::Customer
        }
    };
    let skills = match validation::clean_skills(&request.skills) {
        Ok(skills) if skills.is_empty() && account_type == AccountType::Tasker => {
            fields.insert("skills".into(), "Please add at least one skill".into());
            skills
        }
        Ok(skills) => skills,
        Err(message) => {
            fields.insert("skills".into(), message);
            Vec::new()
        }
    };
    ApiError::check_fields(fields)?;
    let invalid = || ApiError::BadRequest("This sign-up link is invalid or has expired. Please sign in again.".into());
    let token_hash = secrets::token_hash(request.token.trim());
    let now = Timestamp::now();
    let pending = identities::pending_signup(&state.db, &token_hash, now).await?.ok_or_else(invalid)?;
    let account = NewAccount {
        id: new_id(),
        email: pending.email.clone(),
        // Nobody knows this password: the account signs in through its provider until its
        // owner sets one with a reset link.
        password_hash: password::hash(secrets::new_token()).await?,
        email_verified: pending.email_verified,
        first_name: pending.first_name.clone(),
        last_name: pending.last_name.clone(),
        company_name: None,
        phone: None,
        location: None,
        bio: None,
        avatar_url: None,
        account_type: account_type.as_str(),
        is_tasker: account_type == AccountType::Tasker,
        skills_json: serde_json::to_string(&skills).map_err(anyhow::Error::from)?,
        created_at: now,
    };
    let user = identities::complete_signup(&state.db, &token_hash, now, &account, &pending.provider, &pending.subject)
        .await
        .map_err(|error| match error {
            SignupError::InvalidToken => invalid(),
            SignupError::EmailTaken => ApiError::Conflict("An account with this email already exists".into()),
            SignupError::Database(error) => error.into(),
        })?;
    if !user.email_verified
        && let Err(error) = send_verification_email(&state, &user).await
    {
        tracing::error!(error = ?error, "could not send the verification email");
    }
    Ok((StatusCode::CREATED, ApiJson(start_session(&state, user).await?)))
}
