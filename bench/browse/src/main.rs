//! Browse benchmark: loads N open tasks (default 100k) into a fresh database,
//! starts the real server on it and measures `GET /api/tasks` for the default
//! list, a `q` search and a filtered + sorted query: requests per second and
//! p50/p99 latency with C concurrent clients for D seconds each.
//!
//! `browse-bench [sqlite|postgres] [--tasks 100000] [--clients 32] [--seconds 10]`
//! Postgres: `BENCH_DATABASE_URL` (an admin URL; a scratch database is created
//! and dropped), default `postgres://postgres@127.0.0.1:5432/postgres`.
//! Server and load generator share this machine's cores.

use std::{
    sync::Arc,
    time::{Duration, Instant},
};

use anyhow::{Context, bail};
use server::{
    config::{Config, Secret},
    db::{Db, Timestamp},
    marketplace::rules::TaskDraft,
    store::{tasks, users},
};
use sqlx::{Connection, Executor, PgConnection};

const WORDS: [&str; 16] = [
    "garden", "fence", "kitchen", "bathroom", "wardrobe", "garage", "roof", "gutter", "window", "deck", "carpet",
    "oven", "laptop", "piano", "party", "lawn",
];
const VERBS: [&str; 8] = ["Fix", "Clean", "Paint", "Assemble", "Move", "Repair", "Install", "Tidy"];
const SUBURBS: [&str; 10] = [
    "Newtown NSW",
    "Bondi NSW",
    "Fitzroy VIC",
    "Carlton VIC",
    "Paddington QLD",
    "Fremantle WA",
    "Glenelg SA",
    "Manly NSW",
    "Hobart TAS",
    "Braddon ACT",
];

struct Args {
    backend: String,
    tasks: usize,
    clients: usize,
    seconds: u64,
}

fn args() -> anyhow::Result<Args> {
    let mut args = Args { backend: "sqlite".into(), tasks: 100_000, clients: 32, seconds: 10 };
    let mut iter = std::env::args().skip(1);
    while let Some(arg) = iter.next() {
        let mut value = || iter.next().context("missing value");
        match arg.as_str() {
            "sqlite" | "postgres" => args.backend = arg,
            "--tasks" => args.tasks = value()?.parse()?,
            "--clients" => args.clients = value()?.parse()?,
            "--seconds" => args.seconds = value()?.parse()?,
            other => bail!("unknown argument {other}"),
        }
    }
    Ok(args)
}

/// A small deterministic generator so every run loads the same data.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[(self.next() % items.len() as u64) as usize]
    }
}

async fn load(db: &Db, count: usize) -> anyhow::Result<()> {
    let posters = (count / 100).max(1);
    let mut ids = Vec::with_capacity(posters);
    let now = Timestamp::now();
    for i in 0..posters {
        let account = users::NewAccount {
            id: server::db::new_id(),
            email: format!("poster{i}@bench.local"),
            password_hash: "not-a-real-hash".into(),
            email_verified: true,
            first_name: "Bench".into(),
            last_name: format!("Poster{i}"),
            company_name: None,
            phone: None,
            location: None,
            bio: None,
            avatar_url: None,
            account_type: "customer",
            is_tasker: false,
            skills_json: "[]".into(),
            created_at: now,
        };
        ids.push(users::create_account(db, &account).await?.id);
    }
    let today = time::OffsetDateTime::now_utc().date();
    let db = Arc::new(db.clone());
    let ids = Arc::new(ids);
    let workers = if matches!(*db, Db::Postgres(_)) { 8 } else { 1 };
    let per_worker = count.div_ceil(workers);
    let mut handles = Vec::new();
    for worker in 0..workers {
        let (db, ids) = (db.clone(), ids.clone());
        handles.push(tokio::spawn(async move {
            let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ (worker as u64 + 1));
            let start = worker * per_worker;
            for i in start..(start + per_worker).min(count) {
                let (verb, word) = (rng.pick(&VERBS), rng.pick(&WORDS));
                let draft = TaskDraft {
                    title: format!("{verb} the {word} #{i}"),
                    description: format!(
                        "Need a hand with the {} and the {}; tools supplied.",
                        rng.pick(&WORDS),
                        rng.pick(&WORDS)
                    ),
                    category_id: (rng.next() % 16 + 1) as i64,
                    location: rng.pick(&SUBURBS).to_owned(),
                    budget_cents: (rng.next() % 2000 + 5) as i64 * 100,
                    due_date: today + time::Duration::days((rng.next() % 60) as i64),
                    coordinates: None,
                    remote: false,
                };
                // Spread over the last 60 days, in insertion order.
                let created_at = Timestamp(now.0 - 60 * 86_400_000 + (i as i64) * (60 * 86_400_000 / count as i64));
                tasks::create_task(&db, ids[i % ids.len()], &draft, created_at).await?;
            }
            anyhow::Ok(())
        }));
    }
    for handle in handles {
        handle.await??;
    }
    Ok(())
}

struct Figures {
    requests: usize,
    per_second: f64,
    p50: Duration,
    p99: Duration,
}

