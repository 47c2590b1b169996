//! Sign-up, email verification, sign-in, sessions and password recovery.

use std::time::Duration;

use axum::{Router, extract::State, http::StatusCode, routing::post};
use realtime::{CLOSE_UNAUTHORIZED, Disconnect};
use serde::Deserialize;
use uuid::Uuid;

use domain::{
    accounts::validation::{self, AccountType, Skill},
    auth::{access::ACCESS_TOKEN_TTL, password, secrets},
    mail::Email,
    moderation::actions::suspended_message,
    wire::{
        accounts::{ProfileView, UserView},
        sessions::{MessageResponse, SessionResponse, SignupResponse, UserResponse},
    },
};
use store::{
    db::{Timestamp, new_id},
    email_tokens::{self, Purpose},
    moderation, profiles,
    refresh_tokens::{self, NewRefreshToken, Rotation},
    users::{self, CreateAccountError, NewAccount, UserRow},
};

use crate::http::{
    error::{ApiError, ApiResult, FieldErrors},
    extract::{ApiJson, ClientIp, Operator, RawBody},
    state::AppState,
};

const REFRESH_TOKEN_TTL: Duration = Duration::from_secs(30 * 24 * 3600);
const VERIFY_EMAIL_TTL: Duration = Duration::from_secs(24 * 3600);
const RESET_PASSWORD_TTL: Duration = Duration::from_secs(3600);

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/auth/signup", post(signup))
        .route("/auth/verify", post(verify_email))
        .route("/auth/resend-verification", post(resend_verification))
        .route("/auth/login", post(login))
        .route("/auth/refresh", post(refresh))
        .route("/auth/logout", post(logout))
        .route("/auth/recover", post(recover))
        .route("/auth/reset", post(reset_password))
}

#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(default)]
pub struct SignupRequest {
    pub email: String,
    pub password: String,
    pub first_name: String,
    pub last_name: String,
    pub company_name: Option<String>,
    pub phone: Option<String>,
    pub location: Option<String>,
    pub bio: Option<String>,
    pub account_type: Option<AccountType>,
    pub skills: Vec<Skill>,
    /// A URL returned by `POST /api/uploads/avatar`.
    pub avatar_url: Option<String>,
}

#[utoipa::path(post, path = "/api/auth/signup", tag = "accounts", request_body = SignupRequest,
    responses((status = 201, body = SignupResponse), (status = 409, description = "Email taken"), (status = 422, description = "Invalid fields"),
        (status = 429)))]
