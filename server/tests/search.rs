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
    best_match_ranks_the_newest_matches_and_pages_through_every_match,
    best_match_in_a_category_ranks_that_categorys_matches_as_it_ranks_them_all,
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
    // The oldest, so only its rank can put it first: the word in its title and its description.
    post_task(&app, &token, json!({ "title": "Fence and gate", "description": "New fence palings, the gate rehung" }))
        .await;
    post_task(&app, &token, json!({ "title": "Paint the fence", "description": "White, two coats" })).await;
    post_task(&app, &token, json!({ "title": "Garden work", "description": "Weeding, and paint one fence post" }))
        .await;
    post_task(&app, &token, json!({ "title": "Mow the lawn", "description": "Front and back" })).await;
    // Saying it often in a description does not outrank saying it in the title.
    let stuffed = "Fence fence fence: a fence, fences, fencing and more fence";
    post_task(&app, &token, json!({ "title": "Odd jobs", "description": stuffed })).await;

    let best = app.get("/api/tasks?q=fence", None).await;
    assert_eq!(
        titles(&best),
        ["Fence and gate", "Paint the fence", "Odd jobs", "Garden work"],
        "Best match is the default with a search; more matches rank higher, a title's above a description's"
    );
    assert_eq!(titles(&app.get("/api/tasks?q=fence&sort=best_match", None).await), titles(&best));
    assert_eq!(
        titles(&app.get("/api/tasks?q=fence&sort=newest", None).await),
        ["Odd jobs", "Garden work", "Paint the fence", "Fence and gate"]
    );

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

/// Posts `count` open tasks straight through the store (faster than the API, and not limited per
/// hour), one second apart from `first_at`, in that order.
async fn store_tasks(app: &TestApp, email: &str, titles: &[(String, String)], first_at: i64) -> Vec<String> {
    let db = &app.server.state.db;
    let poster = store::users::user_by_email(db, email).await.unwrap().unwrap().id;
    let mut ids = Vec::new();
    for (i, (title, description)) in titles.iter().enumerate() {
        let draft = model::marketplace::rules::TaskDraft {
            title: title.clone(),
            description: description.clone(),
            category_id: 1,
            location: "Newtown NSW".into(),
            budget_cents: 10_000,
            due_date: time::OffsetDateTime::now_utc().date() + time::Duration::days(7),
            coordinates: None,
            remote: false,
        };
        let at = store::db::Timestamp(first_at + 1_000 * i as i64);
        ids.push(store::tasks::create_task(db, poster, &draft, at).await.unwrap().to_string());
    }
    ids
}

/// Every id on every page of `query`, `limit` at a time.
async fn every_page(app: &TestApp, query: &str, limit: usize) -> Vec<String> {
    let mut seen = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let path = match &cursor {
            None => format!("/api/tasks?{query}&limit={limit}"),
            Some(cursor) => format!("/api/tasks?{query}&limit={limit}&cursor={cursor}"),
        };
        let page = app.get(&path, None).await;
        assert_eq!(page.status, StatusCode::OK, "{:?}", page.body);
        seen.extend(page.body["items"].as_array().unwrap().iter().map(|t| t["id"].as_str().unwrap().to_owned()));
        match page.body["next_cursor"].as_str() {
            Some(next) => cursor = Some(next.to_owned()),
            None => return seen,
        }
    }
}

