//! Uploaded media (avatars, portfolio items, task and message photos) in an object store: a
//! local directory by default, any object_store URL (e.g. `s3://bucket/prefix`) through `MEDIA_URL`.
//! Every image is sniffed, checked against the decompression-bomb limits, decoded (turned
//! upright by its EXIF orientation) and re-encoded, so no metadata (EXIF/XMP/IPTC: GPS
//! positions, camera serials) and nothing appended to the file survives.

pub mod photos;

use std::{io::Cursor, sync::Arc, time::Duration};

use anyhow::Context;
use bytes::Bytes;
use image::{DynamicImage, ImageDecoder, ImageFormat, ImageReader, imageops::FilterType, metadata::Orientation};
use object_store::{ObjectStore, PutPayload, local::LocalFileSystem, path::Path as StorePath};
use tokio::sync::Semaphore;
use uuid::Uuid;

use crate::config::Config;

pub const MAX_AVATAR_BYTES: usize = 5 * 1024 * 1024;
const AVATAR_SIDE: u32 = 512;
/// A few bytes of PNG can declare billions of pixels (a decompression bomb), so the size is
/// read from the header and checked before anything is decoded.
pub const MAX_SOURCE_PIXELS: u64 = 16_000_000;
const MAX_SOURCE_SIDE: u32 = 16_000;
/// Every allocation of one decode together: a 16-bit RGBA image of the largest accepted size.
const MAX_DECODE_BYTES: u64 = MAX_SOURCE_PIXELS * 8;
/// Longest an upload waits for a decoding slot before the server answers 503.
const DECODE_QUEUE_WAIT: Duration = Duration::from_secs(10);

#[derive(Clone)]
pub struct Media {
    store: Arc<dyn ObjectStore>,
    prefix: StorePath,
    /// Decodes under way at once; each may hold up to `MAX_DECODE_BYTES` and a CPU.
    decodes: Arc<Semaphore>,
}

#[derive(Debug, thiserror::Error)]
pub enum AvatarError {
    #[error("Please upload an image file (JPEG, PNG, GIF or WebP)")]
    NotAnImage,
    #[error("Images must be 5 MB or smaller")]
    TooLarge,
    #[error("Photos must be 10 MB or smaller")]
    PhotoTooLarge,
    #[error("Images must be at most 16 megapixels (e.g. 4000 × 4000)")]
    TooManyPixels,
    #[error("Too many pictures are being processed; please try again in a moment")]
    Busy,
}

impl Media {
    pub fn from_config(config: &Config) -> anyhow::Result<Self> {
        match &config.media_url {
            Some(url) => {
                let url = url::Url::parse(url).context("MEDIA_URL is not a URL")?;
                let options = std::env::vars()
                    .filter(|(key, _)| key.starts_with("AWS_"))
                    .map(|(k, v)| (k.to_ascii_lowercase(), v));
                let (store, prefix) =
                    object_store::parse_url_opts(&url, options).context("MEDIA_URL is not a supported store")?;
                Ok(Self { store: Arc::from(store), prefix, decodes: decode_slots() })
            }
            None => {
                let dir = config.data_dir.join("media");
                std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
                let store = LocalFileSystem::new_with_prefix(&dir)?;
                Ok(Self { store: Arc::new(store), prefix: StorePath::default(), decodes: decode_slots() })
            }
        }
    }

    fn full_path(&self, key: &str) -> StorePath {
        StorePath::from(format!("{}/{key}", self.prefix).trim_start_matches('/'))
    }

    /// Checks that `bytes` really is an image, re-encodes it as a square JPEG of
    /// at most 512 px (dropping EXIF and anything appended to the file), stores
    /// it, and returns the public URL path.
    /// At most one decode per CPU runs at a time; the others wait their turn (503 after a while).
    pub async fn store_avatar(&self, bytes: Bytes) -> Result<String, anyhow::Error> {
        let jpeg = self.decode_in_slot(move || normalize_avatar(&bytes)).await?;
        let key = format!("avatars/{}.jpg", Uuid::now_v7());
        self.put(&key, jpeg).await?;
        Ok(format!("/media/{key}"))
    }

    /// Runs `work` on a blocking thread once a decoding slot is free (503 after a while).
    async fn decode_in_slot<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> anyhow::Result<T> + Send + 'static,
    ) -> anyhow::Result<T> {
        let permit = tokio::time::timeout(DECODE_QUEUE_WAIT, self.decodes.clone().acquire_owned())
            .await
            .map_err(|_| AvatarError::Busy)?
            .context("decode slots closed")?;
        tokio::task::spawn_blocking(move || {
            let result = work();
            drop(permit);
            result
        })
        .await?
    }

    /// Removes the object; a missing one is not an error.
    pub async fn delete(&self, key: &str) -> anyhow::Result<()> {
        match self.store.delete(&self.full_path(key)).await {
            Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
            Err(error) => Err(error.into()),
        }
    }

    pub async fn put(&self, key: &str, bytes: Vec<u8>) -> anyhow::Result<()> {
        self.store.put(&self.full_path(key), PutPayload::from(bytes)).await.context("storing media")?;
        Ok(())
    }

    /// The stored bytes, or `None` when there is no such object.
    pub async fn get(&self, key: &str) -> anyhow::Result<Option<Bytes>> {
        if key.split('/').any(|part| part.is_empty() || part == "." || part == "..") {
            return Ok(None);
        }
        match self.store.get(&self.full_path(key)).await {
            Ok(result) => Ok(Some(result.bytes().await?)),
            Err(object_store::Error::NotFound { .. }) => Ok(None),
            Err(error) => Err(error.into()),
        }
    }
}

