//! A push service standing in for the browser vendors' (an axum server on
//! port 0): it records every push and answers with scripted statuses; and a
//! device (a subscriber's keys) that can decrypt what it was sent.

use std::{
    collections::VecDeque,
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use axum::{
    Router,
    body::Bytes,
    extract::{Path, State},
    http::{HeaderMap, HeaderValue, StatusCode},
    response::IntoResponse,
    routing::post,
};
use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use p256::{SecretKey, elliptic_curve::sec1::ToEncodedPoint};
use serde_json::{Value, json};
use web_push_native::Auth;

#[derive(Clone, Debug)]
pub struct Received {
    pub device: String,
    pub headers: HeaderMap,
    pub body: Vec<u8>,
    pub at: Instant,
}

/// An answer of the fake: its status and its Retry-After seconds.
type Answer = (u16, Option<u64>);

#[derive(Clone, Default)]
struct Shared {
    received: Arc<Mutex<Vec<Received>>>,
    /// Answers to give, in order; 201 once they run out.
    script: Arc<Mutex<VecDeque<Answer>>>,
}

pub struct FakePushService {
    pub origin: String,
    shared: Shared,
}

impl FakePushService {
    pub async fn start() -> Self {
        let shared = Shared::default();
        let app = Router::new().route("/push/{device}", post(receive)).with_state(shared.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let origin = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        Self { origin, shared }
    }

    pub fn answer_next(&self, status: u16, retry_after: Option<u64>) {
        self.shared.script.lock().unwrap().push_back((status, retry_after));
    }

    pub fn received(&self) -> Vec<Received> {
        self.shared.received.lock().unwrap().clone()
    }

    /// Waits until at least `count` pushes arrived (10 s at most), then returns them all.
    pub async fn wait_for(&self, count: usize) -> Vec<Received> {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let received = self.received();
            if received.len() >= count {
                return received;
            }
            assert!(Instant::now() < deadline, "only {} of {count} pushes arrived", received.len());
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    pub fn device(&self, name: &str) -> FakeDevice {
        FakeDevice::new(format!("{}/push/{name}", self.origin))
    }
}

async fn receive(
    State(shared): State<Shared>,
    Path(device): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> impl IntoResponse {
    shared.received.lock().unwrap().push(Received { device, headers, body: body.to_vec(), at: Instant::now() });
    let (status, retry_after) = shared.script.lock().unwrap().pop_front().unwrap_or((201, None));
    let mut response_headers = HeaderMap::new();
    if let Some(seconds) = retry_after {
        response_headers.insert("retry-after", HeaderValue::from_str(&seconds.to_string()).unwrap());
    }
    (StatusCode::from_u16(status).unwrap(), response_headers)
}

/// A browser's push subscription: its endpoint and keys.
pub struct FakeDevice {
    pub endpoint: String,
    secret: SecretKey,
    auth: [u8; 16],
}

impl FakeDevice {
    pub fn new(endpoint: String) -> Self {
        let mut auth = [0u8; 16];
        rand::RngCore::fill_bytes(&mut rand::rngs::OsRng, &mut auth);
        Self { endpoint, secret: SecretKey::random(&mut rand::rngs::OsRng), auth }
    }

    /// What `PushSubscription.toJSON()` gives, as the app posts it.
    pub fn subscription(&self) -> Value {
        json!({
            "endpoint": self.endpoint,
            "keys": {
                "p256dh": URL_SAFE_NO_PAD.encode(self.secret.public_key().to_encoded_point(false).as_bytes()),
                "auth": URL_SAFE_NO_PAD.encode(self.auth),
            },
        })
    }

    pub fn decrypt(&self, body: &[u8]) -> Value {
        let plain = web_push_native::decrypt(body.to_vec(), &self.secret, &Auth::from(self.auth))
            .expect("the push decrypts with the subscription's keys");
        serde_json::from_slice(&plain).expect("the payload is JSON")
    }
}
