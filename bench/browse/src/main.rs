//! Browse benchmark: loads N open tasks (default 100k) into a fresh database,
//! starts the real server on it and measures `GET /api/tasks` for the default
//! list, word searches, each filter alone and combined, and a deep page:
//! requests per second and p50/p99 latency with C concurrent clients for D
//! seconds each, with the load average.
//!
//! `browse-bench [sqlite|postgres] [--tasks 100000] [--clients 32] [--seconds 10] [--explain]
//! [--wait-quiet] [--only NAME]`: `--explain` prints each query's plan, `--wait-quiet` waits after
//! loading until the machine's 1-minute load average is below 1 (loading is slow at a million
//! tasks; measuring beside other work is not measuring), `--only` runs the queries whose name
//! contains NAME (`--only "best match"`).
//! `BENCH_KEEP=1` keeps the loaded database and `BENCH_REUSE` runs on it again
//! (`bench/common`), so two builds can be measured on one database without loading it twice.
//! Postgres: `BENCH_DATABASE_URL` (an admin URL; a scratch database is created
//! and dropped), default `postgres://postgres@127.0.0.1:5432/postgres`.
//! Server and load generator share this machine's cores.

use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use bench_common::{Rng, Scratch, load_average};
use domain::config::Config;
use model::marketplace::rules::TaskDraft;
use store::{
    browse,
    db::{Db, Timestamp},
    tasks,
};

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
    /// Print each query's plan (`EXPLAIN`) after its figures.
    explain: bool,
    /// Wait, once the tasks are loaded, until the 1-minute load average is below 1.
    wait_quiet: bool,
    /// Run only the queries whose name contains this (`--only "best match"`).
    only: Option<String>,
}

fn args() -> anyhow::Result<Args> {
    let mut args = Args {
        backend: "sqlite".into(),
        tasks: 100_000,
        clients: 32,
        seconds: 10,
        explain: false,
        wait_quiet: false,
        only: None,
    };
    let mut iter = std::env::args().skip(1);
    while let Some(arg) = iter.next() {
        let mut value = || iter.next().context("missing value");
        match arg.as_str() {
            "sqlite" | "postgres" => args.backend = arg,
            "--tasks" => args.tasks = value()?.parse()?,
            "--clients" => args.clients = value()?.parse()?,
            "--seconds" => args.seconds = value()?.parse()?,
            "--explain" => args.explain = true,
            "--wait-quiet" => args.wait_quiet = true,
            "--only" => args.only = Some(value()?),
            other => bail!("unknown argument {other}"),
        }
    }
    Ok(args)
}

async fn load(db: &Db, count: usize) -> anyhow::Result<()> {
    let posters = (count / 100).max(1);
    let mut ids = Vec::with_capacity(posters);
    let now = Timestamp::now();
    for i in 0..posters {
        ids.push(bench_common::account(db, format!("poster{i}@bench.local"), &format!("Poster{i}"), false).await?);
    }
    let today = time::OffsetDateTime::now_utc().date();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut rows = Vec::with_capacity(ROWS_PER_INSERT);
    for i in 0..count {
        let (verb, word) = (rng.pick(&VERBS), rng.pick(&WORDS));
        let draft = TaskDraft {
            title: format!("{verb} the {word} #{i}"),
            description: format!(
                "Need a hand with the {} and the {}; tools supplied.",
                rng.pick(&WORDS),
                rng.pick(&WORDS)
            ),
            category_id: (rng.next_u64() % 16 + 1) as i64,
            location: rng.pick(&SUBURBS).to_owned(),
            budget_cents: (rng.next_u64() % 2000 + 5) as i64 * 100,
            due_date: today + time::Duration::days((rng.next_u64() % 60) as i64),
            coordinates: None,
            remote: false,
        };
        // Spread over the last 60 days, in insertion order.
        let created_at = Timestamp(now.0 - 60 * 86_400_000 + (i as i64) * (60 * 86_400_000 / count as i64));
        rows.push((ids[i % ids.len()], draft, created_at));
        if rows.len() == ROWS_PER_INSERT || i + 1 == count {
            insert_open_tasks(db, &rows).await?;
            rows.clear();
        }
    }
    Ok(())
}

/// Rows per multi-row insert (14 bind values each, under either database's limit).
const ROWS_PER_INSERT: usize = 1_000;

