//! Soak: drives the loopback cluster (`scripts/cluster.sh up`) through nginx with a mixed
//! population while its parts fail, then audits the database. See README.md.
//!
//! `soak [--quick] [--duration SECS] [--watchers N] [--posters N] [--taskers N] [--no-faults]`

mod actors;
mod api;
mod audit;
mod faults;
mod metrics;
mod server_times;
mod session;
mod socket;
mod world;

use std::{collections::HashMap, process::ExitCode, sync::Arc, sync::atomic::Ordering::Relaxed, time::Duration};

use anyhow::{Context, bail};

use crate::{
    api::Api,
    metrics::Metrics,
    server_times::{Edge, ServerTimes},
    world::World,
};

/// Time given to the last events to arrive once every client stopped acting.
const SETTLE: Duration = Duration::from_secs(5);

struct Args {
    duration: Duration,
    watchers: usize,
    posters: usize,
    taskers: usize,
    faults: bool,
    poll_interval: Duration,
}

fn args() -> anyhow::Result<Args> {
    let mut args = Args {
        duration: Duration::from_secs(600),
        watchers: 2_000,
        posters: 10,
        taskers: 20,
        faults: true,
        poll_interval: Duration::from_secs(5),
    };
    let mut iter = std::env::args().skip(1);
    while let Some(arg) = iter.next() {
        let mut value = || iter.next().context("missing value");
        match arg.as_str() {
            "--quick" => {
                args.duration = Duration::from_secs(60);
                args.watchers = 300;
                args.posters = 4;
                args.taskers = 8;
            }
            "--duration" => args.duration = Duration::from_secs(value()?.parse()?),
            "--watchers" => args.watchers = value()?.parse()?,
            "--posters" => args.posters = value()?.parse()?,
            "--taskers" => args.taskers = value()?.parse()?,
            "--no-faults" => args.faults = false,
            other => bail!("unknown argument {other}"),
        }
    }
    Ok(args)
}

/// The cluster's addresses, from `scripts/cluster.sh env`.
fn cluster_env() -> anyhow::Result<HashMap<String, String>> {
    let output = std::process::Command::new(faults::cluster_script())
        .arg("env")
        .output()
        .context("running scripts/cluster.sh env")?;
    if !output.status.success() {
        bail!("no cluster: {}", String::from_utf8_lossy(&output.stderr));
    }
    Ok(String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| line.split_once('=').map(|(k, v)| (k.to_owned(), v.to_owned())))
        .collect())
}

#[tokio::main]
async fn main() -> ExitCode {
    match run().await {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(error) => {
            eprintln!("soak: {error:#}");
            ExitCode::FAILURE
        }
    }
}

async fn run() -> anyhow::Result<bool> {
    let args = args()?;
    let env = cluster_env()?;
    let base = env.get("BASE_URL").context("BASE_URL")?.clone();
    let database_url = env.get("DATABASE_URL").context("DATABASE_URL")?.clone();
    let metrics = Arc::new(Metrics::new());
    let run = uuid::Uuid::now_v7().simple().to_string()[20..].to_owned();
    let email_delay = Duration::from_secs(env.get("EMAIL_DELAY").map_or(Ok(600), |s| s.parse())?);
    let world = Arc::new(World::new(run.clone(), metrics.clone(), args.poll_interval, email_delay));
    let api = Api::new(&base, metrics.clone())?;
    let node_urls: Vec<String> = ["NODE_1_PORT", "NODE_2_PORT"]
        .iter()
        .filter_map(|key| env.get(*key).map(|port| format!("http://127.0.0.1:{port}")))
        .collect();
    let server_times = Arc::new(ServerTimes::new(node_urls)?);
    server_times.mark(Edge::Opens).await;
    println!(
        "soak {run}: {} s through {base}, {} posters, {} taskers, {} watchers, faults {}",
        args.duration.as_secs(),
        args.posters,
        args.taskers,
        args.watchers,
        if args.faults { "on" } else { "off" }
    );

    let mut people = Vec::new();
    for n in 0..args.taskers {
        people.push(tokio::spawn(actors::tasker(api.clone(), world.clone(), n)));
    }
    for n in 0..args.posters {
        people.push(tokio::spawn(actors::poster(api.clone(), world.clone(), n)));
    }
    let mut watchers = Vec::new();
    for _ in 0..args.watchers {
        watchers.push(tokio::spawn(actors::watcher(api.clone(), world.clone())));
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    let injector = args
        .faults
        .then(|| tokio::spawn(faults::schedule(env.clone(), metrics.clone(), server_times.clone(), args.duration)));

    tokio::time::sleep(args.duration.saturating_sub(metrics.now())).await;
    if let Some(injector) = injector {
        injector.await.context("fault injector")??;
    }
    world.stopping.store(true, Relaxed);
    let elapsed = metrics.now();
    server_times.mark(Edge::Closes).await;
    // Everything acknowledged so far must reach its clients: let in-flight steps finish, then
    // give the last events time to arrive before the audit.
    while people.iter().filter(|p| !p.is_finished()).count() > world.idle.load(Relaxed) {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    tokio::time::sleep(SETTLE).await;
    world.settled.store(true, Relaxed);
    for person in people {
        person.await.context("a soak client panicked")??;
    }
    for watcher in watchers {
        watcher.await.context("a watcher panicked")?;
    }
    println!("--- figures ({:.0} s) ---", elapsed.as_secs_f64());
    metrics.report(elapsed).print();
    server_times.print();
    println!("--- audit ---");
    audit::run(&world, &database_url).await
}