async fn measure(base: &str, path: &str, clients: usize, seconds: u64) -> anyhow::Result<Figures> {
    let client = reqwest::Client::builder().pool_max_idle_per_host(clients).build()?;
    let url = format!("{base}{path}");
    // Warm up caches and connections.
    for _ in 0..clients {
        let response = client.get(&url).send().await?;
        if !response.status().is_success() {
            bail!("{path}: {}", response.status());
        }
        response.bytes().await?;
    }
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let started = Instant::now();
    let runs = (0..clients).map(|_| {
        let (client, url) = (client.clone(), url.clone());
        tokio::spawn(async move {
            let mut latencies = Vec::new();
            while Instant::now() < deadline {
                let sent = Instant::now();
                let response = client.get(&url).send().await?;
                let ok = response.status().is_success();
                let body = response.bytes().await?;
                if !ok || body.len() < 10 {
                    bail!("bad answer");
                }
                latencies.push(sent.elapsed());
            }
            anyhow::Ok(latencies)
        })
    });
    let mut latencies = Vec::new();
    for run in futures_util::future::join_all(runs).await {
        latencies.extend(run??);
    }
    let elapsed = started.elapsed();
    latencies.sort();
    let at = |q: f64| latencies[((latencies.len() as f64 * q) as usize).min(latencies.len() - 1)];
    Ok(Figures {
        requests: latencies.len(),
        per_second: latencies.len() as f64 / elapsed.as_secs_f64(),
        p50: at(0.50),
        p99: at(0.99),
    })
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = args()?;
    let data_dir = std::env::temp_dir().join(format!("taskhub-browse-bench-{}", uuid::Uuid::now_v7().simple()));
    std::fs::create_dir_all(&data_dir)?;
    let mut config = Config::local(data_dir.clone());
    config.bind_addr = "127.0.0.1:0".into();
    config.jwt_secret = Some(Secret::new("bench-secret-".repeat(4)));
    config.web_dist = data_dir.join("none");
    let mut scratch = None;
    if args.backend == "postgres" {
        let admin = std::env::var("BENCH_DATABASE_URL")
            .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".into());
        let name = format!("taskhub_bench_{}", uuid::Uuid::now_v7().simple());
        let mut connection = PgConnection::connect(&admin).await.context("connecting to BENCH_DATABASE_URL")?;
        connection.execute(sqlx::AssertSqlSafe(format!("create database {name}"))).await?;
        let (prefix, _) = admin.rsplit_once('/').context("BENCH_DATABASE_URL names a database")?;
        config.database_url = Secret::new(format!("{prefix}/{name}"));
        scratch = Some((admin, name));
    }
    let result = run(&args, config).await;
    if let Some((admin, name)) = scratch
        && let Ok(mut connection) = PgConnection::connect(&admin).await
    {
        let _ = connection.execute(sqlx::AssertSqlSafe(format!("drop database if exists {name} with (force)"))).await;
    }
    std::fs::remove_dir_all(&data_dir).ok();
    result
}

async fn run(args: &Args, config: Config) -> anyhow::Result<()> {
    let running = server::start(config).await?;
    let loading = Instant::now();
    load(&running.state.db, args.tasks).await?;
    if let Db::Postgres(pool) = &running.state.db {
        sqlx::query("analyze").execute(pool).await?;
    }
    if let Db::Sqlite(pool) = &running.state.db {
        sqlx::query("analyze").execute(pool).await?;
    }
    println!(
        "backend {} · {} open tasks loaded in {:.1} s · {} clients · {} s per query",
        args.backend,
        args.tasks,
        loading.elapsed().as_secs_f64(),
        args.clients,
        args.seconds
    );
    let base = running.url();
    for (name, path) in [
        ("default list", "/api/tasks"),
        ("q search", "/api/tasks?q=fence"),
        ("filtered+sorted", "/api/tasks?category=3&location=nsw&min_budget=50&max_budget=1500&sort=budget_desc"),
        ("page 50 (cursor)", ""),
    ] {
        let path = if path.is_empty() { deep_page(&base, 50).await? } else { path.to_owned() };
        let figures = measure(&base, &path, args.clients, args.seconds).await?;
        println!(
            "{name:<18} {:>8.0} req/s   p50 {:>7.2} ms   p99 {:>7.2} ms   ({} requests)",
            figures.per_second,
            figures.p50.as_secs_f64() * 1e3,
            figures.p99.as_secs_f64() * 1e3,
            figures.requests
        );
    }
    running.shutdown().await?;
    Ok(())
}

/// The path of the `pages`-th page of the default list (keyset cursors stay cheap deep down).
async fn deep_page(base: &str, pages: usize) -> anyhow::Result<String> {
    let client = reqwest::Client::new();
    let mut path = "/api/tasks".to_owned();
    for _ in 1..pages {
        let page: serde_json::Value = client.get(format!("{base}{path}")).send().await?.json().await?;
        let cursor = page["next_cursor"].as_str().context("fewer pages than asked for")?;
        path = format!("/api/tasks?cursor={cursor}");
    }
    Ok(path)
}