/// Inserts open tasks as `store::tasks::create_task` does, many rows per statement (a million
/// one-row transactions take most of an hour): the same columns, from the store's own helpers;
/// the full-text index follows in the same statement (a generated column on PostgreSQL,
/// triggers on SQLite). No alert jobs: nothing here has an alert.
async fn insert_open_tasks(db: &Db, rows: &[(uuid::Uuid, TaskDraft, Timestamp)]) -> anyhow::Result<()> {
    let values: Vec<String> = (0..rows.len())
        .map(|row| {
            let p = |n: usize| format!("${}", row * 14 + n);
            format!(
                "({}, {}, {}, {}, {}, {}, {}, {}, {}, 'open', {}, {}, {}, {}, {}, {})",
                p(1),
                p(2),
                p(3),
                p(4),
                p(5),
                p(6),
                p(7),
                p(8),
                p(9),
                p(10),
                p(10),
                p(11),
                p(12),
                p(13),
                p(14)
            )
        })
        .collect();
    let sql = format!(
        "insert into tasks (id, poster_id, title, description, search_text, category_id, location, budget_cents,
                            due_date, status, created_at, updated_at, location_search, lat, lon, remote)
         values {}",
        values.join(", ")
    );
    store::on_pool!(db, |pool| {
        let mut query = sqlx::query(sqlx::AssertSqlSafe(sql.clone()));
        for (poster_id, draft, created_at) in rows {
            let (lat, lon) = draft.coordinates.unzip();
            query = query
                .bind(store::db::new_id())
                .bind(*poster_id)
                .bind(&draft.title)
                .bind(&draft.description)
                .bind(tasks::search_text(&draft.title, &draft.description))
                .bind(draft.category_id)
                .bind(&draft.location)
                .bind(draft.budget_cents)
                .bind(draft.due_date_text())
                .bind(*created_at)
                .bind(tasks::location_search(&draft.location))
                .bind(lat)
                .bind(lon)
                .bind(draft.remote);
        }
        query.execute(pool).await.map(|_| ())
    })?;
    Ok(())
}

/// One browse request and the store filter the server builds from it (for `--explain`).
struct Query {
    name: &'static str,
    /// "" for the 50th page of the default list, whose cursor is only known at run time.
    path: &'static str,
    filter: browse::BrowseFilter,
    sort: browse::BrowseSort,
}

fn queries() -> Vec<Query> {
    use browse::{BrowseFilter, BrowseSort};
    let words = |q: &str| Some(store::search::search_words(q));
    let nsw = || Some("nsw".to_owned());
    let query = |name, path, filter, sort| Query { name, path, filter, sort };
    vec![
        query("default list (newest)", "/api/tasks", BrowseFilter::default(), BrowseSort::Newest),
        query(
            "q=fence (best match)",
            "/api/tasks?q=fence",
            BrowseFilter { words: words("fence"), ..Default::default() },
            BrowseSort::BestMatch,
        ),
        query(
            "q=clean kitchen (best match)",
            "/api/tasks?q=clean%20kitchen",
            BrowseFilter { words: words("clean kitchen"), ..Default::default() },
            BrowseSort::BestMatch,
        ),
        query(
            "q=fence, newest",
            "/api/tasks?q=fence&sort=newest",
            BrowseFilter { words: words("fence"), ..Default::default() },
            BrowseSort::Newest,
        ),
        query(
            "category",
            "/api/tasks?category=3",
            BrowseFilter { category_id: Some(3), ..Default::default() },
            BrowseSort::Newest,
        ),
        query(
            "location",
            "/api/tasks?location=nsw",
            BrowseFilter { location: nsw(), ..Default::default() },
            BrowseSort::Newest,
        ),
        query(
            "budget range",
            "/api/tasks?min_budget=50&max_budget=1500",
            BrowseFilter { min_budget_cents: Some(5_000), max_budget_cents: Some(150_000), ..Default::default() },
            BrowseSort::Newest,
        ),
        // Budgets are whole dollars from 5 to 2,004, so at a million tasks each dollar holds
        // about 500: these hold about 1,000 (read whole from the budget index), 2,500 (just
        // above `NARROW_BUDGET_RANGE`: the longest walk of the newest index) and none.
        query(
            "narrow budget range",
            "/api/tasks?min_budget=2003",
            BrowseFilter { min_budget_cents: Some(200_300), ..Default::default() },
            BrowseSort::Newest,
        ),
        query(
            "budget range at probe's edge",
            "/api/tasks?min_budget=2000",
            BrowseFilter { min_budget_cents: Some(200_000), ..Default::default() },
            BrowseSort::Newest,
        ),
        query(
            "empty budget range",
            "/api/tasks?min_budget=5000",
            BrowseFilter { min_budget_cents: Some(500_000), ..Default::default() },
            BrowseSort::Newest,
        ),
        query("sort due soonest", "/api/tasks?sort=due_soonest", BrowseFilter::default(), BrowseSort::DueSoonest),
        query(
            "filtered+sorted",
            "/api/tasks?category=3&location=nsw&min_budget=50&max_budget=1500&sort=budget_desc",
            BrowseFilter {
                category_id: Some(3),
                location: nsw(),
                min_budget_cents: Some(5_000),
                max_budget_cents: Some(150_000),
                ..Default::default()
            },
            BrowseSort::BudgetDesc,
        ),
        query(
            "q + all filters (best match)",
            "/api/tasks?q=clean&category=3&location=nsw&min_budget=50&max_budget=1500",
            BrowseFilter {
                words: words("clean"),
                category_id: Some(3),
                location: nsw(),
                min_budget_cents: Some(5_000),
                max_budget_cents: Some(150_000),
                ..Default::default()
            },
            BrowseSort::BestMatch,
        ),
        query("page 50 (cursor)", "", BrowseFilter::default(), BrowseSort::Newest),
    ]
}

