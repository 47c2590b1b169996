//! Task-alert matching benchmark: stores N alerts (default 100k, 20 per
//! tasker) around Australian cities, then posts tasks one at a time and
//! prints, per task, the time from the task's commit to the commit of its
//! last `task_alert` notification row (the outbox job taken, candidates read
//! through the category + grid-cell index, keywords and distance checked,
//! every notification written), with p50/p95/max over all tasks.
//!
//! `alerts-bench [sqlite|postgres] [--alerts 100000] [--tasks 50]`
//! Postgres: `BENCH_DATABASE_URL` (an admin URL; a scratch database is created
//! and dropped), default `postgres://postgres@127.0.0.1:5432/postgres`.
//! The worker loop is off; the benchmark runs the same matching code itself
//! right after each commit, so the figure excludes only the wake-up (and
//! includes publishing the notifications live). It also prints the read side
//! alone (candidates through the index) to show where the time goes.

use std::{
    sync::Arc,
    time::{Duration, Instant},
};

use anyhow::{Context, bail};
use bench_common::{Rng, Scratch, account};
use domain::config::Config;
use model::{
    alerts::{self, AlertInput, AlertPlace},
    gazetteer::{self, Locality},
    marketplace::rules::TaskDraft,
};
use store::{
    alerts as alert_store,
    db::{Db, Timestamp},
    tasks,
};

const KEYWORDS: [&str; 16] = [
    "garden", "fence", "kitchen", "bathroom", "wardrobe", "garage", "roof", "gutter", "window", "deck", "carpet",
    "oven", "laptop", "piano", "party", "lawn",
];
const RADII: [i64; 5] = [5, 10, 10, 25, 50];
const ALERTS_PER_TASKER: usize = 20;

struct Args {
    backend: String,
    alerts: usize,
    tasks: usize,
}

fn args() -> anyhow::Result<Args> {
    let mut args = Args { backend: "sqlite".into(), alerts: 100_000, tasks: 50 };
    let mut iter = std::env::args().skip(1);
    while let Some(arg) = iter.next() {
        let mut value = || iter.next().context("missing value");
        match arg.as_str() {
            "sqlite" | "postgres" => args.backend = arg,
            "--alerts" => args.alerts = value()?.parse()?,
            "--tasks" => args.tasks = value()?.parse()?,
            other => bail!("unknown argument {other}"),
        }
    }
    Ok(args)
}

/// Major-city localities: where most taskers and tasks are.
fn city_places() -> Vec<&'static Locality> {
    gazetteer::localities().iter().filter(|locality| locality.remoteness == 0).collect()
}

fn random_alert(rng: &mut Rng, places: &[&Locality]) -> AlertInput {
    let place = places[(rng.next_u64() % places.len() as u64) as usize];
    let categories = match rng.next_u64() % 10 {
        0 | 1 => vec![],
        2..=6 => vec![(rng.next_u64() % 16 + 1) as i64],
        _ => vec![(rng.next_u64() % 16 + 1) as i64, (rng.next_u64() % 16 + 1) as i64],
    };
    AlertInput {
        name: None,
        q: if rng.chance(50) { Some(rng.pick(&KEYWORDS).to_owned()) } else { None },
        categories,
        place: Some(AlertPlace { label: place.display_name(), lat: place.lat, lon: place.lon }),
        radius_km: Some(rng.pick(&RADII)),
        remote_ok: rng.chance(10),
        min_budget_cents: if rng.chance(30) { Some((rng.next_u64() % 200 + 20) as i64 * 100) } else { None },
        paused: rng.chance(5),
    }
}

