//! A task's photos go with it when a moderator removes it (issue 46): the full image and the
//! thumbnail answer 404 at once, and task photos are cached for minutes, never a year, so what
//! browsers and shared caches hold of them lapses soon too.

use domain::config::Config;
use reqwest::{StatusCode, header};
use serde_json::json;

use crate::common;

use common::{
    TestApp,
    images::{png, str_of, upload},
    market::{id, post_task, poster, tasker},
};

const OPERATOR: &str = "operator@example.com";

fn with_operator(config: &mut Config) {
    config.admin_emails = vec![OPERATOR.into()];
}

on_both_backends!(a_removed_tasks_photos_are_gone_and_task_photos_are_cached_briefly: with_operator);

async fn status_and_cache(app: &TestApp, path: &str) -> (StatusCode, String) {
    let response = app.client.get(app.url(path)).send().await.unwrap();
    let cache = response.headers().get(header::CACHE_CONTROL).map(|v| v.to_str().unwrap().to_owned());
    (response.status(), cache.unwrap_or_default())
}

async fn a_removed_tasks_photos_are_gone_and_task_photos_are_cached_briefly(app: TestApp) -> TestApp {
    let operator = poster(&app, OPERATOR).await;
    let owner = poster(&app, "poster@example.com").await;
    let reporter = tasker(&app, "reporter@example.com").await;
    let task = id(&post_task(&app, &owner, json!({})).await);
    let added = upload(&app, Some(&owner), &format!("/api/tasks/{task}/photos"), Some(png(400, 300)), &[]).await;
    assert_eq!(added.status, StatusCode::CREATED, "{:?}", added.body);
    let paths = [str_of(&added.body, "url").to_owned(), str_of(&added.body, "thumb_url").to_owned()];
    for path in &paths {
        let (status, cache) = status_and_cache(&app, path).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert!(!cache.contains("immutable"), "{path}: {cache}");
        let max_age: u64 =
            cache.split("max-age=").nth(1).and_then(|age| age.split(',').next()?.trim().parse().ok()).unwrap();
        assert!(max_age <= 3600, "{path} is cached for {max_age} s");
    }

    let report = json!({ "target": { "type": "task", "id": task }, "reason": "offensive" });
    let filed = app.post("/api/reports", Some(&reporter), report).await;
    let decision = json!({ "action": "remove", "note": "Against the rules" });
    let removed = app.post(&format!("/api/admin/reports/{}/resolve", id(&filed.body)), Some(&operator), decision).await;
    assert_eq!(removed.status, StatusCode::OK, "{:?}", removed.body);
    for path in &paths {
        assert_eq!(status_and_cache(&app, path).await.0, StatusCode::NOT_FOUND, "{path} went with its task");
    }
    app
}
