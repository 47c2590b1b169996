//! Browse's search by words, through each database's full-text engine: stemming and prefixes,
//! Best match ranking and its pages, and the index following every edit and status change.
//! On both backends.

use crate::common;

use common::{
    TestApp,
    market::{id, post_task, poster},
};
use reqwest::StatusCode;
use serde_json::json;

on_both_backends!(
    words_match_by_stem_and_prefix,
    best_match_ranks_title_matches_first_and_pages_through_every_match,
    the_index_follows_edits_and_status_changes,
);

fn titles(response: &common::Response) -> Vec<String> {
    assert_eq!(response.status, StatusCode::OK, "{:?}", response.body);
    response.body["items"].as_array().unwrap().iter().map(|t| t["title"].as_str().unwrap().to_owned()).collect()
}

async fn search(app: &TestApp, query: &str) -> Vec<String> {
    let mut found = titles(&app.get(&format!("/api/tasks?{query}"), None).await);
    found.sort();
    found
}

async fn words_match_by_stem_and_prefix(app: TestApp) -> TestApp {
    let token = poster(&app, "search.poster@example.com").await;
    for (title, description) in [
        ("House cleaning", "Three bedrooms, two bathrooms"),
        ("Window cleaner needed", "Second storey, outside only"),
        ("Plumbing repair", "The kitchen tap drips"),
        ("Gutters", "Clean the gutters before winter"),
        ("Paint a fence", "About twenty metres of pickets"),
    ] {
        post_task(&app, &token, json!({ "title": title, "description": description })).await;
    }
    let cleaning = ["Gutters", "House cleaning", "Window cleaner needed"];
    assert_eq!(search(&app, "q=clean").await, cleaning);
    assert_eq!(search(&app, "q=cleaning").await, cleaning, "the search word is stemmed too");
    assert_eq!(search(&app, "q=CLEANER").await, ["Window cleaner needed"]);
    assert_eq!(search(&app, "q=plumb").await, ["Plumbing repair"]);
    assert_eq!(search(&app, "q=kitchen%20tap").await, ["Plumbing repair"], "every word must match");
    assert_eq!(search(&app, "q=kitchen%20fence").await, Vec::<String>::new());
    assert_eq!(search(&app, "q=bathroom").await, ["House cleaning"], "descriptions are searched");
    assert_eq!(search(&app, "q=%22tap%22%20*%20(drips)").await, ["Plumbing repair"], "query syntax is taken as words");
    assert_eq!(search(&app, "q=%2A%2A%2A").await, Vec::<String>::new(), "nothing searchable finds nothing");
    app
}

async fn best_match_ranks_title_matches_first_and_pages_through_every_match(app: TestApp) -> TestApp {
    let token = poster(&app, "ranking.poster@example.com").await;
    post_task(&app, &token, json!({ "title": "Paint the fence", "description": "White, two coats" })).await;
    post_task(&app, &token, json!({ "title": "Garden work", "description": "Weeding, and paint one fence post" }))
        .await;
    post_task(&app, &token, json!({ "title": "Mow the lawn", "description": "Front and back" })).await;

    let best = app.get("/api/tasks?q=fence", None).await;
    assert_eq!(titles(&best), ["Paint the fence", "Garden work"], "Best match is the default with a search");
    assert_eq!(titles(&app.get("/api/tasks?q=fence&sort=best_match", None).await), titles(&best));
    assert_eq!(titles(&app.get("/api/tasks?q=fence&sort=newest", None).await), ["Garden work", "Paint the fence"]);

    // One at a time: every match once, in rank order, whatever the cursor carries.
    let mut seen = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let path = match &cursor {
            None => "/api/tasks?q=paint&limit=1".to_owned(),
            Some(cursor) => format!("/api/tasks?q=paint&limit=1&cursor={cursor}"),
        };
        let page = app.get(&path, None).await;
        seen.extend(titles(&page));
        match page.body["next_cursor"].as_str() {
            Some(next) => cursor = Some(next.to_owned()),
            None => break,
        }
    }
    assert_eq!(seen, ["Paint the fence", "Garden work"]);
    let newest_cursor = app.get("/api/tasks?limit=1", None).await.body["next_cursor"].as_str().unwrap().to_owned();
    let mixed = app.get(&format!("/api/tasks?q=paint&cursor={newest_cursor}"), None).await;
    assert_eq!(mixed.status, StatusCode::BAD_REQUEST, "a cursor of another sort is refused");
    app
}

async fn the_index_follows_edits_and_status_changes(app: TestApp) -> TestApp {
    let token = poster(&app, "index.poster@example.com").await;
    let task =
        post_task(&app, &token, json!({ "title": "Assemble a wardrobe", "description": "Flat-pack, two doors" })).await;
    let other = post_task(&app, &token, json!({ "title": "Assemble a desk", "description": "Flat-pack" })).await;
    assert_eq!(search(&app, "q=wardrobe").await, ["Assemble a wardrobe"]);

    let path = format!("/api/tasks/{}", id(&task));
    let edited = app.patch(&path, Some(&token), json!({ "title": "Assemble a bookcase" })).await;
    assert_eq!(edited.status, StatusCode::OK, "{:?}", edited.body);
    assert_eq!(search(&app, "q=wardrobe").await, Vec::<String>::new(), "the old title is gone from the index");
    assert_eq!(search(&app, "q=bookcase").await, ["Assemble a bookcase"]);
    assert_eq!(search(&app, "q=assemble").await, ["Assemble a bookcase", "Assemble a desk"]);

    let cancelled = app.post(&format!("/api/tasks/{}/cancel", id(&other)), Some(&token), json!({})).await;
    assert_eq!(cancelled.status, StatusCode::OK, "{:?}", cancelled.body);
    assert_eq!(search(&app, "q=assemble").await, ["Assemble a bookcase"], "only open tasks are found");
    app
}
