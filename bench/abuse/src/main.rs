//! Abuse benchmark: what an anonymous attacker costs a node, one section per attack, each
//! against a fresh in-process server (`server::start`) on a fresh database.
//!
//! `abuse-bench [sqlite|postgres] [--sections bombs,hub,refunds] [--bombs 20] [--cycles 100000] [--transfers 150]`
//! Postgres: `BENCH_DATABASE_URL` (an admin URL; a scratch database is created and dropped),
//! default `postgres://postgres@127.0.0.1:5432/postgres`.
//!
//! The server runs in this process, so RSS figures are this process's (`/proc/self/status`);
//! the load generator's own share is small and the same before and after.

mod bombs;
mod hub;
mod memory;
mod refunds;

use anyhow::{Context, bail};
use server::{
    RunningServer,
    config::{Config, Secret},
};
use sqlx::{Connection, Executor, PgConnection};

struct Args {
    backend: String,
    sections: Vec<String>,
    bombs: usize,
    cycles: usize,
    transfers: usize,
}

fn args() -> anyhow::Result<Args> {
    let mut args = Args {
        backend: "sqlite".into(),
        sections: vec!["bombs".into(), "hub".into(), "refunds".into()],
        bombs: 20,
        cycles: 100_000,
        transfers: 150,
    };
    let mut iter = std::env::args().skip(1);
    while let Some(arg) = iter.next() {
        let mut value = || iter.next().context("missing value");
        match arg.as_str() {
            "sqlite" | "postgres" => args.backend = arg,
            "--sections" => args.sections = value()?.split(',').map(str::to_owned).collect(),
            "--bombs" => args.bombs = value()?.parse()?,
            "--cycles" => args.cycles = value()?.parse()?,
            "--transfers" => args.transfers = value()?.parse()?,
            other => bail!("unknown argument {other}"),
        }
    }
    Ok(args)
}

/// A server on a fresh database, with `adjust` applied to its configuration.
pub struct Bench {
    pub server: RunningServer,
    data_dir: std::path::PathBuf,
    scratch: Option<(String, String)>,
}

impl Bench {
    pub async fn start(backend: &str, adjust: impl FnOnce(&mut Config)) -> anyhow::Result<Bench> {
        let data_dir = std::env::temp_dir().join(format!("taskhub-abuse-bench-{}", uuid::Uuid::now_v7().simple()));
        std::fs::create_dir_all(&data_dir)?;
        let mut config = Config::local(data_dir.clone());
        config.bind_addr = "127.0.0.1:0".into();
        config.jwt_secret = Some(Secret::new("bench-secret-".repeat(4)));
        config.web_dist = data_dir.join("none");
        let mut scratch = None;
        if backend == "postgres" {
            let admin = std::env::var("BENCH_DATABASE_URL")
                .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".into());
            let name = format!("taskhub_bench_{}", uuid::Uuid::now_v7().simple());
            let mut connection = PgConnection::connect(&admin).await.context("connecting to BENCH_DATABASE_URL")?;
            connection.execute(sqlx::AssertSqlSafe(format!("create database {name}"))).await?;
            let (prefix, _) = admin.rsplit_once('/').context("BENCH_DATABASE_URL names a database")?;
            config.database_url = Secret::new(format!("{prefix}/{name}"));
            scratch = Some((admin, name));
        }
        adjust(&mut config);
        let server = server::start(config).await?;
        Ok(Bench { server, data_dir, scratch })
    }

    pub async fn stop(self) -> anyhow::Result<()> {
        self.server.shutdown().await?;
        if let Some((admin, name)) = self.scratch
            && let Ok(mut connection) = PgConnection::connect(&admin).await
        {
            let drop = format!("drop database if exists {name} with (force)");
            let _ = connection.execute(sqlx::AssertSqlSafe(drop)).await;
        }
        std::fs::remove_dir_all(&self.data_dir).ok();
        Ok(())
    }
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = args()?;
    println!("backend {} · sections {}", args.backend, args.sections.join(","));
    for section in &args.sections {
        match section.as_str() {
            "bombs" => bombs::run(&args.backend, args.bombs).await?,
            "hub" => hub::run(&args.backend, args.cycles).await?,
            "refunds" => refunds::run(&args.backend, args.transfers).await?,
            other => bail!("unknown section {other} (bombs, hub, refunds)"),
        }
    }
    Ok(())
}
