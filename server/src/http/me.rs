//! The signed-in user's own account: profile, settings, avatar, becoming a tasker.

use axum::{
    Router,
    extract::{DefaultBodyLimit, Multipart, State, multipart::MultipartError},
    http::StatusCode,
    routing::{get, patch, post},
};
use serde::{Deserialize, Deserializer};

use domain::{
    accounts::validation::{self, Skill},
    media::{AvatarError, MAX_AVATAR_BYTES},
    wire::accounts::{AvatarResponse, MeResponse, ProfileView, UserView},
};
use store::{
    db::Timestamp,
    profiles::{self, ProfileChanges},
    users,
};

use crate::http::{
    error::{ApiError, ApiResult, FieldErrors},
    extract::{ApiJson, ApiMultipart, AuthUser, ClientIp, Operator},
    state::AppState,
};

pub fn router() -> Router<AppState> {
    let uploads = Router::new()
        .route("/me/avatar", post(upload_my_avatar))
        .route("/uploads/avatar", post(upload_signup_avatar))
        // Room for the 5 MB image plus multipart framing; the image limit itself is checked below.
        .layer(DefaultBodyLimit::max(MAX_AVATAR_BYTES + 64 * 1024));
    Router::new()
        .route("/me", get(me))
        .route("/me/profile", patch(update_profile))
        .route("/me/become-tasker", post(become_tasker))
        .merge(uploads)
}

#[utoipa::path(get, path = "/api/me", tag = "accounts", security(("bearer" = [])),
    responses((status = 200, body = MeResponse), (status = 401)))]
pub async fn me(State(state): State<AppState>, caller: AuthUser) -> ApiResult<ApiJson<MeResponse>> {
    let user = users::user_by_id(&state.db, caller.id)
        .await?
        .ok_or_else(|| ApiError::Unauthorized("Authentication error. Please log in again.".into()))?;
    Ok(ApiJson(MeResponse {
        user: UserView::new(&user, Operator::user_is(&state.config, &user)),
        profile: my_profile(&state, caller).await?,
    }))
}

async fn my_profile(state: &AppState, caller: AuthUser) -> ApiResult<ProfileView> {
    let row = profiles::profile(&state.db, caller.id)
        .await?
        .ok_or_else(|| ApiError::Unauthorized("Authentication error. Please log in again.".into()))?;
    let stats = profiles::profile_stats(&state.db, caller.id).await?;
    Ok(ProfileView::new(&row, &stats))
}

/// The verified number when `phone` is that number written another way, so saving the settings
/// form does not unverify it; any other number is unverified until confirmed by a code.
fn same_verified_number(state: &AppState, current: &ProfileView, phone: Option<String>) -> Option<String> {
    let verified = current.phone.as_deref().filter(|_| current.phone_verified);
    match (phone, verified) {
        (Some(text), Some(verified))
            if domain::verification::phone::parse_phone(&text, &state.config.sms_allowed_countries)
                .is_ok_and(|parsed| parsed.e164 == verified) =>
        {
            Some(verified.to_owned())
        }
        (phone, _) => phone,
    }
}

/// A field that may be absent (leave alone), null or blank (clear), or a value.
fn present<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Option<String>>, D::Error> {
    Option::<String>::deserialize(deserializer).map(Some)
}

#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(default)]
pub struct ProfilePatch {
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    #[serde(deserialize_with = "present")]
    pub display_name: Option<Option<String>>,
    #[serde(deserialize_with = "present")]
    pub phone: Option<Option<String>>,
    #[serde(deserialize_with = "present")]
    pub location: Option<Option<String>>,
    #[serde(deserialize_with = "present")]
    pub bio: Option<Option<String>>,
    pub skills: Option<Vec<Skill>>,
}

#[utoipa::path(patch, path = "/api/me/profile", tag = "accounts", request_body = ProfilePatch, security(("bearer" = [])),
    responses((status = 200, body = ProfileView), (status = 401), (status = 422)))]
pub async fn update_profile(
    State(state): State<AppState>,
    caller: AuthUser,
    ApiJson(patch): ApiJson<ProfilePatch>,
) -> ApiResult<ApiJson<ProfileView>> {
    let current = my_profile(&state, caller).await?;
    let mut fields = FieldErrors::new();
    let first_name = patch
        .first_name
        .map(|name| validation::required_text(&mut fields, "first_name", &name, "First name is required"));
    let last_name =
        patch.last_name.map(|name| validation::required_text(&mut fields, "last_name", &name, "Last name is required"));
    let mut optional = |field: &str, value: Option<Option<String>>| {
        value.map(|value| validation::optional_text(&mut fields, field, value.as_deref()))
    };
    let changes_display_name = optional("display_name", patch.display_name);
    let phone = optional("phone", patch.phone).map(|phone| same_verified_number(&state, &current, phone));
    let location = optional("location", patch.location);
    let bio = optional("bio", patch.bio);
    validation::check_own_name(&mut fields, "first_name", first_name.as_deref());
    validation::check_own_name(&mut fields, "last_name", last_name.as_deref());
    validation::check_public_name(
        &mut fields,
        "display_name",
        changes_display_name.as_ref().and_then(Option::as_deref),
    );
    let skills_json = match patch.skills.map(|skills| validation::clean_skills(&skills)) {
        None => None,
        Some(Ok(skills)) if skills.is_empty() && current.is_tasker => {
            fields.insert("skills".into(), "Please add at least one skill".into());
            None
        }
        Some(Ok(skills)) => Some(serde_json::to_string(&skills).map_err(anyhow::Error::from)?),
        Some(Err(message)) => {
            fields.insert("skills".into(), message);
            None
        }
    };
    ApiError::check_fields(fields)?;
    let changes =
        ProfileChanges { first_name, last_name, display_name: changes_display_name, phone, location, bio, skills_json };
    profiles::update_profile(&state.db, caller.id, &changes, Timestamp::now()).await?;
    Ok(ApiJson(my_profile(&state, caller).await?))
}

