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
use serde::{Deserialize, Serialize};
use url::form_urlencoded;

use domain::{
    accounts::validation::{self, AccountType, Skill},
    auth::{password, secrets},
    mail::Email,
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
    auth::{refuse_suspended, start_session},
    error::{ApiError, ApiResult, FieldErrors},
    extract::{ApiJson, ApiPath, ApiQuery, ClientIp, RawBody},
    sign_in_handoff,
    state::AppState,
};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/auth/providers", get(list_providers))
        .route("/auth/oidc/{provider}/start", get(start))
        .route("/auth/oidc/{provider}/callback", get(callback).post(callback_form))
        .route("/auth/oidc/complete-signup", post(complete_signup))
        .route("/auth/oidc/confirm-signup", post(confirm_signup))
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
    sign_in_handoff::cookie(headers, BINDING_COOKIE)
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
/// goes to `/signup?oidc=…` to choose customer or tasker. A sign-in arrives at
/// `/auth/callback#code=…&redirect=…` with a handoff cookie (`redeem` turns the two into a
/// session); refusals at `/auth/callback#error=…`.
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
    response.headers_mut().append(header::SET_COOKIE, binding_cookie(state, "", 0));
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
    if let Some(owner) = identities::identity_owner(&state.db, id.as_str(), &identity.subject).await? {
        if !owner.address_confirmed {
            return Ok(refused(&format!(
                "This {provider} sign-in was linked before its email address was confirmed, so it can no longer \
                 sign you in. Sign in with your email and password, or reset your password (which removes it)."
            )));
        }
        let Some(user) = users::user_by_id(&state.db, owner.user_id).await? else {
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

/// Hands the sign-in to the app's callback page: a one-time code in the fragment, redeemed by the
/// page with a POST that carries the handoff cookie this answer sets. Only the browser that signed
/// in holds that cookie, so a callback link sent to someone else signs them in to nothing (login
/// CSRF), and no bearer token is ever in a URL.
async fn signed_in(state: &AppState, user: users::UserRow, redirect: &str) -> ApiResult<Response> {
    match refuse_suspended(state, user.id).await {
        Err(ApiError::AccountSuspended(message)) => return Ok(refused(&message)),
        other => other?,
    }
    let (code, cookie) = sign_in_handoff::issue(state, user.id).await?;
    let fragment: String = form_urlencoded::Serializer::new(String::new())
        .append_pair("code", &code)
        .append_pair("redirect", redirect)
        .finish();
    let mut response = found(&format!("/auth/callback#{fragment}"));
    response.headers_mut().append(header::SET_COOKIE, cookie);
    Ok(response)
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

/// No account yet: the provider did not verify the address, so we mailed a link to it.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ConfirmationSent {
    pub confirmation_sent: bool,
    pub email: String,
}

/// How long the mailed link of a sign-up waits to be opened.
const CONFIRM_SIGNUP_TTL: std::time::Duration = std::time::Duration::from_secs(24 * 3600);

/// A new person who came back from a provider chooses customer or tasker (skills required for
/// taskers, 422). When the provider verified the address, the account is created without a
/// password, the identity linked, and a session starts (201). When it did not, nothing is created
/// yet: a link goes to the address (202), and the account is made by `confirm-signup` from the
/// browser that signed up. A used, unknown or expired token: 400; the address taken meanwhile: 409.
#[utoipa::path(post, path = "/api/auth/oidc/complete-signup", tag = "accounts", request_body = CompleteSignupRequest,
    responses((status = 201, body = SessionResponse), (status = 202, body = ConfirmationSent),
        (status = 400, description = "Invalid or used sign-up token"),
        (status = 409, description = "Email taken"), (status = 422, description = "Invalid fields"), (status = 429)))]
pub async fn complete_signup(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    ApiJson(request): ApiJson<CompleteSignupRequest>,
) -> ApiResult<Response> {
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
    let token_hash = secrets::token_hash(request.token.trim());
    let now = Timestamp::now();
    let pending = identities::pending_signup(&state.db, &token_hash, now).await?.ok_or_else(invalid_signup)?;
    let skills_json = serde_json::to_string(&skills).map_err(anyhow::Error::from)?;
    if !pending.email_verified {
        // The provider did not vouch for the address: no account until our own mail is answered.
        let code = secrets::new_token();
        let (code_hash, kind, expires_at) =
            (secrets::token_hash(&code), account_type.as_str(), now.plus(CONFIRM_SIGNUP_TTL));
        if !identities::await_confirmation(&state.db, &token_hash, &code_hash, kind, &skills_json, now, expires_at)
            .await?
        {
            return Err(invalid_signup());
        }
        let provider = ProviderId::parse(&pending.provider).map_or("your provider", ProviderId::display_name);
        if let Err(error) = send_signup_confirmation(&state, &pending.email, &code, provider).await {
            tracing::error!(error = ?error, "could not send the sign-up confirmation email");
        }
        let sent = ConfirmationSent { confirmation_sent: true, email: pending.email };
        return Ok((StatusCode::ACCEPTED, ApiJson(sent)).into_response());
    }
    let signup = Confirmed {
        email: pending.email,
        first_name: pending.first_name,
        last_name: pending.last_name,
        account_type,
        skills_json,
        provider: pending.provider,
        subject: pending.subject,
    };
    create_account(&state, &token_hash, signup, now).await
}

