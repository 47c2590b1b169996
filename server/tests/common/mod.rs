//! Test harness: a real server on port 0 against a fresh database (a temp
//! SQLite file, or a new database on the PostgreSQL of `services::postgres_url`),
//! with the in-process bus or a Redis bus.
#![allow(dead_code)]

pub mod apple_fake;
pub mod escrow;
pub mod facebook_fake;
pub mod google_fake;
pub mod identity_fake;
pub mod images;
pub mod live;
pub mod market;
pub mod push_fake;
pub mod rows;
pub mod services;
pub mod sign_in;
pub mod stripe_fake;
pub mod stripe_spec;
pub mod twilio_fake;

use std::{future::Future, panic::AssertUnwindSafe, path::PathBuf};

use domain::config::{Config, Secret};
use futures_util::FutureExt;
use reqwest::{Method, StatusCode, header};
use serde_json::{Value, json};
use server::RunningServer;
use sqlx::{Connection, Executor, PgConnection};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

pub struct TestApp {
    pub server: RunningServer,
    pub client: reqwest::Client,
    pub backend: Backend,
    data_dir: PathBuf,
    postgres_database: Option<(String, String)>,
}

#[derive(Debug)]
pub struct Response {
    pub status: StatusCode,
    pub headers: header::HeaderMap,
    pub body: Value,
}

impl Response {
    /// The contract's error code, when this is an error.
    pub fn error_code(&self) -> &str {
        self.body["error"]["code"].as_str().unwrap_or("")
    }

    pub fn field_error(&self, field: &str) -> &str {
        self.body["error"]["fields"][field].as_str().unwrap_or("")
    }
}

/// Runs `test` against a fresh app on `backend`, then cleans up (even if the test panics).
/// The Postgres variant runs on `TEST_DATABASE_URL` or a PostgreSQL this process starts
/// (see `services`); it never passes without running.
pub async fn run<F, Fut>(backend: Backend, config: impl FnOnce(&mut Config), test: F)
where
    F: FnOnce(TestApp) -> Fut,
    Fut: Future<Output = TestApp>,
{
    let app = TestApp::spawn(backend, config).await;
    let data_dir = app.data_dir.clone();
    let database = app.postgres_database.clone();
    let outcome = AssertUnwindSafe(test(app)).catch_unwind().await;
    match outcome {
        Ok(app) => {
            app.server.shutdown().await.ok();
            cleanup(data_dir, database).await;
        }
        Err(panic) => {
            cleanup(data_dir, database).await;
            std::panic::resume_unwind(panic);
        }
    }
}

/// The one backend matrix: declares each listed test on SQLite and on PostgreSQL, the
/// PostgreSQL variant ignored when `TASKHUB_SKIP_POSTGRES` is set (see `services`).
///
/// - `on_both_backends!(a, b)`: each `async fn a(app: TestApp) -> TestApp` gets a fresh app.
/// - `on_both_backends!(config = adjust; a, b)`: `adjust` (a function or closure taking
///   `&mut Config`) adjusts every test's configuration first.
/// - `on_both_backends!(a: adjust_a, b: adjust_b)`: a configuration per test.
/// - `on_both_backends!(given_backend; a, b)`: each `async fn a(backend: Backend)` starts its
///   own app, for tests that must start a fake service before the server.
///
/// Each invocation declares the modules `sqlite` and `postgres`; a second invocation in one file
/// goes in a module of its own (`mod fast { use super::*; on_both_backends!(...); }`).
#[macro_export]
macro_rules! on_both_backends {
    (given_backend; $($name:ident),* $(,)?) => {
        mod sqlite {
            $(#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $name() {
                super::$name($crate::common::Backend::Sqlite).await;
            })*
        }
        mod postgres {
            $(#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            #[cfg_attr(taskhub_skip_postgres, ignore = "TASKHUB_SKIP_POSTGRES is set")]
            async fn $name() {
                super::$name($crate::common::Backend::Postgres).await;
            })*
        }
    };
    (config = $config:expr; $($name:ident),* $(,)?) => {
        $crate::on_both_backends!($($name: $config),*);
    };
    ($($name:ident $(: $config:expr)?),* $(,)?) => {
        mod sqlite {
            #[allow(unused_imports)]
            use super::*;
            $(#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $name() {
                $crate::common::run($crate::common::Backend::Sqlite, $crate::test_config!($($config)?), super::$name)
                    .await;
            })*
        }
        mod postgres {
            #[allow(unused_imports)]
            use super::*;
            $(#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            #[cfg_attr(taskhub_skip_postgres, ignore = "TASKHUB_SKIP_POSTGRES is set")]
            async fn $name() {
                $crate::common::run($crate::common::Backend::Postgres, $crate::test_config!($($config)?), super::$name)
                    .await;
            })*
        }
    };
}

