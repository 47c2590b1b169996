//! Push benchmark: how many Web Push deliveries per second the delivery
//! outbox sends, against a local fake push service that answers 201. A first
//! node (whose worker is idle) writes N notifications for a user with D
//! devices, i.e. N×D owed pushes; then a working node drains the outbox and
//! the time until the fake has received every push gives pushes per second.
//! Each push is really encrypted (aes128gcm) and VAPID-signed.
//!
//! `push-bench [sqlite|postgres] [--pushes 10000] [--devices 10]`
//! Postgres: `BENCH_DATABASE_URL` (an admin URL; a scratch database is created
//! and dropped), default `postgres://postgres@127.0.0.1:5432/postgres`.
//! Server, fake push service and database share this machine's cores.

use std::{
    sync::{
        Arc,
        atomic::{AtomicUsize, Ordering},
    },
    time::{Duration, Instant},
};

use anyhow::{Context, bail};
use axum::{Router, http::StatusCode, routing::post};
use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use domain::config::Config;
use p256::{SecretKey, elliptic_curve::sec1::ToEncodedPoint};
use store::{
    db::{Db, Timestamp},
    notifications::NotificationRow,
    push_subscriptions::{self, NewSubscription},
};

struct Args {
    backend: String,
    pushes: usize,
    devices: usize,
}

fn args() -> anyhow::Result<Args> {
    let mut args = Args { backend: "sqlite".into(), pushes: 10_000, devices: 10 };
    let mut iter = std::env::args().skip(1);
    while let Some(arg) = iter.next() {
        let mut value = || iter.next().context("missing value");
        match arg.as_str() {
            "sqlite" | "postgres" => args.backend = arg,
            "--pushes" => args.pushes = value()?.parse()?,
            "--devices" => args.devices = value()?.parse()?,
            other => bail!("unknown argument {other}"),
        }
    }
    if args.devices == 0 || args.devices > push_subscriptions::MAX_PER_USER as usize {
        bail!("--devices must be 1 to {}", push_subscriptions::MAX_PER_USER);
    }
    Ok(args)
}

/// The fake push service: counts pushes, answers 201.
async fn fake_push_service(received: Arc<AtomicUsize>) -> anyhow::Result<String> {
    let app = Router::new().route(
        "/push/{device}",
        post(move || {
            let received = received.clone();
            async move {
                received.fetch_add(1, Ordering::Relaxed);
                StatusCode::CREATED
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let origin = format!("http://{}", listener.local_addr()?);
    tokio::spawn(async move { axum::serve(listener, app).await });
    Ok(origin)
}

async fn load(db: &Db, origin: &str, args: &Args) -> anyhow::Result<usize> {
    let now = Timestamp::now();
    let user_id = bench_common::account(db, "pushed@bench.local".into(), "Pushed", false).await?;
    for device in 0..args.devices {
        let key = SecretKey::random(&mut rand::rngs::OsRng);
        let mut auth = [0u8; 16];
        rand::RngCore::fill_bytes(&mut rand::rngs::OsRng, &mut auth);
        let subscription = NewSubscription {
            user_id,
            session_id: None,
            endpoint: &format!("{origin}/push/{device}"),
            p256dh: &URL_SAFE_NO_PAD.encode(key.public_key().to_encoded_point(false).as_bytes()),
            auth: &URL_SAFE_NO_PAD.encode(auth),
            label: None,
        };
        push_subscriptions::upsert(db, &subscription, now).await?;
    }
    let notifications = args.pushes.div_ceil(args.devices);
    for chunk in (0..notifications).collect::<Vec<_>>().chunks(500) {
        store::on_pool!(db, |pool| {
            async {
                let mut tx = pool.begin().await?;
                for n in chunk {
                    let row = NotificationRow::new(
                        user_id,
                        model::states::NotificationKind::Offer,
                        "New offer",
                        format!("Offer number {n} on your task"),
                        Some("/my-tasks".into()),
                        Timestamp::now(),
                    );
                    store::insert_notification!(tx, &row)?;
                }
                tx.commit().await
            }
            .await
        })?;
    }
    Ok(notifications * args.devices)
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = args()?;
    let (scratch, mut config) = bench_common::Scratch::new("push", &args.backend).await?;
    // Lets the server push to the fake on loopback over http.
    config.dev_mode = true;
    let result = run(&args, config).await;
    scratch.remove().await;
    result
}

async fn run(args: &Args, config: Config) -> anyhow::Result<()> {
    let received = Arc::new(AtomicUsize::new(0));
    let origin = fake_push_service(received.clone()).await?;

    let mut idle = config.clone();
    idle.delivery_poll_interval = Duration::from_secs(3600);
    let loader = server::start(idle).await?;
    tokio::time::sleep(Duration::from_millis(100)).await; // past its worker's first (immediate) look
    let loading = Instant::now();
    let owed = load(&loader.state.db, &origin, args).await?;
    let load_time = loading.elapsed();
    loader.shutdown().await?;

    let mut working = config;
    working.delivery_poll_interval = Duration::from_millis(20);
    let started = Instant::now();
    let node = server::start(working).await?;
    let deadline = started + Duration::from_secs(600);
    while received.load(Ordering::Relaxed) < owed {
        if Instant::now() > deadline {
            bail!("only {} of {owed} pushes arrived in 10 minutes", received.load(Ordering::Relaxed));
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let elapsed = started.elapsed();
    node.shutdown().await?;
    let load_average = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "backend {} · {owed} pushes to {} devices (written in {:.1} s) · drained in {:.2} s · {:.0} pushes/s · load average {}",
        args.backend,
        args.devices,
        load_time.as_secs_f64(),
        elapsed.as_secs_f64(),
        owed as f64 / elapsed.as_secs_f64(),
        load_average.split_whitespace().take(3).collect::<Vec<_>>().join(" "),
    );
    Ok(())
}
