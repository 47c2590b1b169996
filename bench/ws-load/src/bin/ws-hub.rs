//! The realtime hub alone, for load tests: `ws-hub [--bind ADDR] [--redis URL]`.
//! `GET /ws` accepts anonymous sockets (every topic allowed), `POST /burst?topic&topics&count&rate`
//! publishes `count` events at `rate` per second, the n-th to topic `{topic}{n % topics}`, each
//! carrying its publish time in `data.t` (ns since the Unix epoch), and `GET /stats` answers
//! the hub's counters.

use std::{sync::Arc, time::Duration};

use axum::{
    Json, Router,
    extract::{Query, State, WebSocketUpgrade},
    http::StatusCode,
    response::Response,
    routing::{get, post},
    serve::ListenerExt,
};
use realtime::{BusConfig, Hub, HubConfig};
use serde::Deserialize;
use serde_json::{Value, json};

#[derive(Deserialize)]
struct Burst {
    topic: String,
    topics: u64,
    count: u64,
    rate: u64,
}

async fn ws(State(hub): State<Hub>, ws: WebSocketUpgrade) -> Response {
    hub.accept(ws, None)
}

async fn burst(State(hub): State<Hub>, Query(burst): Query<Burst>) -> StatusCode {
    tokio::spawn(async move {
        let period = Duration::from_nanos(1_000_000_000 / burst.rate.max(1));
        let mut tick = tokio::time::interval(period);
        for n in 0..burst.count {
            tick.tick().await;
            let topic = format!("{}{}", burst.topic, n % burst.topics.max(1));
            hub.publish(&topic, "bench", &json!({"t": ws_load::now_ns(), "n": n})).await;
        }
    });
    StatusCode::ACCEPTED
}

async fn stats(State(hub): State<Hub>) -> Json<Value> {
    let s = hub.stats();
    Json(json!({
        "connections": s.connections, "subscriptions": s.subscriptions, "published": s.published,
        "delivered": s.delivered, "dropped": s.dropped,
        "slow_consumer_closes": s.slow_consumer_closes, "heartbeat_closes": s.heartbeat_closes,
        "refused_connections": s.refused_connections,
    }))
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    ws_load::raise_fd_limit();
    let mut args = std::env::args().skip(1);
    let (mut bind, mut bus) = ("127.0.0.1:0".to_owned(), BusConfig::Local);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--bind" => bind = args.next().expect("--bind ADDR"),
            "--redis" => bus = BusConfig::Redis { url: args.next().expect("--redis URL") },
            other => anyhow::bail!("unknown argument {other}"),
        }
    }
    let config = HubConfig { max_connections: 250_000, authorize: Arc::new(|_, _| true), ..HubConfig::default() };
    let hub = Hub::start(config, bus).await?;
    let app =
        Router::new().route("/ws", get(ws)).route("/burst", post(burst)).route("/stats", get(stats)).with_state(hub);
    let listener = tokio::net::TcpListener::bind(&bind).await?;
    println!("listening on http://{}", listener.local_addr()?);
    // Without it Nagle's algorithm holds small event frames back for up to 40 ms.
    let listener = listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    axum::serve(listener, app).await?;
    Ok(())
}
