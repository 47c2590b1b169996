//! Photos: portfolio items, task photos and message photos. Each upload is stored twice, as a
//! JPEG of at most `FULL_SIDE` px and a thumbnail of at most `THUMB_SIDE` px, both made once at
//! upload from the decoded pixels alone (no EXIF/XMP/IPTC survives re-encoding).
//!
//! Keys name the row the photo belongs to: `portfolio/{id}`, `tasks/{id}` (public by their
//! unguessable id, served by `/media`) and `private/messages/{id}` (never served by `/media`; only
//! by the authorized message route).

use bytes::Bytes;
use image::{DynamicImage, RgbaImage, imageops::FilterType};
use uuid::Uuid;

use crate::media::{AvatarError, Media, decode_upright, to_jpeg};

pub const MAX_PHOTO_BYTES: usize = 10 * 1024 * 1024;
const FULL_SIDE: u32 = 1600;
const THUMB_SIDE: u32 = 480;
/// Keys under this prefix are never served by the public `/media` route.
const PRIVATE_PREFIX: &str = "private/";

/// Where a photo belongs, which names its objects in the store.
#[derive(Clone, Copy, Debug)]
pub enum PhotoKey {
    Portfolio(Uuid),
    Task(Uuid),
    Message(Uuid),
}

impl PhotoKey {
    fn stem(self) -> String {
        match self {
            Self::Portfolio(id) => format!("portfolio/{id}"),
            Self::Task(id) => format!("tasks/{id}"),
            Self::Message(id) => format!("{PRIVATE_PREFIX}messages/{id}"),
        }
    }

    pub fn full_key(self) -> String {
        format!("{}.jpg", self.stem())
    }

    pub fn thumb_key(self) -> String {
        format!("{}_thumb.jpg", self.stem())
    }

    /// The public URL of the full picture (not for message photos, which have no public URL).
    pub fn public_url(self) -> String {
        format!("/media/{}", self.full_key())
    }

    pub fn public_thumb_url(self) -> String {
        format!("/media/{}", self.thumb_key())
    }
}

/// Whether `/media` may serve this key to anyone.
pub fn is_public_key(key: &str) -> bool {
    !key.starts_with(PRIVATE_PREFIX)
}

/// The task photo a `/media` key names (`tasks/{id}.jpg` or its thumbnail), if it is one.
pub fn task_photo_of_key(key: &str) -> Option<Uuid> {
    let name = key.strip_prefix("tasks/")?;
    let stem = name.strip_suffix("_thumb.jpg").or_else(|| name.strip_suffix(".jpg"))?;
    Uuid::parse_str(stem).ok()
}

/// The two JPEGs made of one upload.
#[derive(Debug)]
pub struct Photo {
    pub full: Vec<u8>,
    pub thumb: Vec<u8>,
}

/// Checks and re-encodes an uploaded photo (see `decode_upright` for the checks).
pub fn normalize_photo(bytes: &[u8]) -> anyhow::Result<Photo> {
    if bytes.len() > MAX_PHOTO_BYTES {
        return Err(AvatarError::PhotoTooLarge.into());
    }
    let image = decode_upright(bytes)?;
    let full = fit_within(&image, FULL_SIDE);
    drop(image);
    let (thumb_width, thumb_height) = scaled(full.width(), full.height(), THUMB_SIDE);
    let thumb = image::imageops::thumbnail(&full, thumb_width, thumb_height);
    Ok(Photo { full: to_jpeg(&full)?, thumb: to_jpeg(&thumb)? })
}

/// `(width, height)` scaled down (never up) to fit in a `side` × `side` box, keeping the aspect.
fn scaled(width: u32, height: u32, side: u32) -> (u32, u32) {
    let longest = width.max(height);
    if longest <= side {
        return (width, height);
    }
    let scale = |length: u32| ((u64::from(length) * u64::from(side) / u64::from(longest)) as u32).max(1);
    (scale(width), scale(height))
}

fn fit_within(image: &DynamicImage, side: u32) -> RgbaImage {
    let (width, height) = scaled(image.width(), image.height(), side);
    if (width, height) == (image.width(), image.height()) {
        return image.to_rgba8();
    }
    image.resize_exact(width, height, FilterType::Triangle).into_rgba8()
}

impl Media {
    /// Re-encodes the upload and stores the picture and its thumbnail under `key`.
    /// At most one decode per CPU runs at a time; the others wait their turn (503 after a while).
    pub async fn store_photo(&self, key: PhotoKey, bytes: Bytes) -> anyhow::Result<()> {
        let photo = self.decode_in_slot(move || normalize_photo(&bytes)).await?;
        self.put(&key.full_key(), photo.full).await?;
        self.put(&key.thumb_key(), photo.thumb).await
    }

    /// Removes both objects of a photo whose row is gone. A failure is logged, not returned: the
    /// row (what makes the picture appear anywhere) is already deleted.
    pub async fn delete_photo(&self, key: PhotoKey) {
        for object in [key.full_key(), key.thumb_key()] {
            if let Err(error) = self.delete(&object).await {
                tracing::warn!(%error, object, "could not delete a photo from the media store");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::io::Cursor;

    use image::ImageFormat;

    use super::*;

    fn png(width: u32, height: u32) -> Vec<u8> {
        let image = image::RgbaImage::from_pixel(width, height, image::Rgba([200, 30, 30, 255]));
        let mut out = Cursor::new(Vec::new());
        image.write_to(&mut out, ImageFormat::Png).unwrap();
        out.into_inner()
    }

    fn size(jpeg: &[u8]) -> (u32, u32) {
        assert_eq!(image::guess_format(jpeg).unwrap(), ImageFormat::Jpeg);
        let decoded = image::load_from_memory(jpeg).unwrap();
        (decoded.width(), decoded.height())
    }

    #[test]
    fn large_photos_are_scaled_down_keeping_their_shape() {
        let photo = normalize_photo(&png(3200, 2000)).unwrap();
        assert_eq!(size(&photo.full), (1600, 1000));
        assert_eq!(size(&photo.thumb), (480, 300));
    }

    #[test]
    fn small_photos_are_never_enlarged() {
        let photo = normalize_photo(&png(300, 200)).unwrap();
        assert_eq!(size(&photo.full), (300, 200));
        assert_eq!(size(&photo.thumb), (300, 200));
    }

    #[test]
    fn non_images_and_oversized_files_are_refused() {
        let error = normalize_photo(b"not a picture").unwrap_err();
        assert!(matches!(error.downcast_ref(), Some(AvatarError::NotAnImage)), "{error:?}");
        let mut huge = png(8, 8);
        huge.resize(MAX_PHOTO_BYTES + 1, 0);
        let error = normalize_photo(&huge).unwrap_err();
        assert!(matches!(error.downcast_ref(), Some(AvatarError::PhotoTooLarge)), "{error:?}");
    }

    #[test]
    fn message_photos_are_never_public() {
        let id = Uuid::now_v7();
        assert!(!is_public_key(&PhotoKey::Message(id).full_key()));
        assert!(!is_public_key(&PhotoKey::Message(id).thumb_key()));
        assert!(is_public_key(&PhotoKey::Task(id).thumb_key()));
        assert!(is_public_key(&PhotoKey::Portfolio(id).full_key()));
    }
}
