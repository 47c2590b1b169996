//! Limits an attacker probes: a real owner is never locked out by strangers,
//! forged forwarding headers and IPv6 address rotation gain nothing, and
//! nodes of a cluster share one budget through Redis (falling back to their
//! own counters while it is down).

use domain::config::Config;

use crate::common;

use std::time::{Duration, Instant};

use common::{Backend, TestApp, services::RedisServer};
use reqwest::StatusCode;
use serde_json::json;

fn behind_one_proxy(config: &mut Config) {
    config.auth_rate_limit_per_minute = 1;
    config.trust_proxy = true;
    config.trusted_proxy_count = 1;
}

on_both_backends!(config = behind_one_proxy; an_attacked_email_is_slowed_but_its_owner_still_signs_in);

/// A POST from `client` (as the load balancer forwards it) to `base_url`.
async fn post_from(
    app: &TestApp,
    base_url: &str,
    forwarded_for: &str,
    path: &str,
    body: serde_json::Value,
) -> StatusCode {
    app.client
        .post(format!("{base_url}{path}"))
        .header("x-forwarded-for", forwarded_for)
        .json(&body)
        .send()
        .await
        .unwrap()
        .status()
}

async fn an_attacked_email_is_slowed_but_its_owner_still_signs_in(app: TestApp) -> TestApp {
    app.signed_in_user("owner@example.com").await;
    let base = app.server.url();
    let guess = json!({ "email": "owner@example.com", "password": "wrong guess" });
    // Ten addresses each spend their one attempt on the owner's email, then are refused.
    for n in 0..10 {
        let attacker = format!("198.51.100.{n}");
        assert_eq!(post_from(&app, &base, &attacker, "/api/auth/login", guess.clone()).await, StatusCode::UNAUTHORIZED);
        assert_eq!(
            post_from(&app, &base, &attacker, "/api/auth/login", guess.clone()).await,
            StatusCode::TOO_MANY_REQUESTS
        );
    }
    // The email is over its ceiling: the owner, from their own address, is slowed but signs in.
    let started = Instant::now();
    let owner = json!({ "email": "Owner@Example.com", "password": "correct horse" });
    assert_eq!(post_from(&app, &base, "203.0.113.7", "/api/auth/login", owner).await, StatusCode::OK);
    assert!(started.elapsed() >= Duration::from_secs(2), "over the ceiling, logins are slowed");
    app
}

// The client's address is parsed the same whatever the database: one backend is enough.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forged_forwarded_for_entry_does_not_make_a_new_client() {
    common::run(Backend::Sqlite, behind_one_proxy, |app| async move {
        let base = app.server.url();
        let recover = |n: u32| json!({ "email": format!("someone{n}@example.com") });
        // The load balancer appends the real address; the client forges what comes before it.
        let first = post_from(&app, &base, "1.1.1.1, 203.0.113.9", "/api/auth/recover", recover(1)).await;
        assert_eq!(first, StatusCode::ACCEPTED);
        let forged = post_from(&app, &base, "1.1.1.2, 203.0.113.9", "/api/auth/recover", recover(2)).await;
        assert_eq!(forged, StatusCode::TOO_MANY_REQUESTS);
        let other = post_from(&app, &base, "1.1.1.2, 203.0.113.10", "/api/auth/recover", recover(3)).await;
        assert_eq!(other, StatusCode::ACCEPTED);
        app
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ipv6_clients_in_one_64_share_a_budget() {
    common::run(Backend::Sqlite, behind_one_proxy, |app| async move {
        let base = app.server.url();
        let recover = |n: u32| json!({ "email": format!("someone{n}@example.com") });
        let first = post_from(&app, &base, "2001:db8:7:1::1", "/api/auth/recover", recover(1)).await;
        assert_eq!(first, StatusCode::ACCEPTED);
        let neighbour = post_from(&app, &base, "2001:db8:7:1:ffff::2", "/api/auth/recover", recover(2)).await;
        assert_eq!(neighbour, StatusCode::TOO_MANY_REQUESTS);
        let next_prefix = post_from(&app, &base, "2001:db8:7:2::1", "/api/auth/recover", recover(3)).await;
        assert_eq!(next_prefix, StatusCode::ACCEPTED);
        app
    })
    .await;
}

// Two nodes need one database: Postgres, as in production clusters.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    any(taskhub_skip_postgres, taskhub_skip_redis),
    ignore = "TASKHUB_SKIP_POSTGRES or TASKHUB_SKIP_REDIS is set"
)]
async fn nodes_share_limits_through_redis_and_fall_back_to_their_own_when_it_is_down() {
    // A Redis of this test's own: it is stopped halfway.
    let mut redis = RedisServer::start_or_panic();
    let redis_url = redis.url();
    common::run(
        Backend::Postgres,
        |config| {
            behind_one_proxy(config);
            config.auth_rate_limit_per_minute = 2;
            config.redis_url = Some(domain::config::Secret::new(redis_url));
        },
        |node_a| async move {
            let mut config_b = node_a.server.state.config.as_ref().clone();
            config_b.bind_addr = "127.0.0.1:0".into();
            let node_b = server::start(config_b).await.expect("second node starts");
            let (url_a, url_b) = (node_a.server.url(), node_b.url());
            let recover = |n: u32| json!({ "email": format!("someone{n}@example.com") });
            let client = "203.0.113.20";

            assert_eq!(post_from(&node_a, &url_a, client, "/api/auth/recover", recover(1)).await, StatusCode::ACCEPTED);
            assert_eq!(post_from(&node_a, &url_b, client, "/api/auth/recover", recover(2)).await, StatusCode::ACCEPTED);
            // The third, on either node, is over the one shared budget.
            assert_eq!(
                post_from(&node_a, &url_a, client, "/api/auth/recover", recover(3)).await,
                StatusCode::TOO_MANY_REQUESTS
            );
            assert_eq!(
                post_from(&node_a, &url_b, client, "/api/auth/recover", recover(4)).await,
                StatusCode::TOO_MANY_REQUESTS
            );

            // Redis goes down: each node still limits on its own rather than letting everything through.
            redis.stop();
            let other = "203.0.113.21";
            assert_eq!(post_from(&node_a, &url_a, other, "/api/auth/recover", recover(5)).await, StatusCode::ACCEPTED);
            assert_eq!(post_from(&node_a, &url_a, other, "/api/auth/recover", recover(6)).await, StatusCode::ACCEPTED);
            assert_eq!(
                post_from(&node_a, &url_a, other, "/api/auth/recover", recover(7)).await,
                StatusCode::TOO_MANY_REQUESTS
            );

            node_b.shutdown().await.unwrap();
            node_a
        },
    )
    .await;
}