async fn load_alerts(db: &Db, count: usize) -> anyhow::Result<()> {
    let taskers = count.div_ceil(ALERTS_PER_TASKER);
    let db = Arc::new(db.clone());
    let workers = if matches!(*db, Db::Postgres(_)) { 8 } else { 1 };
    let per_worker = taskers.div_ceil(workers);
    let mut handles = Vec::new();
    for worker in 0..workers {
        let db = db.clone();
        handles.push(tokio::spawn(async move {
            let places = city_places();
            let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ (worker as u64 + 1));
            let start = worker * per_worker;
            for tasker in start..(start + per_worker).min(taskers) {
                let id = account(&db, format!("tasker{tasker}@bench.local"), "User", true).await?;
                let alerts_here = ALERTS_PER_TASKER.min(count - tasker * ALERTS_PER_TASKER);
                for _ in 0..alerts_here {
                    let draft = alerts::validate(&random_alert(&mut rng, &places))
                        .map_err(|error| anyhow::anyhow!("generated alert refused: {error}"))?;
                    alert_store::create_alert(&db, id, &draft, Timestamp::now()).await?.context("alert limit")?;
                }
            }
            anyhow::Ok(())
        }));
    }
    for handle in handles {
        handle.await??;
    }
    Ok(())
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = args()?;
    let (scratch, mut config) = Scratch::new("alerts", &args.backend).await?;
    config.task_alerts_poll_secs = 0;
    let result = run(&args, config).await;
    scratch.remove().await;
    result
}

async fn run(args: &Args, config: Config) -> anyhow::Result<()> {
    let running = server::start(config).await?;
    let state = running.state.clone();
    let loading = Instant::now();
    load_alerts(&state.db, args.alerts).await?;
    match &state.db {
        Db::Postgres(pool) => sqlx::query("analyze").execute(pool).await.map(drop)?,
        Db::Sqlite(pool) => sqlx::query("analyze").execute(pool).await.map(drop)?,
    }
    println!(
        "backend {} · {} alerts stored in {:.1} s · {} tasks posted one at a time",
        args.backend,
        args.alerts,
        loading.elapsed().as_secs_f64(),
        args.tasks
    );

    let poster = account(&state.db, "poster@bench.local".into(), "User", false).await?;
    let places = city_places();
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    let today = time::OffsetDateTime::now_utc().date();
    let mut timings = Vec::with_capacity(args.tasks);
    let mut lookups = Vec::with_capacity(args.tasks);
    let mut notified = 0;
    let mut candidates = 0;
    for i in 0..args.tasks {
        let place = places[(rng.next_u64() % places.len() as u64) as usize];
        let (keyword, other) = (rng.pick(&KEYWORDS), rng.pick(&KEYWORDS));
        let draft = TaskDraft {
            title: format!("Help with the {keyword} #{i}"),
            description: format!("The {other} needs attention too; tools supplied."),
            category_id: (rng.next_u64() % 16 + 1) as i64,
            location: place.display_name(),
            budget_cents: (rng.next_u64() % 400 + 5) as i64 * 100,
            due_date: today + time::Duration::days(7),
            coordinates: Some((place.lat, place.lon)),
            remote: false,
        };
        let task_id = tasks::create_task(&state.db, poster, &draft, Timestamp::now()).await?;
        let committed = Instant::now();
        // The read side alone (index lookup, then keywords and distance), for the breakdown.
        let task = alert_store::task_to_match(&state.db, task_id).await?.context("task just posted")?;
        let coordinates = task.lat.zip(task.lon);
        let found = alert_store::candidates(&state.db, &task, alerts::task_cells(task.remote, coordinates)).await?;
        candidates += found.len();
        lookups.push(committed.elapsed());
        let committed = Instant::now();
        let written = domain::alerts::matching::run_pending(&state).await?;
        timings.push(committed.elapsed());
        notified += written;
    }
    timings.sort();
    lookups.sort();
    let at = |q: f64| timings[((timings.len() as f64 * q) as usize).min(timings.len() - 1)];
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "candidate lookup through the index: p50 {:.1} ms · max {:.1} ms · {:.0} candidates per task",
        ms(lookups[lookups.len() / 2]),
        ms(*lookups.last().unwrap_or(&Duration::ZERO)),
        candidates as f64 / args.tasks.max(1) as f64
    );
    println!(
        "commit → last task_alert row: p50 {:.1} ms · p95 {:.1} ms · max {:.1} ms · {:.1} notifications per task",
        ms(at(0.50)),
        ms(at(0.95)),
        ms(*timings.last().unwrap_or(&Duration::ZERO)),
        notified as f64 / args.tasks.max(1) as f64
    );
    running.shutdown().await?;
    Ok(())
}
