//! Decompression bombs: N concurrent anonymous `POST /api/uploads/avatar` of one single-colour
//! 10,000 × 10,000 PNG (a few hundred KB that decodes to 300 MB).

use std::{io::Write, time::Instant};

use reqwest::multipart;

use crate::{Bench, memory};

const SIDE: u32 = 10_000;

fn bomb_png() -> anyhow::Result<Vec<u8>> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, SIDE, SIDE);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::High);
    encoder.set_filter(png::Filter::Up);
    let mut writer = encoder.write_header()?;
    let mut stream = writer.stream_writer()?;
    let row = vec![0x5a; SIDE as usize * 3];
    for _ in 0..SIDE {
        stream.write_all(&row)?;
    }
    stream.finish()?;
    writer.finish()?;
    Ok(out)
}

pub async fn run(backend: &str, count: usize) -> anyhow::Result<()> {
    // The anonymous upload limit (per address) would otherwise stop most of them before decoding.
    let bench = Bench::start(backend, |config| config.auth_rate_limit_per_minute = 10_000).await?;
    let bomb = bomb_png()?;
    let url = format!("{}/api/uploads/avatar", bench.server.url());
    let client = reqwest::Client::new();

    memory::reset_peak();
    let before = memory::rss();
    let started = Instant::now();
    let uploads = (0..count).map(|_| {
        let form = multipart::Form::new().part("file", multipart::Part::bytes(bomb.clone()).file_name("bomb.png"));
        let request = client.post(&url).multipart(form);
        async move { request.send().await.map(|response| response.status()) }
    });
    let statuses = futures_util::future::join_all(uploads).await;
    let elapsed = started.elapsed();
    let (peak, after) = (memory::peak(), memory::rss());

    let mut tally = std::collections::BTreeMap::new();
    for status in statuses {
        let key = status.map_or_else(|error| format!("error ({error})"), |status| status.as_u16().to_string());
        *tally.entry(key).or_insert(0) += 1;
    }
    println!("[bombs] {count} concurrent uploads of a {SIDE}×{SIDE} PNG of {} KB", bomb.len() / 1024);
    println!("[bombs] answers {tally:?} in {:.2} s", elapsed.as_secs_f64());
    println!(
        "[bombs] RSS before {before:.0} MiB · peak during {peak:.0} MiB (+{:.0}) · after {after:.0} MiB (+{:.0})",
        peak - before,
        after - before
    );
    bench.stop().await
}
