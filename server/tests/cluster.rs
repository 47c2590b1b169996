//! Two server nodes sharing Postgres and a Redis of the test's own: live
//! events cross nodes, survive a Redis outage locally, and cross again once
//! Redis is back.

use crate::common;

use std::time::Duration;

use common::{
    Backend, TestApp, access_token,
    live::{connect, connect_to, next_event, subscribe},
    market::{id, post_task},
    services::RedisServer,
};
use reqwest::StatusCode;
use serde_json::json;

async fn wait_until_ready(app: &TestApp, base_url: &str, ready: bool) {
    for _ in 0..200 {
        let status = app.client.get(format!("{base_url}/readyz")).send().await.unwrap().status();
        if (status == StatusCode::OK) == ready {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("{base_url} never became {}", if ready { "ready" } else { "unready" });
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    any(taskhub_skip_postgres, taskhub_skip_redis),
    ignore = "TASKHUB_SKIP_POSTGRES or TASKHUB_SKIP_REDIS is set"
)]
async fn offers_reach_other_nodes_and_survive_a_redis_outage() {
    // A Redis of this test's own (it is stopped and restarted here), on a unix socket.
    let mut redis = RedisServer::start_or_panic();
    let redis_url = redis.url();
    common::run(
        Backend::Postgres,
        |config| config.redis_url = Some(domain::config::Secret::new(redis_url)),
        |node_a| async move {
            let mut config_b = node_a.server.state.config.as_ref().clone();
            config_b.bind_addr = "127.0.0.1:0".into();
            let node_b = server::start(config_b).await.expect("second node starts");
            let (url_a, url_b) = (node_a.server.url(), node_b.url());

            let poster = node_a.signed_in_user("poster@example.com").await;
            let poster_token = access_token(&poster);
            let task = post_task(&node_a, &poster_token, json!({})).await;
            let task_id = id(&task);
            let tasker_token = access_token(&node_a.signed_in_tasker("tasker@example.com").await);

            let mut poster_socket = connect(&node_a, Some(&poster_token)).await;
            let mut visitor_socket = connect_to(&url_a, None).await;
            let task_topic = format!("task:{task_id}");
            subscribe(&mut visitor_socket, &task_topic).await;
            let poster_topic = format!("user:{}", poster["user"]["id"].as_str().unwrap());

            // Made through node B, seen on node A: the poster privately with the amount, a visitor without.
            let offer = offer_via(&node_a, &url_b, &tasker_token, &task_id, "Tomorrow morning").await;
            assert_eq!(offer.status, StatusCode::CREATED, "{:?}", offer.body);
            let offer_id = id(&offer.body);
            let private = next_event(&mut poster_socket, &poster_topic, "offer.created").await;
            assert_eq!(private["amount_cents"], 9000);
            let public = next_event(&mut visitor_socket, &task_topic, "offer.created").await;
            assert!(public["amount_cents"].is_null(), "no amount on a public topic: {public}");
            assert!(!public.to_string().contains("Tomorrow morning"));

            // Redis goes down: node A still delivers what happens on node A.
            redis.stop();
            wait_until_ready(&node_a, &url_a, false).await;
            let withdraw =
                node_a.post(&format!("/api/offers/{offer_id}/withdraw"), Some(&tasker_token), json!({})).await;
            assert_eq!(withdraw.status, StatusCode::OK, "{:?}", withdraw.body);
            next_event(&mut visitor_socket, &task_topic, "offer.withdrawn").await;

            // Redis is back: cross-node delivery resumes by itself.
            redis.restart().expect("redis-server comes back");
            wait_until_ready(&node_a, &url_a, true).await;
            wait_until_ready(&node_a, &url_b, true).await;
            let again = offer_via(&node_a, &url_b, &tasker_token, &task_id, "Still keen").await;
            assert_eq!(again.status, StatusCode::CREATED, "{:?}", again.body);
            let after_outage = next_event(&mut visitor_socket, &task_topic, "offer.created").await;
            assert_eq!(after_outage["id"], again.body["id"]);

            node_b.shutdown().await.unwrap();
            node_a
        },
    )
    .await;
}

/// Makes an offer through the node at `base_url`.
async fn offer_via(app: &TestApp, base_url: &str, token: &str, task_id: &str, message: &str) -> common::Response {
    TestApp::read(
        app.client
            .post(format!("{base_url}/api/tasks/{task_id}/offers"))
            .bearer_auth(token)
            .json(&json!({ "amount_cents": 9000, "message": message }))
            .send()
            .await
            .unwrap(),
    )
    .await
}