/// The backend matrix with both buses, for the tests of live events: [`on_both_backends!`]
/// (in-process bus) plus each backend with a Redis bus, ignored when `TASKHUB_SKIP_REDIS` (or,
/// for PostgreSQL, `TASKHUB_SKIP_POSTGRES`) is set. Takes `config = adjust;` as it does.
#[macro_export]
macro_rules! on_both_backends_and_buses {
    (config = $config:expr; $($name:ident),* $(,)?) => {
        $crate::on_both_backends!(config = $config; $($name),*);
        $crate::on_redis_bus!(config = $config; $($name),*);
    };
    ($($name:ident),* $(,)?) => {
        $crate::on_both_backends!($($name),*);
        $crate::on_redis_bus!(config = |_| {}; $($name),*);
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! on_redis_bus {
    (config = $config:expr; $($name:ident),*) => {
        mod sqlite_redis {
            #[allow(unused_imports)]
            use super::*;
            $(#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            #[cfg_attr(taskhub_skip_redis, ignore = "TASKHUB_SKIP_REDIS is set")]
            async fn $name() {
                let config = $crate::common::on_redis_bus_after($config);
                $crate::common::run($crate::common::Backend::Sqlite, config, super::$name).await;
            })*
        }
        mod postgres_redis {
            #[allow(unused_imports)]
            use super::*;
            $(#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            #[cfg_attr(
                any(taskhub_skip_postgres, taskhub_skip_redis),
                ignore = "TASKHUB_SKIP_POSTGRES or TASKHUB_SKIP_REDIS is set"
            )]
            async fn $name() {
                let config = $crate::common::on_redis_bus_after($config);
                $crate::common::run($crate::common::Backend::Postgres, config, super::$name).await;
            })*
        }
    };
}

/// A test's configuration adjustment, or none.
#[doc(hidden)]
#[macro_export]
macro_rules! test_config {
    () => {
        |_: &mut domain::config::Config| {}
    };
    ($config:expr) => {
        $config
    };
}

/// Config adjustment: live events go through the Redis of `redis_url()`.
pub fn with_redis_bus(config: &mut Config) {
    config.redis_url = Some(Secret::new(redis_url()));
}

/// `adjust`, then [`with_redis_bus`].
pub fn on_redis_bus_after(adjust: impl FnOnce(&mut Config)) -> impl FnOnce(&mut Config) {
    move |config| {
        adjust(config);
        with_redis_bus(config);
    }
}

