//! A tasker's portfolio: up to 12 pictures of past work with a title and a description, shown
//! on their public profile in the order they chose.

use axum::{
    Router,
    extract::{DefaultBodyLimit, State},
    http::StatusCode,
    routing::{patch, post},
};
use serde::{Deserialize, Deserializer};
use uuid::Uuid;

use domain::{media::photos::PhotoKey, wire::accounts::PortfolioItemView};
use store::{
    db::{Timestamp, new_id},
    portfolio::{self, ItemChanges, PortfolioRow},
    profiles,
};

use crate::http::{
    error::{ApiError, ApiResult, FieldErrors},
    extract::{ApiJson, ApiMultipart, ApiPath, AuthUser},
    state::AppState,
    uploads::{self, PHOTO_BODY_LIMIT, PhotoForm},
};

/// The most items one portfolio holds.
pub const MAX_PORTFOLIO_ITEMS: i64 = 12;
/// Portfolio uploads per account per hour: a whole portfolio in one sitting, with retries.
const PORTFOLIO_UPLOADS_PER_HOUR: u32 = 36;
const MAX_TITLE_CHARS: usize = 80;
const MAX_DESCRIPTION_CHARS: usize = 500;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/me/portfolio", post(add_portfolio_item).layer(DefaultBodyLimit::max(PHOTO_BODY_LIMIT)))
        .route("/me/portfolio/{id}", patch(update_portfolio_item).delete(delete_portfolio_item))
}

/// The form of `POST /api/me/portfolio` (it only describes the request in the OpenAPI document).
#[derive(utoipa::ToSchema)]
#[allow(dead_code)]
pub struct PortfolioUpload {
    /// The picture: JPEG, PNG, WebP or GIF, at most 10 MB and 16 megapixels. Stored re-encoded,
    /// without its metadata (EXIF, XMP, IPTC).
    #[schema(value_type = String, format = Binary)]
    file: Vec<u8>,
    /// 1-80 characters.
    title: String,
    /// At most 500 characters.
    description: Option<String>,
}

fn title(fields: &mut FieldErrors, text: &str) -> String {
    let text = text.trim();
    if text.is_empty() || text.chars().count() > MAX_TITLE_CHARS {
        fields.insert("title".into(), "Please give the item a title (up to 80 characters)".into());
    }
    text.to_owned()
}

fn description(fields: &mut FieldErrors, text: Option<&str>) -> Option<String> {
    let text = text.map(str::trim).filter(|text| !text.is_empty())?;
    if text.chars().count() > MAX_DESCRIPTION_CHARS {
        fields.insert("description".into(), "Descriptions can be up to 500 characters".into());
    }
    Some(text.to_owned())
}

fn not_found() -> ApiError {
    ApiError::not_found("Portfolio item")
}

fn full() -> ApiError {
    ApiError::field("file", "A portfolio can hold at most 12 items; delete one to add another")
}

/// Adds an item at the end of the caller's portfolio (multipart `file`, `title`, `description?`):
/// not a tasker 403, a 13th item, a missing title or not an image 422, too large 413, too many
/// uploads this hour 429.
#[utoipa::path(post, path = "/api/me/portfolio", tag = "accounts", security(("bearer" = [])),
    request_body(content = PortfolioUpload, content_type = "multipart/form-data"),
    responses((status = 201, body = PortfolioItemView), (status = 400), (status = 401), (status = 403),
        (status = 413), (status = 422), (status = 429), (status = 503)))]
pub async fn add_portfolio_item(
    State(state): State<AppState>,
    caller: AuthUser,
    ApiMultipart(multipart): ApiMultipart,
) -> ApiResult<(StatusCode, ApiJson<PortfolioItemView>)> {
    let profile = profiles::profile(&state.db, caller.id).await?.ok_or_else(|| ApiError::not_found("Profile"))?;
    if !profile.is_tasker {
        return Err(ApiError::Forbidden("Only taskers have a portfolio".into()));
    }
    if portfolio::items_of(&state.db, caller.id).await?.len() as i64 >= MAX_PORTFOLIO_ITEMS {
        return Err(full());
    }
    uploads::check_upload_rate(&state, "portfolio", caller.id, PORTFOLIO_UPLOADS_PER_HOUR).await?;
    let mut form = PhotoForm::read(multipart).await?;
    let mut fields = FieldErrors::new();
    let title = title(&mut fields, form.text.get("title").map_or("", String::as_str));
    let description = description(&mut fields, form.text.get("description").map(String::as_str));
    if form.file.is_none() {
        fields.insert("file".into(), "Please choose an image to upload".into());
    }
    ApiError::check_fields(fields)?;
    let bytes = form.required_file()?;
    let now = Timestamp::now();
    let item = PortfolioRow {
        id: new_id(),
        user_id: caller.id,
        title,
        description,
        position: 0,
        created_at: now,
        updated_at: now,
    };
    let key = PhotoKey::Portfolio(item.id);
    uploads::store_photo(&state, key, bytes).await?;
    let added = portfolio::add_item(&state.db, &item, MAX_PORTFOLIO_ITEMS).await;
    if !matches!(added, Ok(true)) {
        state.media.delete_photo(key).await;
    }
    if !added? {
        return Err(full());
    }
    Ok((StatusCode::CREATED, ApiJson(PortfolioItemView::from(&item))))
}