async fn wait_for_quiet_machine() {
    loop {
        let one_minute: f64 =
            load_average().split_whitespace().next().and_then(|value| value.parse().ok()).unwrap_or(0.0);
        if one_minute < 1.0 {
            return;
        }
        println!("waiting for a quiet machine (load average {})", load_average());
        tokio::time::sleep(Duration::from_secs(15)).await;
    }
}

struct Figures {
    requests: usize,
    per_second: f64,
    p50: Duration,
    p99: Duration,
}

/// `own_reads`: each request carries an `Authorization` header, so the server reads for it alone
/// (anonymous identical requests made at once share one read, `http/shared_reads.rs`).
async fn measure(base: &str, path: &str, clients: usize, seconds: u64, own_reads: bool) -> anyhow::Result<Figures> {
    let mut headers = reqwest::header::HeaderMap::new();
    if own_reads {
        headers.insert(reqwest::header::AUTHORIZATION, reqwest::header::HeaderValue::from_static("Bearer bench"));
    }
    let client = reqwest::Client::builder().pool_max_idle_per_host(clients).default_headers(headers).build()?;
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
    let (scratch, config) = Scratch::kept_or_new("browse", &args.backend).await?;
    let result = run(&args, config, scratch.reused()).await;
    scratch.remove().await;
    result
}

async fn run(args: &Args, config: Config, reused: bool) -> anyhow::Result<()> {
    let running = server::start(config).await?;
    let loading = Instant::now();
    if !reused {
        load(&running.state.db, args.tasks).await?;
    }
    let open_tasks = store::on_pool!(&running.state.db, |pool| {
        sqlx::query_scalar::<_, i64>("select count(*) from tasks where status = 'open'").fetch_one(pool).await
    })?;
    if reused {
        anyhow::ensure!(open_tasks > 0, "BENCH_REUSE: the kept database holds no open tasks");
        println!("on the kept database (BENCH_REUSE), not loaded again");
    }
    // PostgreSQL's autovacuum would analyze the loaded tasks in a minute; do it now. SQLite's
    // statistics are gathered as the server gathers them every hour (`PRAGMA optimize`, with its
    // own bound on the work), so the figures are those of the plans a real server uses.
    if let Db::Postgres(pool) = &running.state.db {
        sqlx::query("analyze").execute(pool).await?;
    }
    running.state.db.refresh_planner_statistics().await?;
    println!(
        "backend {} · {} open tasks loaded in {:.1} s · {} clients · {} s per query",
        args.backend,
        open_tasks,
        loading.elapsed().as_secs_f64(),
        args.clients,
        args.seconds
    );
    if args.wait_quiet {
        wait_for_quiet_machine().await;
    }
    let base = running.url();
    for query in queries().into_iter().filter(|query| args.only.as_ref().is_none_or(|only| query.name.contains(only))) {
        let path = match query.path {
            "" => deep_page(&base, 50).await?,
            path => path.to_owned(),
        };
        // Before the measurement, so a query too slow to measure still shows its plan.
        if args.explain {
            let after = None;
            let plan = store::open_tasks::explain_page(&running.state.db, &query.filter, query.sort, after, 21).await?;
            println!("{}:", query.name);
            for line in plan {
                println!("    {line}");
            }
        }
        for (own_reads, how) in [(false, "shared"), (true, "own reads")] {
            let figures = measure(&base, &path, args.clients, args.seconds, own_reads).await?;
            println!(
                "{:<30} {:<9} {:>6.0} req/s   p50 {:>7.2} ms   p99 {:>7.2} ms   ({} requests; load average {})",
                query.name,
                how,
                figures.per_second,
                figures.p50.as_secs_f64() * 1e3,
                figures.p99.as_secs_f64() * 1e3,
                figures.requests,
                load_average()
            );
        }
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