pub async fn signup(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    ApiJson(request): ApiJson<SignupRequest>,
) -> ApiResult<(StatusCode, ApiJson<SignupResponse>)> {
    state.auth_limits.check("signup", ip, Some(&request.email)).await?;
    let mut fields = FieldErrors::new();
    let first_name =
        validation::required_text(&mut fields, "first_name", &request.first_name, "First name is required");
    let last_name = validation::required_text(&mut fields, "last_name", &request.last_name, "Last name is required");
    let email = validation::normalize_email(&request.email)
        .map_err(|message| fields.insert("email".into(), message.into()))
        .ok();
    if let Err(message) = validation::check_new_password(&request.password) {
        fields.insert("password".into(), message.into());
    }
    let account_type = request.account_type.unwrap_or(AccountType::Customer);
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
    let company_name = validation::optional_text(&mut fields, "company_name", request.company_name.as_deref());
    validation::check_own_name(&mut fields, "first_name", Some(&first_name));
    validation::check_own_name(&mut fields, "last_name", Some(&last_name));
    validation::check_public_name(&mut fields, "company_name", company_name.as_deref());
    let phone = validation::optional_text(&mut fields, "phone", request.phone.as_deref());
    let location = validation::optional_text(&mut fields, "location", request.location.as_deref());
    let bio = validation::optional_text(&mut fields, "bio", request.bio.as_deref());
    let avatar_url = request.avatar_url.filter(|url| !url.trim().is_empty());
    if avatar_url.as_deref().is_some_and(|url| !is_uploaded_avatar(url)) {
        fields.insert("avatar_url".into(), "Please upload your picture through Taskhub".into());
    }
    ApiError::check_fields(fields)?;
    let email = email.expect("validated above");

    let account = NewAccount {
        id: new_id(),
        email,
        password_hash: password::hash(request.password).await?,
        email_verified: false,
        first_name,
        last_name,
        company_name,
        phone,
        location,
        bio,
        avatar_url,
        account_type: account_type.as_str(),
        is_tasker: account_type == AccountType::Tasker,
        skills_json: serde_json::to_string(&skills).map_err(anyhow::Error::from)?,
        created_at: Timestamp::now(),
    };
    let user = users::create_account(&state.db, &account).await.map_err(|error| match error {
        CreateAccountError::EmailTaken => ApiError::Conflict("An account with this email already exists".into()),
        CreateAccountError::Database(error) => error.into(),
    })?;
    if let Err(error) = send_verification_email(&state, &user).await {
        // The account exists; the user can ask for the link again.
        tracing::error!(error = ?error, "could not send the verification email");
    }
    let message = "Account created successfully. Please check your email to verify your account.";
    Ok((
        StatusCode::CREATED,
        ApiJson(SignupResponse { user: UserView::new(&user, Operator::user_is(&state.config, &user)), message }),
    ))
}

fn is_uploaded_avatar(url: &str) -> bool {
    url.strip_prefix("/media/avatars/").is_some_and(|name| {
        !name.is_empty()
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.')
            && !name.contains("..")
    })
}

/// Stores a one-time token for `purpose` and returns the web app link that carries it.
async fn one_time_link(
    state: &AppState,
    user_id: Uuid,
    purpose: Purpose,
    ttl: Duration,
    page: &str,
) -> anyhow::Result<String> {
    let token = secrets::new_token();
    let now = Timestamp::now();
    email_tokens::insert(&state.db, &secrets::token_hash(&token), user_id, purpose, now, now.plus(ttl)).await?;
    Ok(state.link(&format!("{page}?token={token}")))
}

pub(crate) async fn send_verification_email(state: &AppState, user: &UserRow) -> anyhow::Result<()> {
    let link = one_time_link(state, user.id, Purpose::VerifyEmail, VERIFY_EMAIL_TTL, "/verify-email").await?;
    let text = format!(
        "Welcome to Taskhub!\n\nPlease confirm your email address by opening this link:\n\n{link}\n\n\
         The link works once and expires in 24 hours. If you did not sign up, you can ignore this email.\n"
    );
    state.mailer.send(Email { to: &user.email, subject: "Confirm your Taskhub account", text, reply_to: None }).await
}

#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(default)]
pub struct TokenRequest {
    pub token: String,
}

#[utoipa::path(post, path = "/api/auth/verify", tag = "accounts", request_body = TokenRequest,
    responses((status = 200, body = UserResponse), (status = 400, description = "Invalid or used link"), (status = 422)))]
pub async fn verify_email(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<TokenRequest>,
) -> ApiResult<ApiJson<UserResponse>> {
    let invalid = || ApiError::BadRequest("This verification link is invalid or has expired.".into());
    let user_id = email_tokens::consume(
        &state.db,
        &secrets::token_hash(request.token.trim()),
        Purpose::VerifyEmail,
        Timestamp::now(),
    )
    .await?
    .ok_or_else(invalid)?;
    users::mark_email_verified(&state.db, user_id).await?;
    let user = users::user_by_id(&state.db, user_id).await?.ok_or_else(invalid)?;
    Ok(ApiJson(UserResponse { user: UserView::new(&user, Operator::user_is(&state.config, &user)) }))
}

#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(default)]
pub struct EmailRequest {
    pub email: String,
}

