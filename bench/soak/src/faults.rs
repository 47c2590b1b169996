//! The fault schedule, run through `scripts/cluster.sh`: kill -9 a node and start it again,
//! take Redis down and bring it back, restart PostgreSQL, reload nginx. Each fault's recovery
//! is the time from the component being back until every probe (both nodes' /readyz, a read
//! through nginx) succeeds again.

use std::{collections::HashMap, path::PathBuf, sync::Arc, time::Duration};

use anyhow::{Context, bail};

use crate::{
    metrics::{Fault, Metrics},
    server_times::{Edge, ServerTimes},
};

pub fn cluster_script() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scripts/cluster.sh")
}

async fn cluster(args: &[&str]) -> anyhow::Result<()> {
    let status = tokio::process::Command::new(cluster_script())
        .args(args)
        .stdout(std::process::Stdio::null())
        .status()
        .await
        .with_context(|| format!("scripts/cluster.sh {}", args.join(" ")))?;
    if !status.success() {
        bail!("scripts/cluster.sh {} failed: {status}", args.join(" "));
    }
    Ok(())
}

struct Probe {
    client: reqwest::Client,
    urls: Vec<String>,
}

impl Probe {
    fn new(env: &HashMap<String, String>) -> anyhow::Result<Probe> {
        let port = |key: &str| env.get(key).cloned().with_context(|| format!("{key} in the cluster env"));
        let urls = vec![
            format!("http://127.0.0.1:{}/readyz", port("NODE_1_PORT")?),
            format!("http://127.0.0.1:{}/readyz", port("NODE_2_PORT")?),
            format!("{}/api/tasks?limit=1", port("BASE_URL")?),
        ];
        Ok(Probe { client: reqwest::Client::builder().timeout(Duration::from_secs(2)).build()?, urls })
    }

    async fn healthy(&self) -> bool {
        for url in &self.urls {
            match self.client.get(url).send().await {
                Ok(response) if response.status().is_success() => {}
                _ => return false,
            }
        }
        true
    }

    async fn wait_until_healthy(&self, metrics: &Metrics, give_up: Duration) -> Option<Duration> {
        while metrics.now() < give_up {
            if self.healthy().await {
                return Some(metrics.now());
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        None
    }
}

/// One fault: `break_it`, wait `down`, `restore` (either may be empty), then wait for recovery.
async fn inject(
    probe: &Probe,
    metrics: &Metrics,
    server_times: &ServerTimes,
    name: &'static str,
    break_it: &[&str],
    down: Duration,
    restore: &[&str],
) -> anyhow::Result<()> {
    server_times.mark(Edge::Closes).await;
    let started = metrics.now();
    println!("[{:>5.1} s] fault: {name}", started.as_secs_f64());
    if !break_it.is_empty() {
        cluster(break_it).await?;
    }
    tokio::time::sleep(down).await;
    if !restore.is_empty() {
        cluster(restore).await?;
    }
    let restored = metrics.now();
    let recovered = probe.wait_until_healthy(metrics, restored + Duration::from_secs(120)).await;
    match recovered {
        Some(at) => println!(
            "[{:>5.1} s] {name}: restored, healthy again {:.1} s later",
            at.as_secs_f64(),
            (at - restored).as_secs_f64()
        ),
        None => println!("[{:>5.1} s] {name}: restored but NOT healthy after 120 s", metrics.now().as_secs_f64()),
    }
    if recovered.is_some() {
        server_times.mark(Edge::Opens).await;
    }
    metrics.fault(Fault { name, started, restored, recovered });
    Ok(())
}

/// Spreads the faults over the run: each starts at a fixed fraction of it, outages scale with
/// it (a 60 s quick run gets a 12 s node outage, a 10-minute run the 30 s).
pub async fn schedule(
    env: HashMap<String, String>,
    metrics: Arc<Metrics>,
    server_times: Arc<ServerTimes>,
    duration: Duration,
) -> anyhow::Result<()> {
    let probe = Probe::new(&env)?;
    let at = |fraction: f64| duration.mul_f64(fraction);
    let scaled = |full_run: u64, quick_run: u64| {
        Duration::from_secs(if duration >= Duration::from_secs(300) { full_run } else { quick_run })
    };
    let until = |moment: Duration| tokio::time::sleep(moment.saturating_sub(metrics.now()));

    until(at(0.05)).await;
    inject(
        &probe,
        &metrics,
        &server_times,
        "kill -9 node 2",
        &["kill-node", "2"],
        scaled(30, 12),
        &["start-node", "2"],
    )
    .await?;
    until(at(0.30)).await;
    inject(&probe, &metrics, &server_times, "Redis down", &["stop-redis"], scaled(20, 8), &["start-redis"]).await?;
    until(at(0.62)).await;
    inject(
        &probe,
        &metrics,
        &server_times,
        "PostgreSQL restart",
        &["stop-postgres"],
        scaled(10, 3),
        &["start-postgres"],
    )
    .await?;
    until(at(0.80)).await;
    inject(&probe, &metrics, &server_times, "nginx reload", &[], Duration::ZERO, &["reload-nginx"]).await?;
    if duration >= Duration::from_secs(300) {
        until(at(0.85)).await;
        inject(
            &probe,
            &metrics,
            &server_times,
            "kill -9 node 1",
            &["kill-node", "1"],
            scaled(30, 12),
            &["start-node", "1"],
        )
        .await?;
    }
    Ok(())
}
