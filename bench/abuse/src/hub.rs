//! Hub state from anonymous sockets: N subscribe/unsubscribe cycles of random task topics
//! (three in four for ids that do not exist, the rest for a few real tasks) over 8 sockets.
//! The per-socket subscribe rate is lifted for this section, so every subscribe reaches the
//! existence check and the topic registry: that is what is measured. (With the default 10/s
//! per socket, all but the first 100 of a socket's burst are answered `rate_limited`.)

use std::time::Instant;

use anyhow::Context;
use futures_util::{SinkExt, StreamExt};
use model::marketplace::rules::TaskDraft;
use store::{db::Timestamp, tasks};

use crate::{Bench, memory};

use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

const SOCKETS: usize = 8;
const REAL_TASKS: usize = 4;
const IN_FLIGHT: usize = 100;

#[derive(Default, Debug)]
struct Tally {
    subscribed: usize,
    not_found: usize,
    rate_limited: usize,
    other: usize,
}

async fn real_tasks(bench: &Bench) -> anyhow::Result<Vec<uuid::Uuid>> {
    let db = &bench.server.state.db;
    let now = Timestamp::now();
    let poster = bench_common::account(db, "poster@bench.local".into(), "Poster", false).await?;
    let mut ids = Vec::new();
    for n in 0..REAL_TASKS {
        let draft = TaskDraft {
            title: format!("Assemble wardrobe #{n}"),
            description: "Two flat-pack wardrobes".into(),
            category_id: 2,
            location: "Newtown NSW".into(),
            budget_cents: 12_000,
            due_date: time::OffsetDateTime::now_utc().date() + time::Duration::days(3),
            coordinates: None,
            remote: false,
        };
        ids.push(tasks::create_task(db, poster, &draft, now).await?);
    }
    Ok(ids)
}

async fn churn(url: String, real: Vec<uuid::Uuid>, cycles: usize, seed: u64) -> anyhow::Result<Tally> {
    let (mut socket, _) = tokio_tungstenite::connect_async(url).await.context("connecting /ws")?;
    let mut tally = Tally::default();
    let mut rng = seed | 1;
    for start in (0..cycles).step_by(IN_FLIGHT) {
        let end = (start + IN_FLIGHT).min(cycles);
        for _ in start..end {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let pick = (rng % 4) as usize;
            let topic = match real.get(pick) {
                Some(id) if rng % 16 < 4 => format!("task:{id}"),
                _ => format!("task:{}", uuid::Uuid::now_v7()),
            };
            socket.feed(Message::text(json!({"type": "subscribe", "topic": topic}).to_string())).await?;
            socket.feed(Message::text(json!({"type": "unsubscribe", "topic": topic}).to_string())).await?;
        }
        socket.flush().await?;
        let mut answers = 0;
        while answers < end - start {
            let message = socket.next().await.context("socket closed")??;
            let Message::Text(text) = message else { continue };
            let reply: Value = serde_json::from_str(&text)?;
            answers += 1;
            match (reply["type"].as_str(), reply["code"].as_str()) {
                (Some("subscribed"), _) => tally.subscribed += 1,
                (_, Some("not_found")) => tally.not_found += 1,
                (_, Some("rate_limited")) => tally.rate_limited += 1,
                _ => tally.other += 1,
            }
        }
    }
    Ok(tally)
}

pub async fn run(backend: &str, cycles: usize) -> anyhow::Result<()> {
    let bench = Bench::start(backend, |config| config.ws_subscribes_per_second = 1e9).await?;
    let real = real_tasks(&bench).await?;
    let hub = bench.server.state.hub.clone();
    let url = format!("{}/ws", bench.server.url().replacen("http://", "ws://", 1));

    let (topics_before, before) = (hub.topic_count(), memory::rss());
    memory::reset_peak();
    let started = Instant::now();
    let runs = (0..SOCKETS).map(|n| tokio::spawn(churn(url.clone(), real.clone(), cycles / SOCKETS, n as u64 + 7)));
    let mut total = Tally::default();
    for run in futures_util::future::join_all(runs).await {
        let tally = run??;
        total.subscribed += tally.subscribed;
        total.not_found += tally.not_found;
        total.rate_limited += tally.rate_limited;
        total.other += tally.other;
    }
    let elapsed = started.elapsed();
    let (topics_after, peak, after) = (hub.topic_count(), memory::peak(), memory::rss());

    println!(
        "[hub] {cycles} subscribe/unsubscribe cycles over {SOCKETS} anonymous sockets in {:.2} s",
        elapsed.as_secs_f64()
    );
    println!("[hub] answers {total:?}");
    println!("[hub] topics before {topics_before} · after {topics_after}");
    println!(
        "[hub] RSS before {before:.0} MiB · peak during {peak:.0} MiB (+{:.0}) · after {after:.0} MiB (+{:.0})",
        peak - before,
        after - before
    );
    bench.stop().await
}
