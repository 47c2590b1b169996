//! Live-connection helpers: real WebSockets against a test server.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use reqwest::StatusCode;
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream, connect_async, tungstenite::Message};

use super::TestApp;

pub type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

const WAIT: Duration = Duration::from_secs(10);

/// Opens `/ws` on the server at `base_url` (http://…), with `ticket` when given.
pub async fn connect_to(base_url: &str, ticket: Option<&str>) -> Socket {
    let mut url = format!("{}/ws", base_url.replacen("http://", "ws://", 1));
    if let Some(ticket) = ticket {
        url = format!("{url}?ticket={ticket}");
    }
    connect_async(url).await.expect("websocket connects").0
}

/// A fresh single-use ticket for the holder of `access_token`.
pub async fn ticket(app: &TestApp, access_token: &str) -> String {
    let response = app.post("/api/realtime/ticket", Some(access_token), json!({})).await;
    assert_eq!(response.status, StatusCode::OK, "{:?}", response.body);
    response.body["ticket"].as_str().expect("a ticket").to_owned()
}

/// Opens `/ws` on `app`: as a visitor, or signed in as the holder of `access_token`.
pub async fn connect(app: &TestApp, access_token: Option<&str>) -> Socket {
    let ticket = match access_token {
        Some(token) => Some(ticket(app, token).await),
        None => None,
    };
    connect_to(&app.server.url(), ticket.as_deref()).await
}

/// `access_token`'s signed-in socket once its automatic `user:{id}` subscription is in place (a
/// ping is answered after it), with that topic.
pub async fn user_socket(app: &TestApp, access_token: &str) -> (Socket, String) {
    let me = app.get("/api/me", Some(access_token)).await;
    assert_eq!(me.status, StatusCode::OK, "{:?}", me.body);
    let topic = format!("user:{}", me.body["user"]["id"].as_str().expect("a user id"));
    let mut socket = connect(app, Some(access_token)).await;
    send_json(&mut socket, json!({ "type": "ping" })).await;
    while next_json(&mut socket).await["type"] != "pong" {}
    (socket, topic)
}

pub async fn send_json(socket: &mut Socket, value: Value) {
    socket.send(Message::Text(value.to_string().into())).await.expect("socket open");
}

/// The next JSON message; panics if the socket closes or stays silent.
pub async fn next_json(socket: &mut Socket) -> Value {
    loop {
        let message = tokio::time::timeout(WAIT, socket.next())
            .await
            .expect("a message in time")
            .expect("socket open")
            .expect("valid frame");
        match message {
            Message::Text(text) => return serde_json::from_str(&text).expect("JSON"),
            Message::Close(frame) => panic!("closed: {frame:?}"),
            _ => continue,
        }
    }
}

/// Subscribes and waits for the hub's confirmation.
pub async fn subscribe(socket: &mut Socket, topic: &str) {
    send_json(socket, json!({ "type": "subscribe", "topic": topic })).await;
    loop {
        let message = next_json(socket).await;
        if message["type"] == "subscribed" && message["topic"] == topic {
            return;
        }
    }
}

/// The data of the next `event` on `topic`, skipping everything else.
pub async fn next_event(socket: &mut Socket, topic: &str, event: &str) -> Value {
    next_event_where(socket, topic, event, |_| true).await
}

/// The data of the next `event` on `topic` that `wanted` accepts.
pub async fn next_event_where(socket: &mut Socket, topic: &str, event: &str, wanted: impl Fn(&Value) -> bool) -> Value {
    loop {
        let message = next_json(socket).await;
        if message["type"] == "event"
            && message["topic"] == topic
            && message["event"] == event
            && wanted(&message["data"])
        {
            return message["data"].clone();
        }
    }
}

/// Waits for the server to close the socket with `code`.
pub async fn expect_close(socket: &mut Socket, code: u16) {
    loop {
        match tokio::time::timeout(WAIT, socket.next()).await.expect("closed in time") {
            Some(Ok(Message::Close(Some(frame)))) => {
                assert_eq!(u16::from(frame.code), code);
                return;
            }
            Some(Ok(Message::Close(None))) | None | Some(Err(_)) => panic!("closed without code {code}"),
            Some(Ok(_)) => continue,
        }
    }
}
