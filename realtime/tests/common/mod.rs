//! Test harness: a hub served on 127.0.0.1:0 by a tiny axum router, real WebSocket clients,
//! and Redis helpers.
#![allow(dead_code)]

use std::{net::SocketAddr, process::Stdio, time::Duration};

use axum::{
    Router,
    extract::{Query, State, WebSocketUpgrade},
    response::Response,
    routing::get,
};
use futures_util::{SinkExt, StreamExt};
use realtime::{BusConfig, Hub, HubConfig};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::{
    io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader},
    net::{TcpSocket, TcpStream},
    process::{Child, Command},
    time::timeout,
};
use tokio_tungstenite::{
    MaybeTlsStream, WebSocketStream,
    tungstenite::{Message, protocol::frame::coding::CloseCode},
};

pub const WAIT: Duration = Duration::from_secs(10);

/// Fast heartbeats and a small history so tests run in moments.
pub fn test_config() -> HubConfig {
    HubConfig {
        send_queue_capacity: 16,
        ping_interval: Duration::from_secs(30),
        idle_timeout: Duration::from_secs(60),
        history_len: 8,
        history_max_age: Duration::from_secs(60),
        ..HubConfig::default()
    }
}

#[derive(Deserialize)]
struct WsQuery {
    user: Option<String>,
    ticket: Option<String>,
}

/// `/ws?user=<id>` stands in for a resolved ticket; `/ws?ticket=bad` for an invalid one.
async fn ws_handler(State(hub): State<Hub>, Query(q): Query<WsQuery>, ws: WebSocketUpgrade) -> Response {
    if q.ticket.as_deref() == Some("bad") {
        return hub.reject_unauthorized(ws);
    }
    hub.accept(ws, q.user)
}

pub async fn serve(hub: Hub) -> SocketAddr {
    let app = Router::new().route("/ws", get(ws_handler)).with_state(hub);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    addr
}

pub async fn start(config: HubConfig, bus: BusConfig) -> (Hub, SocketAddr) {
    let hub = Hub::start(config, bus).await.expect("hub starts");
    let addr = serve(hub.clone()).await;
    (hub, addr)
}

pub struct Client {
    pub ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
}

pub async fn connect(addr: SocketAddr, query: &str) -> Client {
    let url = format!("ws://{addr}/ws{query}");
    let (ws, _) = timeout(WAIT, tokio_tungstenite::connect_async(url)).await.unwrap().unwrap();
    Client { ws }
}

/// A client whose kernel receive buffer is tiny, so a stalled reader backs up quickly.
pub async fn connect_small_buffer(addr: SocketAddr) -> Client {
    let socket = TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let stream = socket.connect(addr).await.unwrap();
    let url = format!("ws://{addr}/ws");
    let (ws, _) = tokio_tungstenite::client_async(url, MaybeTlsStream::Plain(stream)).await.unwrap();
    Client { ws }
}

impl Client {
    pub async fn send(&mut self, value: Value) {
        self.ws.send(Message::text(value.to_string())).await.unwrap();
    }

    pub async fn subscribe(&mut self, topic: &str, since: Option<u64>) -> Value {
        let mut message = json!({"type": "subscribe", "topic": topic});
        if let Some(since) = since {
            message["since"] = json!(since);
        }
        self.send(message).await;
        let reply = self.next().await;
        assert_eq!(reply["type"], "subscribed", "{reply}");
        assert_eq!(reply["topic"], topic);
        reply
    }

    /// The next JSON message (protocol-level pings and pongs skipped).
    pub async fn next(&mut self) -> Value {
        loop {
            let message = timeout(WAIT, self.ws.next())
                .await
                .expect("a message within the wait")
                .expect("socket open")
                .expect("no socket error");
            match message {
                Message::Text(text) => return serde_json::from_str(&text).unwrap(),
                Message::Ping(_) | Message::Pong(_) => continue,
                other => panic!("unexpected frame {other:?}"),
            }
        }
    }