#[utoipa::path(post, path = "/api/me/become-tasker", tag = "accounts", security(("bearer" = [])),
    responses((status = 200, body = ProfileView), (status = 401)))]
pub async fn become_tasker(State(state): State<AppState>, caller: AuthUser) -> ApiResult<ApiJson<ProfileView>> {
    profiles::become_tasker(&state.db, caller.id, Timestamp::now()).await?;
    Ok(ApiJson(my_profile(&state, caller).await?))
}

/// The form both avatar uploads take (it only describes the request in the OpenAPI document).
#[derive(utoipa::ToSchema)]
#[allow(dead_code)]
pub struct AvatarUpload {
    /// The image: JPEG, PNG, WebP or GIF, at most 5 MB.
    #[schema(value_type = String, format = Binary)]
    file: Vec<u8>,
}

/// Multipart field `file`: an image of at most 5 MB and 16 megapixels, stored as a 512 px
/// square JPEG. Rate-limited per account and per client address (429).
#[utoipa::path(post, path = "/api/me/avatar", tag = "accounts", security(("bearer" = [])),
    request_body(content = AvatarUpload, content_type = "multipart/form-data"),
    responses((status = 200, body = AvatarResponse), (status = 401), (status = 413), (status = 422),
        (status = 429), (status = 503)))]
pub async fn upload_my_avatar(
    State(state): State<AppState>,
    caller: AuthUser,
    ClientIp(ip): ClientIp,
    ApiMultipart(multipart): ApiMultipart,
) -> ApiResult<ApiJson<AvatarResponse>> {
    state.auth_limits.check("avatar", ip, None).await?;
    state.auth_limits.check_account("avatar", caller.id).await?;
    let avatar_url = store_uploaded_avatar(&state, multipart).await?;
    profiles::set_avatar_url(&state.db, caller.id, &avatar_url, Timestamp::now()).await?;
    Ok(ApiJson(AvatarResponse { avatar_url }))
}

/// The sign-up form's picture, uploaded before the account exists; pass the
/// returned URL as `avatar_url` to `POST /api/auth/signup`. Rate-limited.
#[utoipa::path(post, path = "/api/uploads/avatar", tag = "accounts",
    request_body(content = AvatarUpload, content_type = "multipart/form-data"),
    responses((status = 201, body = AvatarResponse), (status = 413), (status = 422), (status = 429),
        (status = 503)))]
pub async fn upload_signup_avatar(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    ApiMultipart(multipart): ApiMultipart,
) -> ApiResult<(StatusCode, ApiJson<AvatarResponse>)> {
    state.auth_limits.check("upload", ip, None).await?;
    let avatar_url = store_uploaded_avatar(&state, multipart).await?;
    Ok((StatusCode::CREATED, ApiJson(AvatarResponse { avatar_url })))
}

async fn store_uploaded_avatar(state: &AppState, mut multipart: Multipart) -> ApiResult<String> {
    let not_an_image = || ApiError::field("file", &AvatarError::NotAnImage.to_string());
    let too_large = || ApiError::PayloadTooLarge(AvatarError::TooLarge.to_string());
    let multipart_error = |error: MultipartError| {
        if error.status() == StatusCode::PAYLOAD_TOO_LARGE {
            too_large()
        } else {
            ApiError::BadRequest(error.body_text())
        }
    };
    while let Some(field) = multipart.next_field().await.map_err(multipart_error)? {
        if field.name() != Some("file") {
            continue;
        }
        let bytes = field.bytes().await.map_err(multipart_error)?;
        if bytes.len() > MAX_AVATAR_BYTES {
            return Err(too_large());
        }
        return state.media.store_avatar(bytes).await.map_err(|error| match error.downcast_ref::<AvatarError>() {
            Some(AvatarError::TooLarge | AvatarError::PhotoTooLarge) => too_large(),
            Some(AvatarError::NotAnImage) => not_an_image(),
            Some(error @ AvatarError::TooManyPixels) => ApiError::field("file", &error.to_string()),
            Some(AvatarError::Busy) => ApiError::Unavailable,
            None => ApiError::Internal(error),
        });
    }
    Err(ApiError::field("file", "Please choose an image to upload"))
}
