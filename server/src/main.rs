use anyhow::Context;
use domain::config::Config;
use store::db::Db;

const USAGE: &str = "usage: server [serve | migrate | seed --demo | openapi]";

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    server::observability::init_tracing();
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args == ["openapi"] {
        // The document the server serves at /api/openapi.json; needs no configuration.
        print!("{}", server::http::openapi::ApiDoc::json());
        return Ok(());
    }
    let config = Config::from_env()?;
    std::fs::create_dir_all(&config.data_dir).with_context(|| format!("creating {}", config.data_dir.display()))?;
    match args.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        [] | ["serve"] => serve(config).await,
        ["migrate"] => {
            let db = Db::connect(config.database_url.expose()).await?;
            db.migrate().await?;
            println!("migrations applied ({})", db.backend_name());
            Ok(())
        }
        ["seed", "--demo"] => {
            let db = Db::connect(config.database_url.expose()).await?;
            db.migrate().await?;
            let media = domain::media::Media::from_config(&config)?;
            let report = server::seed::seed_demo(&db, &media).await?;
            println!("{report}");
            Ok(())
        }
        _ => {
            eprintln!("{USAGE}");
            std::process::exit(2);
        }
    }
}

async fn serve(config: Config) -> anyhow::Result<()> {
    let running = server::start(config).await?;
    // Printed as well as logged, so scripts can read the bound port.
    println!("listening on {}", running.url());
    let stop = running.stop_token();
    tokio::spawn(async move {
        shutdown_requested().await;
        tracing::info!("shutting down");
        stop.cancel();
    });
    running.wait().await
}

async fn shutdown_requested() {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut terminate = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
            .expect("installing the SIGTERM handler");
        tokio::select! {
            _ = ctrl_c => {}
            _ = terminate.recv() => {}
        }
    }
    #[cfg(not(unix))]
    let _ = ctrl_c.await;
}
