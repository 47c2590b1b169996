//! Decompression bombs: a few hundred KB of PNG that declares 100 megapixels must be refused
//! from its header, without the server ever allocating the pixels.

mod common;

use std::io::{Cursor, Write};

use common::{TestApp, access_token};
use reqwest::{StatusCode, multipart};
use tokio::sync::Mutex;

on_both_backends!(
    decompression_bombs_are_refused_without_decoding,
    avatar_changes_are_rate_limited_per_account: |config| config.auth_rate_limit_per_minute = 3,
);

/// Peak-RSS measurements of concurrent tests in this process would blur each other.
static MEASURING: Mutex<()> = Mutex::const_new(());

/// A single-colour RGB PNG of `side` × `side`, written row by row so the test itself never
/// holds the pixels (10,000 × 10,000 compresses to a few hundred KB).
fn bomb_png(side: u32) -> Vec<u8> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, side, side);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::High);
    encoder.set_filter(png::Filter::Up);
    let mut writer = encoder.write_header().unwrap();
    let mut stream = writer.stream_writer().unwrap();
    let row = vec![0x5a; side as usize * 3];
    for _ in 0..side {
        stream.write_all(&row).unwrap();
    }
    stream.finish().unwrap();
    writer.finish().unwrap();
    out
}

fn small_png() -> Vec<u8> {
    let image = image::RgbImage::from_pixel(64, 64, image::Rgb([10, 20, 30]));
    let mut out = Cursor::new(Vec::new());
    image.write_to(&mut out, image::ImageFormat::Png).unwrap();
    out.into_inner()
}

async fn upload(app: &TestApp, token: Option<&str>, path: &str, bytes: Vec<u8>) -> common::Response {
    let form = multipart::Form::new().part("file", multipart::Part::bytes(bytes).file_name("picture.png"));
    let mut request = reqwest::Client::new().post(app.url(path)).multipart(form);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    TestApp::read(request.send().await.unwrap()).await
}

/// `VmRSS` or `VmHWM` of this process (the server runs in it), in bytes.
fn memory(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|line| line.starts_with(field)).unwrap();
    line.split_whitespace().nth(1).unwrap().parse::<u64>().unwrap() * 1024
}

async fn decompression_bombs_are_refused_without_decoding(app: TestApp) -> TestApp {
    let bomb = bomb_png(10_000);
    assert!(bomb.len() < 1024 * 1024, "the bomb is small: {} bytes", bomb.len());
    let session = app.signed_in_user("bomber@example.com").await;
    let token = access_token(&session);

    let _measuring = MEASURING.lock().await;
    // Resets the peak (VmHWM) to the current RSS, so the peak below is this test's.
    std::fs::write("/proc/self/clear_refs", "5").unwrap();
    let before = memory("VmRSS:");
    let uploads = (0..10).map(|n| {
        let (app, bomb, token) = (&app, bomb.clone(), token.clone());
        async move {
            match n % 2 {
                0 => upload(app, None, "/api/uploads/avatar", bomb).await,
                _ => upload(app, Some(&token), "/api/me/avatar", bomb).await,
            }
        }
    });
    let responses = futures_util::future::join_all(uploads).await;
    let peak = memory("VmHWM:");
    let grown_mb = peak.saturating_sub(before) / (1024 * 1024);
    eprintln!("peak RSS grew by {grown_mb} MB for 10 concurrent bombs");

    for response in &responses {
        assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY, "{:?}", response.body);
        assert_eq!(response.error_code(), "validation_failed");
        assert!(response.field_error("file").contains("16 megapixels"), "{:?}", response.body);
    }
    assert!(grown_mb < 100, "peak RSS grew by {grown_mb} MB for 10 concurrent bombs");

    let fine = upload(&app, Some(&token), "/api/me/avatar", small_png()).await;
    assert_eq!(fine.status, StatusCode::OK, "{:?}", fine.body);
    app
}

async fn avatar_changes_are_rate_limited_per_account(app: TestApp) -> TestApp {
    let session = app.signed_in_user("often@example.com").await;
    let token = access_token(&session);
    for _ in 0..3 {
        let accepted = upload(&app, Some(&token), "/api/me/avatar", small_png()).await;
        assert_eq!(accepted.status, StatusCode::OK, "{:?}", accepted.body);
    }
    let refused = upload(&app, Some(&token), "/api/me/avatar", small_png()).await;
    assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS, "{:?}", refused.body);
    assert_eq!(refused.error_code(), "rate_limited");
    assert!(refused.headers.contains_key("retry-after"));
    app
}