fn invalid_signup() -> ApiError {
    ApiError::BadRequest("This sign-up link is invalid or has expired. Please sign in again.".into())
}

async fn send_signup_confirmation(state: &AppState, email: &str, code: &str, provider: &str) -> anyhow::Result<()> {
    let link = state.link(&format!("/signup/confirm?token={code}"));
    let text = format!(
        "Welcome to Taskhub!\n\nYou started creating a Taskhub account with {provider}. To finish, confirm that this \
         is your email address by opening this link in the same browser:\n\n{link}\n\n\
         The link works once and expires in 24 hours. If you did not sign up, ignore this email: no account is \
         created without it.\n"
    );
    state
        .mailer
        .send(Email { to: email, subject: "Confirm your email to finish signing up", text, reply_to: None })
        .await
}

#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(default)]
pub struct ConfirmSignupRequest {
    /// The `token` of the mailed `/signup/confirm?token=…` link.
    pub token: String,
    /// The `oidc` value of the `/signup?oidc=…` link, which only the browser that signed up holds.
    pub signup_token: String,
}

/// The mailed link of a sign-up whose address the provider did not verify, opened in the browser
/// that signed up: the account is created (its address confirmed) with the choice made before the
/// mail, the identity linked, and a session starts (201). Either token wrong, used or expired:
/// 400; the address taken meanwhile: 409.
#[utoipa::path(post, path = "/api/auth/oidc/confirm-signup", tag = "accounts", request_body = ConfirmSignupRequest,
    responses((status = 201, body = SessionResponse),
        (status = 400, description = "Invalid, used or expired link, or another browser"),
        (status = 409, description = "Email taken"), (status = 422, description = "A body that is not the request"),
        (status = 429)))]
pub async fn confirm_signup(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    ApiJson(request): ApiJson<ConfirmSignupRequest>,
) -> ApiResult<Response> {
    state.auth_limits.check("signup", ip, None).await?;
    let invalid = || {
        ApiError::BadRequest(
            "This confirmation link is invalid or has expired, or it was opened in another browser than the one you \
             signed up in. Please open it there, or sign in again."
                .into(),
        )
    };
    let (token_hash, code_hash) =
        (secrets::token_hash(request.signup_token.trim()), secrets::token_hash(request.token.trim()));
    let now = Timestamp::now();
    let waiting = identities::awaiting_signup(&state.db, &token_hash, &code_hash, now).await?.ok_or_else(invalid)?;
    let signup = Confirmed {
        email: waiting.email,
        first_name: waiting.first_name,
        last_name: waiting.last_name,
        account_type: AccountType::parse(&waiting.account_type),
        skills_json: waiting.skills_json,
        provider: waiting.provider,
        subject: waiting.subject,
    };
    create_account(&state, &token_hash, signup, now).await
}

/// A sign-up whose address is confirmed, by its provider or by our mail.
struct Confirmed {
    email: String,
    first_name: String,
    last_name: String,
    account_type: AccountType,
    skills_json: String,
    provider: String,
    subject: String,
}

/// Creates the account (without a password: it signs in through its provider until its owner
/// sets one with a reset link), links the identity, uses the sign-up token, and starts a session.
async fn create_account(state: &AppState, token_hash: &str, signup: Confirmed, now: Timestamp) -> ApiResult<Response> {
    let account = NewAccount {
        id: new_id(),
        email: signup.email,
        password_hash: password::hash(secrets::new_token()).await?,
        email_verified: true,
        first_name: signup.first_name,
        last_name: signup.last_name,
        company_name: None,
        phone: None,
        location: None,
        bio: None,
        avatar_url: None,
        account_type: signup.account_type.as_str(),
        is_tasker: signup.account_type == AccountType::Tasker,
        skills_json: signup.skills_json,
        created_at: now,
    };
    let user = identities::complete_signup(&state.db, token_hash, now, &account, &signup.provider, &signup.subject)
        .await
        .map_err(|error| match error {
            SignupError::InvalidToken => invalid_signup(),
            SignupError::EmailTaken => ApiError::Conflict("An account with this email already exists".into()),
            SignupError::Database(error) => error.into(),
        })?;
    Ok((StatusCode::CREATED, ApiJson(start_session(state, user).await?)).into_response())
}
