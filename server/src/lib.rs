//! Taskhub's server: the HTTP API, the static web app, the configuration's wiring, the workers
//! and the seed, over the `domain` crate's transitions.
//! `main.rs` is a thin CLI over [`start`], which tests call too.

pub mod http;
pub mod observability;
pub mod seed;
pub mod task_views;
pub mod workers;

use std::{net::SocketAddr, sync::Arc};

use anyhow::Context;
use axum::serve::ListenerExt;
use tokio::{net::TcpListener, task::JoinHandle};
use tokio_util::sync::CancellationToken;

use domain::{
    auth::access::AccessTokens,
    config::Config,
    delivery, live_topics,
    mail::Mailer,
    media::Media,
    payments,
    rate_limit::{AuthRateLimits, Limiter},
    services::Services,
    signin, sms, verification,
};
use store::db::Db;

use crate::{http::state::AppState, workers::Workers};

/// A server accepting connections; dropping it does not stop it, [`RunningServer::shutdown`] does.
pub struct RunningServer {
    pub addr: SocketAddr,
    pub state: AppState,
    pub workers: Workers,
    stop: CancellationToken,
    task: JoinHandle<std::io::Result<()>>,
}

impl RunningServer {
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Stops accepting connections, lets in-flight requests finish, stops the workers, closes the pool.
    pub async fn shutdown(self) -> anyhow::Result<()> {
        self.stop.cancel();
        self.wait().await
    }

    /// Serves until the server stops (see [`RunningServer::stop_token`]), then stops the workers
    /// and closes the pool.
    pub async fn wait(self) -> anyhow::Result<()> {
        let served = self.task.await.context("server task");
        self.workers.stop().await;
        self.state.db.close().await;
        served??;
        Ok(())
    }

    /// Cancelling it starts the shutdown that [`RunningServer::wait`] completes.
    pub fn stop_token(&self) -> CancellationToken {
        self.stop.clone()
    }
}

/// Opens the database (running migrations), binds `config.bind_addr` and serves.
pub async fn start(config: Config) -> anyhow::Result<RunningServer> {
    // First, so a bad secret stops the server before it touches the database.
    let jwt_secret = AccessTokens::load_or_create_secret(config.jwt_secret.as_ref(), &config.data_dir)?;
    let vapid = delivery::vapid::VapidKey::load_or_create(config.vapid_private_key.as_ref(), &config.data_dir)?;
    config.check_providers()?;
    if config.allow_sandbox_providers && !config.dev_mode {
        tracing::warn!(
            "ALLOW_SANDBOX_PROVIDERS is on: the sandbox checkout, payout and identity pages are served and \
             nothing is really charged, paid out or checked. Never in production."
        );
    }
    let db = Db::connect_with(
        config.database_url.expose(),
        config.database_max_connections,
        config.database_acquire_timeout,
    )
    .await?;
    db.migrate().await?;
    store::backfills::fill_missing_location_search(&db).await.context("filling tasks.location_search")?;
    tracing::debug!(places = model::gazetteer::load(), "gazetteer loaded");
    let listener =
        TcpListener::bind(&config.bind_addr).await.with_context(|| format!("binding {}", config.bind_addr))?;
    let addr = listener.local_addr()?;
    let public_url: Arc<str> = config.public_url.clone().unwrap_or_else(|| format!("http://{addr}")).into();

    let limiter = match &config.redis_url {
        Some(url) => Limiter::shared(url.expose())?,
        None => Limiter::local(),
    };
    let auth_limits = AuthRateLimits::new(limiter.clone(), config.auth_rate_limit_per_minute);
    let bus = match &config.redis_url {
        Some(url) => realtime::BusConfig::Redis { url: url.expose().to_owned() },
        None => realtime::BusConfig::Local,
    };
    let operator_sockets = live_topics::OperatorSockets::default();
    let background = tokio_util::task::TaskTracker::new();
    let hub_config = realtime::HubConfig {
        max_connections_per_client: config.ws_max_connections_per_client,
        subscribes_per_second: config.ws_subscribes_per_second,
        resync_refetches_per_second: config.ws_resync_refetches_per_second,
        topic_exists: live_topics::topic_exists(db.clone()),
        typing_peer: live_topics::typing_peer(db.clone()),
        online_access: live_topics::online_access(db.clone()),
        record_last_seen: live_topics::record_last_seen(db.clone(), background.clone()),
        authorize: operator_sockets.authorize(),
        ..realtime::HubConfig::default()
    };
    let hub = realtime::Hub::start(hub_config, bus).await.context("starting the realtime hub")?;
    let delivery = delivery::Delivery::new(
        delivery::push::PushSender::new(
            vapid,
            config.vapid_subject.clone(),
            delivery::endpoint::EndpointPolicy {
                allowed_hosts: config.push_allowed_hosts.clone(),
                dev_mode: config.dev_mode,
            },
        )?,
        delivery::digest::UnsubscribeTokens::new(jwt_secret.expose()),
    );
    let services = Services {
        hub,
        delivery: Arc::new(delivery),
        payments: payments::Providers::from_config(&config, &db, &public_url),
        identity: verification::identity::IdentityProviders::from_config(&config, &db, &public_url),
        sessions: Default::default(),
        mailer: Mailer::from_config(&config)?,
        media: Media::from_config(&config)?,
        limiter,
        public_url: public_url.clone(),
        db,
        config: Arc::new(config),
        alert_jobs: Default::default(),
        background,
    };
    let state = AppState {
        sms: sms::from_config(&services.config)?,
        signin: Arc::new(signin::Providers::from_config(&services.config, &public_url, jwt_secret.expose())?),
        access_tokens: Arc::new(AccessTokens::new(&jwt_secret)),
        auth_limits,
        metrics: observability::prometheus(),
        operator_sockets,
        task_views: Default::default(),
        task_pages: Default::default(),
        browse_pages: Default::default(),
        walk_edge: Default::default(),
        services,
    };

    let workers = Workers::start(&state);
    let app = http::router(state.clone());
    let stop = CancellationToken::new();
    let stopped = stop.clone();
    let hub = state.hub.clone();
    let task = tokio::spawn(async move {
        // Live events are small frames; without NODELAY the kernel may hold them back ~40 ms.
        let listener = listener.tap_io(|tcp| {
            let _ = tcp.set_nodelay(true);
        });
        axum::serve(listener, app.into_make_service_with_connect_info::<SocketAddr>())
            .with_graceful_shutdown(async move {
                stopped.cancelled().await;
                // Close live sockets with "going away" so browsers reconnect (to another node)
                // at once instead of waiting for their heartbeat to time out.
                hub.shutdown();
            })
            .await
    });
    tracing::info!(backend = state.db.backend_name(), "listening on http://{addr}");
    Ok(RunningServer { addr, state, workers, stop, task })
}