/// Sends a fresh verification link if the account exists and is unverified; always 202.
#[utoipa::path(post, path = "/api/auth/resend-verification", tag = "accounts", request_body = EmailRequest,
    responses((status = 202, body = MessageResponse), (status = 422, description = "Not an email address"), (status = 429)))]
pub async fn resend_verification(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    ApiJson(request): ApiJson<EmailRequest>,
) -> ApiResult<(StatusCode, ApiJson<MessageResponse>)> {
    let email = recovery_email(&state, ip, &request).await?;
    // Off the request path, so the response time does not tell whether the account exists.
    state.background.clone().spawn(async move {
        if let Ok(Some(user)) = users::user_by_email(&state.db, &email).await
            && !user.email_verified
            && let Err(error) = send_verification_email(&state, &user).await
        {
            tracing::error!(error = ?error, "could not resend the verification email");
        }
    });
    let message = "If that account is waiting for verification, we've sent a new link.";
    Ok((StatusCode::ACCEPTED, ApiJson(MessageResponse { message })))
}

#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(default)]
pub struct LoginRequest {
    pub email: String,
    pub password: String,
}

#[utoipa::path(post, path = "/api/auth/login", tag = "accounts", request_body = LoginRequest,
    responses((status = 200, body = SessionResponse), (status = 401, description = "Wrong credentials"),
              (status = 403, description = "email_not_confirmed or account_suspended"), (status = 422), (status = 429, description = "Too many attempts")))]
pub async fn login(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    ApiJson(request): ApiJson<LoginRequest>,
) -> ApiResult<ApiJson<SessionResponse>> {
    let mut fields = FieldErrors::new();
    let email = validation::normalize_email(&request.email)
        .map_err(|message| fields.insert("email".into(), message.into()))
        .ok();
    if request.password.is_empty() {
        fields.insert("password".into(), "Password is required".into());
    }
    ApiError::check_fields(fields)?;
    let email = email.expect("validated above");
    if let Some(delay) = state.auth_limits.check_login(ip, &email).await? {
        // Many addresses are trying this account: slow every attempt rather than lock the owner out.
        tokio::time::sleep(delay).await;
    }

    let user = users::user_by_email(&state.db, &email).await?;
    let stored_hash =
        user.as_ref().map_or_else(|| password::decoy_hash().to_owned(), |user| user.password_hash.clone());
    let password_ok =
        password::verify(request.password.chars().take(validation::PASSWORD_MAX_CHARS).collect(), stored_hash).await?;
    let user = match user {
        Some(user) if password_ok => user,
        _ => return Err(ApiError::Unauthorized("Invalid email or password".into())),
    };
    if state.config.require_email_verification && !user.email_verified {
        return Err(ApiError::EmailNotConfirmed);
    }
    refuse_suspended(&state, user.id).await?;
    Ok(ApiJson(start_session(&state, user).await?))
}

/// Starts a new session (a refresh-token family) for a user who has proved who they are: by
/// password here, or through a provider (`http/oidc.rs`).
pub(crate) async fn start_session(state: &AppState, user: UserRow) -> ApiResult<SessionResponse> {
    let refresh_token = secrets::new_token();
    let now = Timestamp::now();
    let family_id = new_id();
    refresh_tokens::insert(
        &state.db,
        &NewRefreshToken {
            user_id: user.id,
            family_id,
            token_hash: &secrets::token_hash(&refresh_token),
            now,
            expires_at: now.plus(REFRESH_TOKEN_TTL),
        },
    )
    .await?;
    session(state, user, family_id, refresh_token).await
}