/// Best match ranks the newest matches only (a million tasks cannot be ranked per request): a
/// better match older than the window comes after it, newest first, and is still found; paging
/// through Best match gives every match once, even while tasks are posted between pages.
async fn best_match_ranks_the_newest_matches_and_pages_through_every_match(app: TestApp) -> TestApp {
    let email = "window.poster@example.com";
    poster(&app, email).await;
    let window = store::search::RANKED_WINDOW as usize;
    let start = store::db::Timestamp::now().0 - 86_400_000;
    // The best match of all (the word in its title), posted before the window's matches.
    let old_titles: Vec<(String, String)> = vec![
        ("Paint the fence".into(), "Old pickets".into()),
        ("Garden work, older".into(), "Mend the fence post".into()),
    ];
    let old = store_tasks(&app, email, &old_titles, start).await;
    let newer: Vec<(String, String)> = (0..window + 10)
        .map(|i| (format!("Garden work {i}"), format!("Weeding, and fix one fence post ({i})")))
        .collect();
    let newer = store_tasks(&app, email, &newer, start + 10_000).await;
    store_tasks(&app, email, &[("Mow the lawn".into(), "Front and back".into())], start + 20_000_000).await;

    let first = app.get("/api/tasks?q=fence&limit=5", None).await;
    assert!(
        titles(&first).iter().all(|title| title.starts_with("Garden work ")),
        "only the newest {window} matches are ranked: {:?}",
        titles(&first)
    );
    let newest = every_page(&app, "q=fence&sort=newest", 100).await;
    let mut expected: Vec<String> = newer.iter().rev().chain(old.iter().rev()).cloned().collect();
    assert_eq!(newest, expected, "newest first, every match, the one outside the window too");

    let best = every_page(&app, "q=fence", 50).await;
    assert_eq!(best.len(), expected.len(), "every match once");
    let (ranked, older) = best.split_at(window);
    let mut in_window = ranked.to_vec();
    in_window.sort();
    let mut newest_window: Vec<String> = newer[10..].to_vec();
    newest_window.sort();
    assert_eq!(in_window, newest_window, "the ranked part is the newest {window} matches");
    assert_eq!(older, &expected[window..], "older matches follow, newest first");
    // Every match is in category 1: a category's window, whose later pages read the category's
    // tasks from the first page's floor up, ranks and pages them alike.
    assert_eq!(every_page(&app, "q=fence&category=1", 50).await, best, "the same pages within the category");

    // Pages read while tasks are posted: no duplicates, nothing that existed is missed.
    let mut seen = Vec::new();
    let mut cursor: Option<String> = None;
    let mut posted = 0;
    loop {
        let path = match &cursor {
            None => "/api/tasks?q=fence&limit=100".to_owned(),
            Some(cursor) => format!("/api/tasks?q=fence&limit=100&cursor={cursor}"),
        };
        let page = app.get(&path, None).await;
        seen.extend(page.body["items"].as_array().unwrap().iter().map(|t| t["id"].as_str().unwrap().to_owned()));
        posted += 1;
        let now = store::db::Timestamp::now().0;
        store_tasks(&app, email, &[(format!("Fence repair {posted}"), "Posted between pages".into())], now).await;
        match page.body["next_cursor"].as_str() {
            Some(next) => cursor = Some(next.to_owned()),
            None => break,
        }
    }
    let unique: std::collections::HashSet<&String> = seen.iter().collect();
    assert_eq!(unique.len(), seen.len(), "no task twice");
    expected.sort();
    assert!(expected.iter().all(|id| unique.contains(id)), "every task that existed is found");
    app
}

/// Best match in a category ranks that category's matches as Best match ranks them all: the same
/// tasks in the same order, none of another category and none no longer open.
async fn best_match_in_a_category_ranks_that_categorys_matches_as_it_ranks_them_all(app: TestApp) -> TestApp {
    let token = poster(&app, "category.poster@example.com").await;
    let mut in_category = Vec::new();
    for (title, description, category_id) in [
        ("Fence and gate", "New fence palings, the gate rehung", 1),
        ("Garden tidy", "Weed along the fence", 1),
        ("Fence painting", "Two coats", 3),
        ("Paint a fence", "About twenty metres of pickets", 1),
        ("Gate latch", "Fix the latch on the fence gate", 3),
        ("Fence post", "One post has rotted", 1),
    ] {
        let task =
            post_task(&app, &token, json!({ "title": title, "description": description, "category_id": category_id }))
                .await;
        if category_id == 1 {
            in_category.push(id(&task));
        }
    }
    let closed = in_category.pop().unwrap();
    let cancelled = app.post(&format!("/api/tasks/{closed}/cancel"), Some(&token), json!({})).await;
    assert_eq!(cancelled.status, StatusCode::OK, "{:?}", cancelled.body);

    let all = every_page(&app, "q=fence", 2).await;
    assert_eq!(all.len(), 5, "{all:?}");
    let expected: Vec<String> = all.into_iter().filter(|task| in_category.contains(task)).collect();
    assert_eq!(expected.len(), 3);
    assert_eq!(every_page(&app, "q=fence&category=1", 2).await, expected);
    app
}
