//! The server as production runs it (`DEV_MODE=false`, the default), on both
//! backends: what dev mode relaxes is refused. The dev mailbox (which shows
//! password-reset links) is not served, push endpoints on loopback or private
//! addresses are refused when saved and never resolved when sent, and the
//! sandbox's pages show nothing for sessions and accounts that do not exist.

use domain::{config::Config, delivery::endpoint::PublicOnlyResolver, mail};

use crate::common;

use std::str::FromStr;

use common::{TestApp, access_token, push_fake::FakePushService};
use reqwest::{StatusCode, dns::Resolve};
use serde_json::json;

/// What `make run` does not set: dev mode off; a built web app, so unknown paths get the app
/// page as they do in production (a missing mailbox route must not hide behind a 404 page).
fn production(config: &mut Config) {
    config.dev_mode = false;
    // These tests pay through the sandbox on purpose, as a demo deployment may (and must say so).
    config.allow_sandbox_providers = true;
    config.require_email_verification = false;
    let web = config.data_dir.join("web");
    std::fs::create_dir_all(&web).unwrap();
    std::fs::write(web.join("index.html"), "<!doctype html><title>Taskhub</title><div id=\"root\"></div>").unwrap();
    config.web_dist = web;
}

async fn signed_up(app: &TestApp, email: &str) -> String {
    let created = app.post("/api/auth/signup", None, common::signup_body(email, "customer")).await;
    assert_eq!(created.status, StatusCode::CREATED, "{:?}", created.body);
    let login = app.post("/api/auth/login", None, json!({ "email": email, "password": "correct horse" })).await;
    assert_eq!(login.status, StatusCode::OK, "{:?}", login.body);
    access_token(&login.body)
}

/// Waits until the mailer wrote the reset mail (off the request path) and returns its link's token.
async fn reset_token(app: &TestApp, email: &str) -> String {
    let dir = mail::mailbox_dir(&app.server.state.config.data_dir);
    for _ in 0..200 {
        let mails = mail::read_mailbox(&dir).await.unwrap_or_default();
        if let Some(mail) = mails.iter().find(|mail| mail.to == email && mail.subject.contains("Reset")) {
            let start = mail.text.find("token=").expect("a link with a token") + "token=".len();
            return mail.text[start..].split_whitespace().next().unwrap().to_owned();
        }
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
    }
    panic!("no reset mail to {email}");
}

async fn the_dev_mailbox_is_not_served(app: TestApp) -> TestApp {
    let email = "victim@example.com";
    signed_up(&app, email).await;
    let asked = app.post("/api/auth/recover", None, json!({ "email": email })).await;
    assert_eq!(asked.status, StatusCode::ACCEPTED);
    let token = reset_token(&app, email).await;
    for path in ["/dev/mailbox", "/dev/mailbox.json"] {
        let response = app.client.get(app.url(path)).send().await.unwrap();
        let status = response.status();
        let body = response.text().await.unwrap();
        assert!(!body.contains(&token) && !body.contains(email), "{path} shows mail ({status}): {body}");
        assert!(status == StatusCode::NOT_FOUND || body.contains("id=\"root\""), "{path}: {status} {body}");
    }
    app
}

async fn push_endpoints_on_this_machine_or_network_are_refused(app: TestApp) -> TestApp {
    let token = signed_up(&app, "phone@example.com").await;
    let push_service = FakePushService::start().await;
    let device = push_service.device("phone");
    let loopback = device.subscription();
    assert!(loopback["endpoint"].as_str().unwrap().starts_with("http://127.0.0.1"), "{loopback}");
    let mut refused = vec![loopback.clone()];
    for endpoint in ["https://127.0.0.1/push", "https://localhost/push", "https://10.1.2.3/push", "https://[::1]/push"]
    {
        let mut body = loopback.clone();
        body["endpoint"] = json!(endpoint);
        refused.push(body);
    }
    for body in refused {
        let response = app.post("/api/me/push-subscriptions", Some(&token), body.clone()).await;
        assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY, "{}: {:?}", body["endpoint"], response.body);
    }
    let devices = app.get("/api/me/push-subscriptions", Some(&token)).await;
    assert_eq!(devices.body["items"], json!([]), "{:?}", devices.body);
    app
}

