//! Reading a photo upload (multipart `file` and text fields) and turning the media pipeline's
//! refusals into the API's errors. Shared by the portfolio, task photo and message routes.

use std::{collections::HashMap, time::Duration};

use axum::{
    extract::{Multipart, multipart::MultipartError},
    http::StatusCode,
};
use bytes::Bytes;
use uuid::Uuid;

use domain::{
    media::{
        AvatarError,
        photos::{MAX_PHOTO_BYTES, PhotoKey},
    },
    rate_limit::Limit,
};

use crate::http::{error::ApiError, state::AppState};

/// Room for the largest photo plus the form's text fields and framing.
pub const PHOTO_BODY_LIMIT: usize = MAX_PHOTO_BYTES + 64 * 1024;
/// Longest text field accepted in a photo form (the routes check their own, shorter limits).
const MAX_TEXT_FIELD: usize = 8 * 1024;

/// A submitted form: the `file` part (if any) and the text fields by name.
pub struct PhotoForm {
    pub file: Option<Bytes>,
    pub text: HashMap<String, String>,
}

impl PhotoForm {
    pub async fn read(mut multipart: Multipart) -> Result<Self, ApiError> {
        let mut form = PhotoForm { file: None, text: HashMap::new() };
        while let Some(field) = multipart.next_field().await.map_err(multipart_error)? {
            let name = field.name().unwrap_or_default().to_owned();
            if name == "file" {
                let bytes = field.bytes().await.map_err(multipart_error)?;
                if bytes.len() > MAX_PHOTO_BYTES {
                    return Err(too_large());
                }
                // An empty file input (nothing chosen) is no file.
                form.file = Some(bytes).filter(|bytes| !bytes.is_empty());
            } else {
                let text = field.text().await.map_err(multipart_error)?;
                if text.len() > MAX_TEXT_FIELD {
                    return Err(ApiError::field(&name, "This field is too long"));
                }
                if model::text::has_refused_control(&text) {
                    return Err(ApiError::field(&name, model::text::CONTROL_CHARACTERS));
                }
                form.text.insert(name, text);
            }
        }
        Ok(form)
    }

    /// The file, or a 422 on `file` asking for one.
    pub fn required_file(&mut self) -> Result<Bytes, ApiError> {
        self.file.take().ok_or_else(|| ApiError::field("file", "Please choose an image to upload"))
    }
}

fn too_large() -> ApiError {
    ApiError::PayloadTooLarge(AvatarError::PhotoTooLarge.to_string())
}

fn multipart_error(error: MultipartError) -> ApiError {
    if error.status() == StatusCode::PAYLOAD_TOO_LARGE { too_large() } else { ApiError::BadRequest(error.body_text()) }
}

/// Re-encodes and stores the photo under `key`: not an image or over 16 megapixels 422, too
/// large 413, every decoding slot busy 503.
pub async fn store_photo(state: &AppState, key: PhotoKey, bytes: Bytes) -> Result<(), ApiError> {
    state.media.store_photo(key, bytes).await.map_err(|error| match error.downcast_ref::<AvatarError>() {
        Some(AvatarError::TooLarge | AvatarError::PhotoTooLarge) => too_large(),
        Some(error @ (AvatarError::NotAnImage | AvatarError::TooManyPixels)) => {
            ApiError::field("file", &error.to_string())
        }
        Some(AvatarError::Busy) => ApiError::Unavailable,
        None => ApiError::Internal(error),
    })
}

/// Photo uploads per account per hour, by kind: enough for a whole portfolio (12) or a task's
/// six photos with room for retries in one sitting, not enough to use the store as free hosting.
pub async fn check_upload_rate(state: &AppState, kind: &str, account: Uuid, per_hour: u32) -> Result<(), ApiError> {
    let limit = Limit::new(per_hour, Duration::from_secs(3600));
    Ok(state.limiter.check(&format!("{kind}-uploads:account:{account}"), limit).await?)
}
