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
use bench_common::Scratch;
use domain::config::Config;
use server::RunningServer;

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
    scratch: Scratch,
}

impl Bench {
    pub async fn start(backend: &str, adjust: impl FnOnce(&mut Config)) -> anyhow::Result<Bench> {
        let (scratch, mut config) = Scratch::new("abuse", backend).await?;
        adjust(&mut config);
        let server = server::start(config).await?;
        Ok(Bench { server, scratch })
    }

    pub async fn stop(self) -> anyhow::Result<()> {
        self.server.shutdown().await?;
        self.scratch.remove().await;
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