pub fn normalize_avatar(bytes: &[u8]) -> Result<Vec<u8>, anyhow::Error> {
    if bytes.len() > MAX_AVATAR_BYTES {
        return Err(AvatarError::TooLarge.into());
    }
    let image = decode_upright(bytes)?;
    // One RGBA copy at most (none when the source already is RGBA8); cropping is a view.
    let image = image.into_rgba8();
    let side = image.width().min(image.height());
    let square = image::imageops::crop_imm(&image, (image.width() - side) / 2, (image.height() - side) / 2, side, side);
    let target = side.min(AVATAR_SIDE);
    let rgba = image::imageops::resize(&*square, target, target, FilterType::Triangle);
    drop(image);
    to_jpeg(&rgba)
}

/// Sniffs the format (JPEG, PNG, GIF or WebP only), checks the declared size against the
/// decompression-bomb limits before decoding, decodes within the allocation limit, and turns
/// the picture upright by its EXIF orientation (the only metadata that is used; none is kept).
pub fn decode_upright(bytes: &[u8]) -> Result<DynamicImage, AvatarError> {
    let format = image::guess_format(bytes).map_err(|_| AvatarError::NotAnImage)?;
    if !matches!(format, ImageFormat::Jpeg | ImageFormat::Png | ImageFormat::Gif | ImageFormat::WebP) {
        return Err(AvatarError::NotAnImage);
    }
    let reader = || {
        let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
        let mut limits = image::Limits::default();
        limits.max_image_width = Some(MAX_SOURCE_SIDE);
        limits.max_image_height = Some(MAX_SOURCE_SIDE);
        limits.max_alloc = Some(MAX_DECODE_BYTES);
        reader.limits(limits);
        reader
    };
    let decode_error = |error: image::ImageError| match error {
        image::ImageError::Limits(_) => AvatarError::TooManyPixels,
        _ => AvatarError::NotAnImage,
    };
    let (width, height) = reader().into_dimensions().map_err(decode_error)?;
    if u64::from(width) * u64::from(height) > MAX_SOURCE_PIXELS {
        return Err(AvatarError::TooManyPixels);
    }
    let mut decoder = reader().into_decoder().map_err(decode_error)?;
    // A picture whose orientation cannot be read is shown as stored.
    let orientation = decoder.orientation().unwrap_or(Orientation::NoTransforms);
    let mut image = DynamicImage::from_decoder(decoder).map_err(decode_error)?;
    image.apply_orientation(orientation);
    Ok(image)
}

/// A baseline JPEG of the pixels alone: transparent pixels become white rather than black,
/// and the encoder is given no metadata to write.
pub fn to_jpeg(rgba: &image::RgbaImage) -> anyhow::Result<Vec<u8>> {
    let mut rgb = image::RgbImage::new(rgba.width(), rgba.height());
    for (x, y, pixel) in rgba.enumerate_pixels() {
        let alpha = pixel[3] as u32;
        let blend = |channel: u8| ((channel as u32 * alpha + 255 * (255 - alpha)) / 255) as u8;
        rgb.put_pixel(x, y, image::Rgb([blend(pixel[0]), blend(pixel[1]), blend(pixel[2])]));
    }
    let mut out = Cursor::new(Vec::new());
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, 85).encode_image(&rgb).context("encoding a JPEG")?;
    Ok(out.into_inner())
}

fn decode_slots() -> Arc<Semaphore> {
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    Arc::new(Semaphore::new(cpus.clamp(1, 4)))
}

pub fn content_type_for(key: &str) -> &'static str {
    match key.rsplit('.').next() {
        Some("jpg" | "jpeg") => "image/jpeg",
        Some("png") => "image/png",
        Some("webp") => "image/webp",
        Some("gif") => "image/gif",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn png(width: u32, height: u32) -> Vec<u8> {
        let image = image::RgbaImage::from_pixel(width, height, image::Rgba([10, 200, 30, 255]));
        let mut out = Cursor::new(Vec::new());
        image.write_to(&mut out, ImageFormat::Png).unwrap();
        out.into_inner()
    }

    #[test]
    fn avatars_become_square_jpegs_of_at_most_512px() {
        let jpeg = normalize_avatar(&png(900, 600)).unwrap();
        let decoded = image::load_from_memory(&jpeg).unwrap();
        assert_eq!(image::guess_format(&jpeg).unwrap(), ImageFormat::Jpeg);
        assert_eq!((decoded.width(), decoded.height()), (512, 512));
    }

    #[test]
    fn appended_payloads_do_not_survive_reencoding() {
        let mut bytes = png(64, 64);
        bytes.extend_from_slice(b"<script>alert(1)</script>");
        let jpeg = normalize_avatar(&bytes).unwrap();
        assert!(!jpeg.windows(8).any(|window| window == b"<script>"));
    }

    #[test]
    fn non_images_and_oversized_files_are_refused() {
        assert!(normalize_avatar(b"GIF89a but not really").is_err());
        assert!(normalize_avatar(b"#!/bin/sh\necho hi").is_err());
        let mut huge = png(8, 8);
        huge.resize(MAX_AVATAR_BYTES + 1, 0);
        assert!(normalize_avatar(&huge).is_err());
    }

    #[test]
    fn images_over_16_megapixels_are_refused_from_their_header() {
        let image = image::GrayImage::new(4001, 4000);
        let mut bytes = Cursor::new(Vec::new());
        image.write_to(&mut bytes, ImageFormat::Png).unwrap();
        let error = normalize_avatar(bytes.get_ref()).unwrap_err();
        assert!(matches!(error.downcast_ref(), Some(AvatarError::TooManyPixels)), "{error:?}");
        assert!(normalize_avatar(&png(4000, 4000)).is_ok());
    }
}