/// A field that may be absent (leave alone), null or blank (clear), or a value.
fn present<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Option<String>>, D::Error> {
    Option::<String>::deserialize(deserializer).map(Some)
}

#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(default)]
pub struct PortfolioPatch {
    /// 1-80 characters.
    pub title: Option<String>,
    /// At most 500 characters; null or blank clears it.
    #[serde(deserialize_with = "present")]
    pub description: Option<Option<String>>,
    /// The item's new place in the portfolio, from 0 (first); past the end means last.
    #[schema(minimum = 0)]
    pub position: Option<i64>,
}

/// Edits one of the caller's items, or moves it (`position`): not theirs 404, bad fields 422.
#[utoipa::path(patch, path = "/api/me/portfolio/{id}", tag = "accounts", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The portfolio item")), request_body = PortfolioPatch,
    responses((status = 200, body = PortfolioItemView), (status = 401), (status = 404), (status = 422)))]
pub async fn update_portfolio_item(
    State(state): State<AppState>,
    caller: AuthUser,
    ApiPath(id): ApiPath<Uuid>,
    ApiJson(patch): ApiJson<PortfolioPatch>,
) -> ApiResult<ApiJson<PortfolioItemView>> {
    let mut fields = FieldErrors::new();
    let changes = ItemChanges {
        title: patch.title.map(|text| title(&mut fields, &text)),
        description: patch.description.map(|text| description(&mut fields, text.as_deref())),
        position: match patch.position {
            None => None,
            Some(position) => match usize::try_from(position) {
                Ok(position) => Some(position),
                Err(_) => {
                    fields.insert("position".into(), "Position must be 0 or more".into());
                    None
                }
            },
        },
    };
    ApiError::check_fields(fields)?;
    if !portfolio::update_item(&state.db, caller.id, id, &changes, Timestamp::now()).await? {
        return Err(not_found());
    }
    let items = portfolio::items_of(&state.db, caller.id).await?;
    let item = items.iter().find(|item| item.id == id).ok_or_else(not_found)?;
    Ok(ApiJson(PortfolioItemView::from(item)))
}

/// Deletes one of the caller's items and its pictures: not theirs 404.
#[utoipa::path(delete, path = "/api/me/portfolio/{id}", tag = "accounts", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The portfolio item")),
    responses((status = 204), (status = 401), (status = 404)))]
pub async fn delete_portfolio_item(
    State(state): State<AppState>,
    caller: AuthUser,
    ApiPath(id): ApiPath<Uuid>,
) -> ApiResult<StatusCode> {
    if !portfolio::delete_item(&state.db, caller.id, id).await? {
        return Err(not_found());
    }
    state.media.delete_photo(PhotoKey::Portfolio(id)).await;
    Ok(StatusCode::NO_CONTENT)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_are_required_and_bounded() {
        let mut fields = FieldErrors::new();
        assert_eq!(title(&mut fields, "  Deck rebuild "), "Deck rebuild");
        assert!(fields.is_empty());
        title(&mut fields, "   ");
        assert!(fields.contains_key("title"));
        let mut fields = FieldErrors::new();
        title(&mut fields, &"x".repeat(81));
        assert!(fields.contains_key("title"));
    }

    #[test]
    fn blank_descriptions_are_none_and_long_ones_refused() {
        let mut fields = FieldErrors::new();
        assert_eq!(description(&mut fields, Some("  ")), None);
        assert_eq!(description(&mut fields, None), None);
        assert!(fields.is_empty());
        description(&mut fields, Some(&"y".repeat(501)));
        assert!(fields.contains_key("description"));
    }
}