    pub async fn next_event(&mut self) -> Value {
        let message = self.next().await;
        assert_eq!(message["type"], "event", "{message}");
        message
    }

    /// Reads until the close frame and returns its code.
    pub async fn closed_with(&mut self) -> u16 {
        loop {
            match timeout(WAIT, self.ws.next()).await.expect("closed within the wait") {
                Some(Ok(Message::Close(Some(frame)))) => return u16::from(frame.code),
                Some(Ok(Message::Close(None))) => return u16::from(CloseCode::Status),
                Some(Ok(_)) => continue,
                Some(Err(error)) => panic!("socket error before close frame: {error}"),
                None => panic!("socket ended without close frame"),
            }
        }
    }
}

/// A client that completes the handshake and then never sends a byte (not even pongs), reads
/// until the server hangs up, and returns the close code it found.
pub async fn silent_client_close_code(addr: SocketAddr) -> Option<u16> {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let request = format!(
        "GET /ws HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut bytes = Vec::new();
    timeout(WAIT, stream.read_to_end(&mut bytes)).await.expect("server hangs up").unwrap();
    let head_end = bytes.windows(4).position(|w| w == b"\r\n\r\n").unwrap() + 4;
    assert!(bytes.starts_with(b"HTTP/1.1 101"), "upgrade accepted");
    let mut frames = &bytes[head_end..];
    while frames.len() >= 2 {
        let opcode = frames[0] & 0x0f;
        let (len, header) = match frames[1] & 0x7f {
            126 => (u16::from_be_bytes([frames[2], frames[3]]) as usize, 4),
            127 => (u64::from_be_bytes(frames[2..10].try_into().unwrap()) as usize, 10),
            n => (n as usize, 2),
        };
        let payload = &frames[header..header + len];
        if opcode == 0x8 {
            return Some(u16::from_be_bytes([payload[0], payload[1]]));
        }
        frames = &frames[header + len..];
    }
    None
}

/// The Redis to test the clustered bus against, from `TEST_REDIS_URL`. Without it the test is
/// skipped loudly, except in CI where it fails.
pub fn redis_url() -> Option<String> {
    match std::env::var("TEST_REDIS_URL") {
        Ok(url) if !url.is_empty() => Some(url),
        _ => {
            skip_or_fail("TEST_REDIS_URL is not set (e.g. redis://127.0.0.1:6379)");
            None
        }
    }
}

pub fn skip_or_fail(reason: &str) {
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("CI=true but {reason}");
    }
    eprintln!("\n!!!!!!!!!! SKIPPED: {reason} !!!!!!!!!!\n");
}

/// A throwaway `redis-server` without persistence on a spare port, killed on drop.
pub struct RedisServer {
    pub port: u16,
    child: Option<Child>,
}

impl RedisServer {
    pub async fn start() -> Option<RedisServer> {
        let port = {
            let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
            listener.local_addr().unwrap().port()
        };
        let mut server = RedisServer { port, child: None };
        if !server.restart().await {
            skip_or_fail("redis-server could not be started (is it installed?)");
            return None;
        }
        Some(server)
    }

    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    /// Starts the server (again, on the same port) and waits until it accepts connections.
    pub async fn restart(&mut self) -> bool {
        let spawned = Command::new("redis-server")
            .args(["--port", &self.port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no"])
            .stdout(Stdio::piped())
            .kill_on_drop(true)
            .spawn();
        let Ok(mut child) = spawned else { return false };
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let ready = timeout(WAIT, async {
            while let Ok(Some(line)) = lines.next_line().await {
                if line.contains("Ready to accept connections") {
                    return true;
                }
            }
            false
        })
        .await
        .unwrap_or(false);
        // Keep draining its output so the server never blocks on a full pipe.
        tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
        self.child = Some(child);
        ready
    }

    pub async fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            child.kill().await.unwrap();
        }
    }
}