/// The answer to a sign-in or refresh: an access token naming the session (`family_id`) and the refresh token.
async fn session(
    state: &AppState,
    user: UserRow,
    family_id: Uuid,
    refresh_token: String,
) -> ApiResult<SessionResponse> {
    let access = state.access_tokens.issue(user.id, family_id)?;
    let profile = match profiles::profile(&state.db, user.id).await? {
        Some(row) => Some(ProfileView::new(&row, &profiles::profile_stats(&state.db, user.id).await?)),
        None => None,
    };
    Ok(SessionResponse {
        access_token: access.token,
        refresh_token,
        token_type: "bearer",
        expires_in: ACCESS_TOKEN_TTL.as_secs(),
        expires_at: access.expires_at,
        user: UserView::new(&user, Operator::user_is(&state.config, &user)),
        profile,
    })
}

#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(default)]
pub struct RefreshRequest {
    pub refresh_token: String,
}

/// Exchanges a refresh token for a new session; the presented token stops working.
#[utoipa::path(post, path = "/api/auth/refresh", tag = "accounts", request_body = RefreshRequest,
    responses((status = 200, body = SessionResponse), (status = 401, description = "Expired, unknown or reused token"),
              (status = 403, description = "account_suspended"), (status = 422)))]
pub async fn refresh(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<RefreshRequest>,
) -> ApiResult<ApiJson<SessionResponse>> {
    // A suspended account's sessions were ended; say why rather than "expired".
    if let Some(owner) =
        moderation::refresh_token_owner(&state.db, &secrets::token_hash(request.refresh_token.trim())).await?
    {
        refuse_suspended(&state, owner).await?;
    }
    let new_token = secrets::new_token();
    let now = Timestamp::now();
    let rotation = refresh_tokens::rotate(
        &state.db,
        &secrets::token_hash(request.refresh_token.trim()),
        &secrets::token_hash(&new_token),
        now,
        now.plus(REFRESH_TOKEN_TTL),
    )
    .await?;
    match rotation {
        Rotation::Rotated { user_id, family_id } => {
            let user = users::user_by_id(&state.db, user_id)
                .await?
                .ok_or_else(|| ApiError::Unauthorized("Authentication error. Please log in again.".into()))?;
            Ok(ApiJson(session(&state, user, family_id, new_token).await?))
        }
        Rotation::ReuseDetected { family_id } => {
            tracing::warn!(session = %family_id, "refresh token reuse detected; session family revoked");
            sessions_ended(&state, &[family_id]).await;
            Err(ApiError::Unauthorized("Your session is no longer valid. Please log in again.".into()))
        }
        Rotation::Invalid => Err(ApiError::Unauthorized("Your session has expired. Please log in again.".into())),
    }
}

/// 403 `account_suspended` with the message the login form shows, while a suspension is in
/// force (one past its end date has ended by itself).
pub(crate) async fn refuse_suspended(state: &AppState, user_id: Uuid) -> ApiResult<()> {
    match moderation::suspension_of(&state.db, user_id, Timestamp::now()).await? {
        Some(suspension) => Err(ApiError::AccountSuspended(suspended_message(suspension.suspended_until))),
        None => Ok(()),
    }
}

/// Ends the session the refresh token belongs to: its access tokens, live sockets and the push
/// devices it added. The body may be empty.
#[utoipa::path(post, path = "/api/auth/logout", tag = "accounts", request_body = RefreshRequest, responses((status = 204)))]
pub async fn logout(State(state): State<AppState>, RawBody(body): RawBody) -> ApiResult<StatusCode> {
    let request: RefreshRequest = if body.iter().all(u8::is_ascii_whitespace) {
        RefreshRequest::default()
    } else {
        serde_json::from_slice(&body).map_err(|error| ApiError::BadRequest(format!("Malformed JSON body: {error}")))?
    };
    if !request.refresh_token.trim().is_empty() {
        let family = refresh_tokens::revoke_family_of(
            &state.db,
            &secrets::token_hash(request.refresh_token.trim()),
            Timestamp::now(),
        )
        .await?;
        sessions_ended(&state, family.as_slice()).await;
    }
    Ok(StatusCode::NO_CONTENT)
}

