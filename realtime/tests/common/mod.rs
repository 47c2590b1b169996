//! Test harness: a hub served on 127.0.0.1:0 by a tiny axum router, real WebSocket clients,
//! and Redis (see `services`).
#![allow(dead_code)]

use std::{net::SocketAddr, time::Duration};

use axum::{
    Router,
    extract::{Query, State, WebSocketUpgrade},
    response::Response,
    routing::get,
};
use futures_util::{SinkExt, StreamExt};
use realtime::{BusConfig, Hub, HubConfig, SocketOwner};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::{TcpSocket, TcpStream},
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
        presence_interval: Duration::from_millis(300),
        presence_ttl: Duration::from_millis(1500),
        ..HubConfig::default()
    }
}

#[derive(Deserialize)]
struct WsQuery {
    user: Option<String>,
    session: Option<String>,
    ticket: Option<String>,
}

/// `/ws?user=<id>&session=<id>` stands in for a resolved ticket; `/ws?ticket=bad` for an invalid one.
async fn ws_handler(State(hub): State<Hub>, Query(q): Query<WsQuery>, ws: WebSocketUpgrade) -> Response {
    if q.ticket.as_deref() == Some("bad") {
        return hub.reject_unauthorized(ws);
    }
    let owner = q.user.map(|user_id| SocketOwner { user_id, session_id: q.session });
    hub.accept(ws, owner)
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

    /// The next JSON message (protocol-level pings and pongs, and `presence` frames, skipped).
    pub async fn next(&mut self) -> Value {
        loop {
            let message = self.next_any().await;
            if message["type"] != "presence" {
                return message;
            }
        }
    }

    /// The next `presence` frame, skipping anything else.
    pub async fn next_presence(&mut self) -> Value {
        loop {
            let message = self.next_any().await;
            if message["type"] == "presence" {
                return message;
            }
        }
    }

    /// The next JSON message within `wait`, None when nothing came.
    pub async fn next_within(&mut self, wait: Duration) -> Option<Value> {
        timeout(wait, self.next_any()).await.ok()
    }

    /// The next JSON message of any type (protocol-level pings and pongs skipped).
    pub async fn next_any(&mut self) -> Value {
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
    silent_client_frames(addr)
        .await
        .into_iter()
        .find(|(opcode, _)| *opcode == 0x8)
        .map(|(_, payload)| u16::from_be_bytes([payload[0], payload[1]]))
}

/// The frames (opcode, payload) a client that never sends anything, nor answers pings, gets
/// until the server hangs up.
pub async fn silent_client_frames(addr: SocketAddr) -> Vec<(u8, Vec<u8>)> {
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
    let mut seen = Vec::new();
    while frames.len() >= 2 {
        let opcode = frames[0] & 0x0f;
        let (len, header) = match frames[1] & 0x7f {
            126 => (u16::from_be_bytes([frames[2], frames[3]]) as usize, 4),
            127 => (u64::from_be_bytes(frames[2..10].try_into().unwrap()) as usize, 10),
            n => (n as usize, 2),
        };
        seen.push((opcode, frames[header..header + len].to_vec()));
        frames = &frames[header + len..];
    }
    seen
}

/// Throwaway PostgreSQL and Redis, shared with the server's test harness.
#[path = "../../../server/tests/common/services.rs"]
pub mod services;

#[allow(unused_imports)] // used by some test crates that include this module, not all
pub use services::RedisServer;

/// The Redis to test the clustered bus against: `TEST_REDIS_URL`, or a Redis this test process
/// started (see `services`). Never skipped silently.
pub fn redis_url() -> String {
    services::redis_url()
}