async fn sandbox_pages_show_nothing_that_does_not_exist(app: TestApp) -> TestApp {
    for path in [
        format!("/sandbox/checkout/cs_sandbox_{}", uuid::Uuid::now_v7().simple()),
        format!("/sandbox/payouts/acct_sandbox_{}", uuid::Uuid::new_v4().simple()),
    ] {
        let response = app.client.get(app.url(&path)).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::NOT_FOUND, "{path}");
    }
    let robots = app.client.get(app.url("/robots.txt")).send().await.unwrap().text().await.unwrap();
    assert!(robots.contains("Disallow: /sandbox/"), "{robots}");
    app
}

on_both_backends!(config = production;
    the_dev_mailbox_is_not_served,
    push_endpoints_on_this_machine_or_network_are_refused,
    sandbox_pages_show_nothing_that_does_not_exist,
    without_real_payments_or_an_explicit_sandbox_the_server_refuses_to_start,
    with_real_payments_no_sandbox_page_is_served,
);

/// Security review 3: with `DEV_MODE` off the sandbox pages were still mounted, so a user could
/// mark their own identity check verified (releasing payouts held for it). Production without
/// payment credentials would be the sandbox by accident: the server refuses to start, saying
/// which setting to make.
async fn without_real_payments_or_an_explicit_sandbox_the_server_refuses_to_start(app: TestApp) -> TestApp {
    let mut config = app.server.state.config.as_ref().clone();
    config.bind_addr = "127.0.0.1:0".into();
    config.allow_sandbox_providers = false;
    config.stripe_secret_key = None;
    let refused = server::start(config).await.err().expect("the server refuses to start");
    let message = format!("{refused:#}");
    for setting in ["STRIPE_SECRET_KEY", "ALLOW_SANDBOX_PROVIDERS", "DEV_MODE"] {
        assert!(message.contains(setting), "{setting} is named: {message}");
    }
    app
}

/// With real payment credentials and no explicit permission, none of the sandbox pages exists:
/// every path and method of checkout, payouts and identity is answered as any unknown path is.
async fn with_real_payments_no_sandbox_page_is_served(app: TestApp) -> TestApp {
    let mut config = app.server.state.config.as_ref().clone();
    config.bind_addr = "127.0.0.1:0".into();
    config.allow_sandbox_providers = false;
    config.stripe_secret_key = Some(domain::config::Secret::new("sk_test_not_used"));
    let node = server::start(config).await.expect("starts with payment credentials");
    for path in ["/sandbox/checkout/cs_sandbox_x", "/sandbox/payouts/acct_sandbox_x", "/sandbox/identity/vs_sandbox_x"]
    {
        let url = format!("{}{path}", node.url());
        let page = app.client.get(&url).send().await.unwrap();
        let status = page.status();
        let body = page.text().await.unwrap();
        // Not mounted: the path is the app's, as any unknown path is (a mounted sandbox answers
        // its own 404 for a session it does not know).
        assert!(
            status == StatusCode::OK && body.contains("id=\"root\""),
            "GET {path} is no sandbox page: {status} {body}"
        );
        let submitted =
            app.client.post(&url).form(&[("action", "pay"), ("decision", "verified")]).send().await.unwrap();
        assert!(
            matches!(submitted.status(), StatusCode::NOT_FOUND | StatusCode::METHOD_NOT_ALLOWED),
            "POST {path}: {}",
            submitted.status()
        );
    }
    node.shutdown().await.unwrap();
    app
}

/// The push client's resolver drops every address that is not public, so a name that resolves
/// to this machine (or is re-pointed there after the endpoint was checked) is never reached.
#[tokio::test]
async fn the_push_resolver_keeps_only_public_addresses() {
    let resolve = |dev_mode: bool, name: &str| {
        let name = reqwest::dns::Name::from_str(name).unwrap();
        PublicOnlyResolver { dev_mode }.resolve(name)
    };
    for name in ["localhost", "127.0.0.1", "10.0.0.1", "192.168.0.1", "169.254.169.254"] {
        let refused = resolve(false, name).await;
        assert!(refused.is_err(), "{name} resolved to {:?}", refused.map(|addrs| addrs.collect::<Vec<_>>()).ok());
    }
    let local: Vec<_> = resolve(true, "localhost").await.expect("dev mode reaches loopback").collect();
    assert!(!local.is_empty() && local.iter().all(|addr| addr.ip().is_loopback()), "{local:?}");
    let private = resolve(true, "10.0.0.1").await;
    assert!(private.is_err(), "dev mode allows loopback only, never the private network");
}