/// What ended sessions opened ends now too: their access tokens (on this node at once, on the
/// others within `revocation::CACHE_FOR`) and their live sockets on every node (closed with
/// 4001). Their refresh tokens and push devices went in the transaction that revoked them.
async fn sessions_ended(state: &AppState, sessions: &[Uuid]) {
    state.sessions.mark_revoked(sessions);
    for session in sessions {
        state.hub.disconnect(Disconnect::Session(session.to_string()), CLOSE_UNAUTHORIZED).await;
    }
}

/// The address of a recovery request (reset or new verification link); both count against one budget.
async fn recovery_email(state: &AppState, ip: std::net::IpAddr, request: &EmailRequest) -> ApiResult<String> {
    state.auth_limits.check("recover", ip, Some(&request.email)).await?;
    validation::normalize_email(&request.email)
        .map_err(|_| ApiError::field("email", "Please enter a valid email address"))
}

/// Always 202, whether or not the account exists (no account enumeration).
#[utoipa::path(post, path = "/api/auth/recover", tag = "accounts", request_body = EmailRequest,
    responses((status = 202, body = MessageResponse), (status = 422, description = "Not an email address"), (status = 429)))]
pub async fn recover(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    ApiJson(request): ApiJson<EmailRequest>,
) -> ApiResult<(StatusCode, ApiJson<MessageResponse>)> {
    let email = recovery_email(&state, ip, &request).await?;
    state.background.clone().spawn(async move {
        if let Err(error) = send_reset_email(&state, &email).await {
            tracing::error!(error = ?error, "could not send the password reset email");
        }
    });
    let message = "If an account exists for that email, we've sent password reset instructions.";
    Ok((StatusCode::ACCEPTED, ApiJson(MessageResponse { message })))
}

async fn send_reset_email(state: &AppState, email: &str) -> anyhow::Result<()> {
    let Some(user) = users::user_by_email(&state.db, email).await? else { return Ok(()) };
    let link = one_time_link(state, user.id, Purpose::ResetPassword, RESET_PASSWORD_TTL, "/reset-password").await?;
    let text = format!(
        "Someone asked to reset the password of your Taskhub account.\n\nChoose a new password here:\n\n{link}\n\n\
         The link works once and expires in 1 hour. If it wasn't you, ignore this email: your password stays as it is.\n"
    );
    state.mailer.send(Email { to: &user.email, subject: "Reset your Taskhub password", text, reply_to: None }).await
}

#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(default)]
pub struct ResetRequest {
    pub token: String,
    pub password: String,
}

/// Sets a new password from an emailed link, signs the account out everywhere
/// (access tokens, live sockets and every push device included) and voids every
/// other reset link sent to it.
#[utoipa::path(post, path = "/api/auth/reset", tag = "accounts", request_body = ResetRequest,
    responses((status = 200, body = MessageResponse), (status = 400, description = "Bad or used token"), (status = 422)))]
pub async fn reset_password(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<ResetRequest>,
) -> ApiResult<ApiJson<MessageResponse>> {
    validation::check_new_password(&request.password).map_err(|message| ApiError::field("password", message))?;
    let user_id: Uuid = email_tokens::consume(
        &state.db,
        &secrets::token_hash(request.token.trim()),
        Purpose::ResetPassword,
        Timestamp::now(),
    )
    .await?
    .ok_or_else(|| ApiError::BadRequest("This password reset link is invalid or has expired.".into()))?;
    let hash = password::hash(request.password).await?;
    let ended = users::reset_password(&state.db, user_id, &hash, Timestamp::now()).await?;
    state.sessions.mark_revoked(&ended);
    // Every socket of the account, also one opened with a ticket that named no session.
    state.hub.disconnect(Disconnect::User(user_id.to_string()), CLOSE_UNAUTHORIZED).await;
    Ok(ApiJson(MessageResponse { message: "Your password has been successfully reset" }))
}
