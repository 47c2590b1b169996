//! A herd on task pages, as the soak's watchers make one after a resync or while polling: `C`
//! anonymous clients each ask for one of `K` task pages again and again for `D` seconds, against a
//! server you started (`DEV_MODE=true`, for the mailbox the poster's sign-up reads). Prints
//! requests per second and the client's p50/p99 for `GET /api/tasks/{id}`.
//!
//! `taskpage-herd http://127.0.0.1:8080 [--tasks 10] [--clients 200] [--seconds 10]`

use std::{sync::Arc, time::Duration};

use anyhow::Context;
use serde_json::json;

#[allow(dead_code)]
#[path = "../api.rs"]
mod api;
#[allow(dead_code)]
#[path = "../metrics.rs"]
mod metrics;

fn flag(args: &[String], name: &str, default: usize) -> anyhow::Result<usize> {
    match args.iter().position(|arg| arg == name) {
        Some(at) => args.get(at + 1).context("a value after the flag")?.parse().context(name.to_owned()),
        None => Ok(default),
    }
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let base = args.first().context("usage: taskpage-herd BASE_URL [--tasks K] [--clients C] [--seconds D]")?;
    let (tasks, clients, seconds) =
        (flag(&args, "--tasks", 10)?, flag(&args, "--clients", 200)?, flag(&args, "--seconds", 10)?);

    let setup = api::Api::new(base, Arc::new(metrics::Metrics::new()))?;
    let email = format!("herd-{}@example.com", uuid::Uuid::new_v4().simple());
    let (_, token) = setup.verified_user(&email, false).await?;
    let due = (time::OffsetDateTime::now_utc().date() + time::Duration::days(14)).to_string();
    let mut ids = Vec::new();
    for k in 0..tasks {
        let body = json!({ "title": format!("Herd task {k}"), "description": "Assemble a flat-pack wardrobe",
            "category_id": 1 + k % 8, "location": "Newtown NSW", "budget_cents": 5_000, "due_date": due });
        let posted = setup.post("/api/tasks", Some(&token), body).await;
        ids.push(posted.body["id"].as_str().with_context(|| format!("posting: {}", posted.body))?.to_owned());
    }

    let metrics = Arc::new(metrics::Metrics::new());
    let until = tokio::time::Instant::now() + Duration::from_secs(seconds as u64);
    let ids = Arc::new(ids);
    let herd: Vec<_> = (0..clients)
        .map(|_| {
            // A client of its own per watcher: its own connection, as each browser has.
            let (herd, ids) = (api::Api::new(base, metrics.clone()), ids.clone());
            tokio::spawn(async move {
                let herd = herd.expect("an HTTP client");
                while tokio::time::Instant::now() < until {
                    herd.get(&format!("/api/tasks/{}", ids[fastrand::usize(..ids.len())]), None).await;
                }
            })
        })
        .collect();
    for client in herd {
        client.await?;
    }
    let report = metrics.report(Duration::from_secs(seconds as u64));
    println!(
        "{clients} clients on {tasks} task pages for {seconds} s: {} requests ({:.1}/s), failed: {}",
        report.requests, report.requests_per_s, report.failed_outside
    );
    for line in &report.rest_by_route {
        println!(
            "  {:<24} {:>6} answered, p50 {:>7.1} ms, p99 {:>7.1} ms",
            line.route, line.requests, line.p50, line.p99
        );
    }
    Ok(())
}