impl TestApp {
    pub async fn spawn(backend: Backend, adjust: impl FnOnce(&mut Config)) -> TestApp {
        let data_dir = std::env::temp_dir().join(format!("taskhub-test-{}", uuid::Uuid::now_v7().simple()));
        std::fs::create_dir_all(&data_dir).unwrap();
        let mut config = Config::local(data_dir.clone());
        config.bind_addr = "127.0.0.1:0".into();
        config.jwt_secret = Some(Secret::new("test-secret-".repeat(6)));
        config.web_dist = data_dir.join("no-web-build");
        config.dev_mode = true;
        config.auth_rate_limit_per_minute = 1000;
        // Tests post many tasks from one address; the posting limits have their own tests.
        config.task_posts_per_hour = 10_000;
        config.task_posts_per_client_per_hour = 10_000;
        // Transfers go out without an identity check; the hold has its own tests (verification_identity.rs).
        config.payouts_require_identity = false;
        // Many servers run at once (tests in parallel, several nodes per cluster test): keep each
        // pool small so they fit in the PostgreSQL's connection limit.
        config.database_max_connections = 5;
        // Loaded test machines can keep a connection busy for a while; the fail-fast wait has its
        // own test (`stale_reads`).
        config.database_acquire_timeout = std::time::Duration::from_secs(10);
        let mut postgres_database = None;
        if backend == Backend::Postgres {
            let admin_url = services::postgres_url();
            let name = format!("taskhub_test_{}", uuid::Uuid::now_v7().simple());
            let mut admin = PgConnection::connect(&admin_url).await.expect("connecting to the test PostgreSQL");
            admin
                .execute(sqlx::AssertSqlSafe(format!("create database {name}")))
                .await
                .expect("creating test database");
            config.database_url = Secret::new(with_database(&admin_url, &name));
            postgres_database = Some((admin_url, name));
        }
        adjust(&mut config);
        let redis_bus = config.redis_url.is_some();
        let server = server::start(config).await.expect("server starts");
        if redis_bus {
            // A Redis-bus variant runs on Redis: wait (on the condition, not a fixed time) until
            // the hub's subscriber is connected.
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
            while !server.state.hub.is_bus_healthy().await {
                assert!(std::time::Instant::now() < deadline, "the Redis bus did not come up");
                tokio::time::sleep(std::time::Duration::from_millis(20)).await;
            }
        }
        let client = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
        TestApp { server, client, backend, data_dir, postgres_database }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.server.url())
    }

    pub async fn request(&self, method: Method, path: &str, token: Option<&str>, body: Option<Value>) -> Response {
        let mut request = self.client.request(method, self.url(path));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        if let Some(body) = body {
            request = request.json(&body);
        }
        Self::read(request.send().await.expect("request sent")).await
    }

    pub async fn read(response: reqwest::Response) -> Response {
        let status = response.status();
        let headers = response.headers().clone();
        let bytes = response.bytes().await.unwrap_or_default();
        let body = if bytes.is_empty() {
            Value::Null
        } else {
            serde_json::from_slice(&bytes).unwrap_or(Value::String(String::from_utf8_lossy(&bytes).into()))
        };
        Response { status, headers, body }
    }

    pub async fn get(&self, path: &str, token: Option<&str>) -> Response {
        self.request(Method::GET, path, token, None).await
    }

    pub async fn post(&self, path: &str, token: Option<&str>, body: Value) -> Response {
        self.request(Method::POST, path, token, Some(body)).await
    }

    pub async fn patch(&self, path: &str, token: Option<&str>, body: Value) -> Response {
        self.request(Method::PATCH, path, token, Some(body)).await
    }

    /// Mail in the dev mailbox, newest first.
    pub async fn mailbox(&self) -> Vec<Value> {
        let response = self.get("/dev/mailbox.json", None).await;
        assert_eq!(response.status, StatusCode::OK);
        response.body.as_array().cloned().unwrap_or_default()
    }

    /// Waits for a mail to `to` whose subject contains `subject`, and returns the token of its link.
    pub async fn token_mailed_to(&self, to: &str, subject: &str) -> String {
        for _ in 0..100 {
            let found = self
                .mailbox()
                .await
                .into_iter()
                .find(|mail| mail["to"] == to && mail["subject"].as_str().unwrap_or("").contains(subject));
            if let Some(mail) = found {
                let text = mail["text"].as_str().unwrap().to_owned();
                let start = text.find("token=").expect("a link with a token") + "token=".len();
                return text[start..].split_whitespace().next().unwrap().to_owned();
            }
            // Recovery mail is sent off the request path; poll briefly.
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        panic!("no mail to {to} about {subject:?}");
    }

    /// Signs up, verifies through the mailed link, logs in; returns the session body.
    pub async fn signed_in_user(&self, email: &str) -> Value {
        self.signed_in(signup_body(email, "customer")).await
    }

    pub async fn signed_in_tasker(&self, email: &str) -> Value {
        self.signed_in(signup_body(email, "tasker")).await
    }

    async fn signed_in(&self, body: Value) -> Value {
        let email = body["email"].as_str().unwrap().to_owned();
        let password = body["password"].as_str().unwrap().to_owned();
        let response = self.post("/api/auth/signup", None, body).await;
        assert_eq!(response.status, StatusCode::CREATED, "{:?}", response.body);
        let token = self.token_mailed_to(&email, "Confirm").await;
        assert_eq!(self.post("/api/auth/verify", None, json!({ "token": token })).await.status, StatusCode::OK);
        let session = self.post("/api/auth/login", None, json!({ "email": email, "password": password })).await;
        assert_eq!(session.status, StatusCode::OK, "{:?}", session.body);
        session.body
    }
}

pub fn signup_body(email: &str, account_type: &str) -> Value {
    let skills = if account_type == "tasker" { json!([{ "name": "Plumbing", "level": 80 }]) } else { json!([]) };
    json!({
        "email": email,
        "password": "correct horse",
        "first_name": first_name_for(email),
        "last_name": "Lee",
        "account_type": account_type,
        "skills": skills,
        "location": "Newtown NSW",
    })
}

/// A test user's first name, from their email: `poster-3f2a@example.com` is "Poster-3f2a", shown
/// publicly as "Poster-3f2a L.". No two test users share a name, so an assertion that names the
/// poster cannot pass when it is shown the tasker.
pub fn first_name_for(email: &str) -> String {
    let local = email.split('@').next().unwrap_or(email);
    let mut letters = local.chars();
    letters.next().map(|first| first.to_uppercase().chain(letters).collect()).unwrap_or_else(|| "Sam".into())
}

/// The public name ("First L.") of the test user signed up with `email`.
pub fn public_name_for(email: &str) -> String {
    format!("{} L.", first_name_for(email))
}

pub fn access_token(session: &Value) -> String {
    session["access_token"].as_str().expect("access token").to_owned()
}

fn with_database(url: &str, name: &str) -> String {
    let mut parsed = url::Url::parse(url).expect("TEST_DATABASE_URL is a URL");
    parsed.set_path(&format!("/{name}"));
    parsed.to_string()
}

async fn cleanup(data_dir: PathBuf, postgres_database: Option<(String, String)>) {
    std::fs::remove_dir_all(&data_dir).ok();
    if let Some((admin_url, name)) = postgres_database
        && let Ok(mut admin) = PgConnection::connect(&admin_url).await
    {
        let _ = admin.execute(sqlx::AssertSqlSafe(format!("drop database if exists {name} with (force)"))).await;
    }
}

/// The Redis for tests of the Redis bus: `TEST_REDIS_URL`, or one this test process started.
pub fn redis_url() -> String {
    services::redis_url()
}
