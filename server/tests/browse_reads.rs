//! The anonymous browse list under a crowd (issue 27): identical anonymous requests made at once
//! share one database read; a different query, or a signed-in caller, reads on its own; a task
//! posted before a request is in its answer. On both backends.

use std::time::{Duration, Instant};

use crate::common;

use common::{
    TestApp,
    market::{holding_the_pool, post_task, poster},
};
use reqwest::StatusCode;
use serde_json::json;

on_both_backends!(
    identical_anonymous_browse_reads_made_at_once_share_one_database_read,
    signed_in_browse_reads_are_not_shared_and_answers_stay_fresh,
);

fn titles(response: &common::Response) -> Vec<String> {
    assert_eq!(response.status, StatusCode::OK, "{:?}", response.body);
    response.body["items"].as_array().unwrap().iter().map(|t| t["title"].as_str().unwrap().to_owned()).collect()
}

async fn identical_anonymous_browse_reads_made_at_once_share_one_database_read(app: TestApp) -> TestApp {
    const CROWD: usize = 30;
    let owner = poster(&app, "poster@example.com").await;
    post_task(&app, &owner, json!({ "title": "Paint the fence" })).await;
    post_task(&app, &owner, json!({ "title": "Mow the lawn" })).await;
    let pages = &app.server.state.browse_pages;
    let before = pages.reads_begun();
    let spawn = |path: &str| {
        let (client, url) = (app.client.clone(), app.url(path));
        tokio::spawn(async move { TestApp::read(client.get(url).send().await.unwrap()).await })
    };
    let (crowd, other) = holding_the_pool(&app, async {
        // Two spellings of one query share; another query has a read of its own.
        let crowd: Vec<_> = (0..CROWD)
            .map(|i| spawn(if i % 2 == 0 { "/api/tasks?q=fence" } else { "/api/tasks?sort=best_match&q=fence" }))
            .collect();
        let other = spawn("/api/tasks?q=lawn");
        let deadline = Instant::now() + Duration::from_secs(10);
        while pages.all_readers() < CROWD + 1 {
            assert!(Instant::now() < deadline, "only {} requests arrived", pages.all_readers());
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        (crowd, other)
    })
    .await;
    for request in crowd {
        assert_eq!(titles(&request.await.unwrap()), ["Paint the fence"]);
    }
    assert_eq!(titles(&other.await.unwrap()), ["Mow the lawn"]);
    // The crowd's first read began before the others arrived, the second serves all of them; the
    // other query made its own.
    let reads = pages.reads_begun() - before;
    assert!((2..=3).contains(&reads), "{CROWD} identical reads and one other made {reads} database reads");
    assert_eq!(pages.all_readers(), 0, "nothing is kept once the crowd is served");
    app
}

async fn signed_in_browse_reads_are_not_shared_and_answers_stay_fresh(app: TestApp) -> TestApp {
    let owner = poster(&app, "poster@example.com").await;
    post_task(&app, &owner, json!({ "title": "Paint the fence" })).await;
    let pages = &app.server.state.browse_pages;
    let before = pages.reads_begun();
    assert_eq!(titles(&app.get("/api/tasks", Some(&owner)).await), ["Paint the fence"]);
    assert_eq!(pages.reads_begun(), before, "a signed-in caller reads on its own");
    assert_eq!(titles(&app.get("/api/tasks", None).await), ["Paint the fence"]);
    assert_eq!(pages.reads_begun(), before + 1);
    // An answer never predates its request: a task posted just before is in it.
    post_task(&app, &owner, json!({ "title": "Fix the gate" })).await;
    assert_eq!(titles(&app.get("/api/tasks", None).await), ["Fix the gate", "Paint the fence"]);
    app
}
