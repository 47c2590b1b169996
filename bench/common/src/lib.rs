//! What the in-process benchmarks share: a server configuration on a fresh database (SQLite in a
//! temporary directory, or a scratch PostgreSQL database created and dropped), a deterministic
//! generator, an account to post or receive with, and the machine's load average.

use anyhow::Context;
use domain::config::{Config, Secret};
use sqlx::{Connection, Executor, PgConnection};
use store::{
    db::{Db, Timestamp},
    users,
};

/// A fresh database and data directory for one benchmark run; [`Scratch::remove`] drops both.
/// Postgres: `BENCH_DATABASE_URL` (an admin URL), default `postgres://postgres@127.0.0.1:5432/postgres`;
/// `BENCH_PG_LOG_MS=n` logs the scratch database's statements slower than n ms; `BENCH_PG_POOL=n`
/// caps the server's PostgreSQL pool at n connections; `BENCH_KEEP=1` keeps the database and
/// directory (and says where), to look into them after a run;
/// `BENCH_REUSE=<directory>` (SQLite) or `BENCH_REUSE=<database>` (PostgreSQL) runs a bench that
/// supports it ([`Scratch::kept_or_new`]) on such a kept one instead, and leaves it as it was (to
/// measure two builds on one large database). A kept database carries its build's migrations: run
/// builds on it that know them all.
pub struct Scratch {
    data_dir: std::path::PathBuf,
    database: Option<(String, String)>,
    reused: bool,
}

impl Scratch {
    /// The scratch place and a local server configuration on it (`backend`: sqlite or postgres),
    /// on a free loopback port, without the web app.
    pub async fn new(bench: &str, backend: &str) -> anyhow::Result<(Scratch, Config)> {
        Self::create(bench, backend, None).await
    }

    /// [`Scratch::new`], or the database `BENCH_REUSE` names (kept by an earlier run), which is
    /// left as it is afterwards: for a bench that can run on a database it did not load.
    pub async fn kept_or_new(bench: &str, backend: &str) -> anyhow::Result<(Scratch, Config)> {
        Self::create(bench, backend, std::env::var("BENCH_REUSE").ok()).await
    }

    async fn create(bench: &str, backend: &str, reuse: Option<String>) -> anyhow::Result<(Scratch, Config)> {
        let data_dir = match (&reuse, backend) {
            (Some(kept), "sqlite") => {
                let kept = std::path::PathBuf::from(kept);
                anyhow::ensure!(
                    kept.join("taskhub.db").is_file(),
                    "BENCH_REUSE: {} holds no taskhub.db (a data directory BENCH_KEEP kept)",
                    kept.display()
                );
                kept
            }
            _ => std::env::temp_dir().join(format!("taskhub-{bench}-bench-{}", uuid::Uuid::now_v7().simple())),
        };
        std::fs::create_dir_all(&data_dir)?;
        let mut config = Config::local(data_dir.clone());
        // The benchmarks pay through the sandbox on purpose.
        config.allow_sandbox_providers = true;
        config.bind_addr = "127.0.0.1:0".into();
        config.jwt_secret = Some(Secret::new("bench-secret-".repeat(4)));
        config.web_dist = data_dir.join("none");
        // The most connections the server's PostgreSQL pool opens (SQLite's pool is fixed).
        if let Ok(size) = std::env::var("BENCH_PG_POOL") {
            config.database_max_connections = size.parse().context("BENCH_PG_POOL is a number of connections")?;
        }
        let mut database = None;
        if backend == "postgres" {
            let admin = std::env::var("BENCH_DATABASE_URL")
                .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".into());
            let mut connection = PgConnection::connect(&admin).await.context("connecting to BENCH_DATABASE_URL")?;
            let name = match &reuse {
                Some(kept) => kept.clone(),
                None => {
                    let name = format!("taskhub_bench_{}", uuid::Uuid::now_v7().simple());
                    connection.execute(sqlx::AssertSqlSafe(format!("create database {name}"))).await?;
                    name
                }
            };
            // Profiling: statements slower than this many ms go to the server's log.
            if let Ok(ms) = std::env::var("BENCH_PG_LOG_MS") {
                let ms: u32 = ms.parse().context("BENCH_PG_LOG_MS is a number of milliseconds")?;
                let set = format!("alter database {name} set log_min_duration_statement = {ms}");
                connection.execute(sqlx::AssertSqlSafe(set)).await?;
            }
            let (prefix, _) = admin.rsplit_once('/').context("BENCH_DATABASE_URL names a database")?;
            config.database_url = Secret::new(format!("{prefix}/{name}"));
            database = Some((admin, name));
        }
        // The Redis bus instead of the in-process one, to count its round trips in a figure.
        if let Ok(url) = std::env::var("BENCH_REDIS_URL") {
            config.redis_url = Some(Secret::new(url));
        }
        Ok((Scratch { data_dir, database, reused: reuse.is_some() }, config))
    }

    /// Whether this run is on a database kept by an earlier one (`BENCH_REUSE`).
    pub fn reused(&self) -> bool {
        self.reused
    }

    /// Drops what this run created; a reused database stays.
    pub async fn remove(self) {
        if std::env::var_os("BENCH_KEEP").is_some() {
            let database = self.database.as_ref().map_or("none", |(_, name)| name.as_str());
            eprintln!("kept (BENCH_KEEP): data directory {}, PostgreSQL database {database}", self.data_dir.display());
            return;
        }
        match self.database {
            // A reused SQLite database is its data directory.
            None if self.reused => return,
            Some((admin, name)) if !self.reused => {
                if let Ok(mut connection) = PgConnection::connect(&admin).await {
                    let drop = format!("drop database if exists {name} with (force)");
                    let _ = connection.execute(sqlx::AssertSqlSafe(drop)).await;
                }
            }
            _ => {}
        }
        std::fs::remove_dir_all(&self.data_dir).ok();
    }
}

/// A small deterministic generator (xorshift), so every run loads the same data.
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[(self.next_u64() % items.len() as u64) as usize]
    }

    pub fn chance(&mut self, percent: u64) -> bool {
        self.next_u64() % 100 < percent
    }
}

/// A verified account named Bench `last_name` (a tasker's when `is_tasker`); its id.
pub async fn account(db: &Db, email: String, last_name: &str, is_tasker: bool) -> anyhow::Result<uuid::Uuid> {
    let account = users::NewAccount {
        id: store::db::new_id(),
        email,
        password_hash: "not-a-real-hash".into(),
        email_verified: true,
        first_name: "Bench".into(),
        last_name: last_name.into(),
        company_name: None,
        phone: None,
        location: None,
        bio: None,
        avatar_url: None,
        account_type: if is_tasker { "tasker" } else { "customer" },
        is_tasker,
        skills_json: "[]".into(),
        created_at: Timestamp::now(),
    };
    Ok(users::create_account(db, &account).await?.id)
}

/// The 1-, 5- and 15-minute load averages, as `/proc/loadavg` has them.
pub fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|text| text.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}
