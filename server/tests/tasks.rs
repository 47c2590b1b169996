//! Categories, posting, browsing, task detail, edit and cancel, My Tasks (spec
//! sections 2, 5 and 7), on both backends.

use crate::common;

use common::{
    TestApp,
    market::{date_in, id, make_offer, post_task, poster, task_body, tasker},
};
use reqwest::StatusCode;
use serde_json::{Value, json};

on_both_backends!(
    categories_are_the_sixteen_of_the_spec,
    posting_a_task_returns_it_open_with_the_poster,
    task_submission_uses_the_spec_messages,
    only_signed_in_users_post_tasks,
    browse_lists_only_open_tasks_newest_first,
    browse_filters_by_search_category_location_and_budget,
    browse_sorts_four_ways,
    pagination_never_repeats_or_skips_while_tasks_arrive,
    browse_rejects_bad_parameters_with_the_error_shape,
    task_detail_counts_a_viewer_once_per_day,
    task_detail_shows_similar_open_tasks_and_unknown_ids_are_404,
    poster_edits_an_open_task,
    cancelling_marks_offers_not_selected_and_tells_their_taskers,
    my_tasks_lists_everything_i_posted_newest_first,
);

async fn categories_are_the_sixteen_of_the_spec(app: TestApp) -> TestApp {
    let response = app.get("/api/categories", None).await;
    assert_eq!(response.status, StatusCode::OK);
    let categories = response.body.as_array().unwrap();
    assert_eq!(categories.len(), 16);
    let names: Vec<&str> = categories.iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(
        &names[..8],
        ["Home Cleaning", "Furniture Assembly", "Handyman", "Delivery", "Moving", "Gardening", "Painting", "Pet Care"]
    );
    assert_eq!(names[15], "Education");
    for (index, category) in categories.iter().enumerate() {
        assert_eq!(category["id"], index as i64 + 1);
        assert!(!category["icon"].as_str().unwrap().is_empty());
        assert!(!category["description"].as_str().unwrap().is_empty());
    }
    app
}

async fn posting_a_task_returns_it_open_with_the_poster(app: TestApp) -> TestApp {
    let token = poster(&app, "poster@example.com").await;
    let task = post_task(&app, &token, json!({ "budget_cents": "4500" })).await;
    assert_eq!(task["status"], "open");
    assert_eq!(task["budget_cents"], 4500);
    assert_eq!(task["currency"], "aud");
    assert_eq!(task["category"], "Furniture Assembly");
    assert_eq!(task["category_id"], 2);
    assert_eq!(task["due_date"], date_in(3));
    assert_eq!(task["offer_count"], 0);
    assert_eq!(task["view_count"], 0);
    assert_eq!(task["poster"]["name"], common::public_name_for("poster@example.com"));
    // No reviews yet: no invented rating.
    assert_eq!(task["poster"]["rating"], Value::Null);
    assert_eq!(task["poster_stats"]["tasks_completed"], 0);
    assert!(task["created_at"].as_str().unwrap().ends_with('Z'));
    app
}

async fn task_submission_uses_the_spec_messages(app: TestApp) -> TestApp {
    let token = poster(&app, "poster@example.com").await;
    for field in ["title", "description", "category_id"] {
        let mut body = task_body("Fix a tap");
        body.as_object_mut().unwrap().remove(field);
        let response = app.post("/api/tasks", Some(&token), body).await;
        assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(response.error_code(), "validation_failed");
        assert_eq!(response.body["error"]["message"], "Please fill in all required fields");
        assert_eq!(response.field_error(field), "Please fill in all required fields");
    }
    for budget in [json!("twenty"), json!(499), json!(null), json!(-500)] {
        let mut body = task_body("Fix a tap");
        body["budget_cents"] = budget;
        let response = app.post("/api/tasks", Some(&token), body).await;
        assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(response.body["error"]["message"], "Please enter a valid budget amount");
        assert_eq!(response.field_error("budget_cents"), "Please enter a valid budget amount");
    }
    let mut body = task_body("Fix a tap");
    body["due_date"] = json!(date_in(-1));
    let response = app.post("/api/tasks", Some(&token), body).await;
    assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(response.field_error("due_date"), "The due date cannot be in the past");
    let mut body = task_body("Fix a tap");
    body["category_id"] = json!(17);
    let response = app.post("/api/tasks", Some(&token), body).await;
    assert_eq!(response.field_error("category_id"), "Please choose a valid category");
    // Not JSON at all: still the contract's shape.
    let raw = app
        .client
        .post(app.url("/api/tasks"))
        .bearer_auth(&token)
        .header("content-type", "application/json")
        .body("{")
        .send()
        .await
        .unwrap();
    let raw = TestApp::read(raw).await;
    assert_eq!(raw.status, StatusCode::BAD_REQUEST);
    assert_eq!(raw.error_code(), "bad_request");
    assert_eq!(app.get("/api/tasks", None).await.body["items"].as_array().unwrap().len(), 0);
    app
}

async fn only_signed_in_users_post_tasks(app: TestApp) -> TestApp {
    let response = app.post("/api/tasks", None, task_body("Fix a tap")).await;
    assert_eq!(response.status, StatusCode::UNAUTHORIZED);
    assert_eq!(response.error_code(), "unauthorized");
    let response = app.post("/api/tasks", Some("not-a-token"), task_body("Fix a tap")).await;
    assert_eq!(response.status, StatusCode::UNAUTHORIZED);
    app
}

fn titles(response: &common::Response) -> Vec<String> {
    response.body["items"].as_array().unwrap().iter().map(|t| t["title"].as_str().unwrap().to_owned()).collect()
}

async fn browse_lists_only_open_tasks_newest_first(app: TestApp) -> TestApp {
    let token = poster(&app, "poster@example.com").await;
    post_task(&app, &token, json!({ "title": "First" })).await;
    let second = post_task(&app, &token, json!({ "title": "Second" })).await;
    post_task(&app, &token, json!({ "title": "Third" })).await;
    let cancel = app.post(&format!("/api/tasks/{}/cancel", id(&second)), Some(&token), json!({})).await;
    assert_eq!(cancel.status, StatusCode::OK);
    let list = app.get("/api/tasks", None).await;
    assert_eq!(list.status, StatusCode::OK);
    assert_eq!(titles(&list), ["Third", "First"]);
    assert_eq!(list.body["next_cursor"], Value::Null);
    let card = &list.body["items"][0];
    for field in [
        "id",
        "description",
        "budget_cents",
        "currency",
        "location",
        "due_date",
        "category_id",
        "category",
        "category_icon",
        "status",
        "created_at",
        "offer_count",
    ] {
        assert!(!card[field].is_null(), "{field} missing from {card}");
    }
    assert_eq!(card["poster"]["name"], common::public_name_for("poster@example.com"));
    app
}

async fn browse_filters_by_search_category_location_and_budget(app: TestApp) -> TestApp {
    let token = poster(&app, "poster@example.com").await;
    post_task(
        &app,
        &token,
        json!({ "title": "Paint the FENCE", "category_id": 7, "location": "Bondi NSW", "budget_cents": 30000 }),
    )
    .await;
    post_task(&app, &token, json!({ "title": "Walk my dog", "description": "A friendly fence-jumper", "category_id": 8, "location": "Fitzroy VIC", "budget_cents": 2500 })).await;
    post_task(&app, &token, json!({ "title": "Mow lawn", "description": "Front and back", "category_id": 6, "location": "Bondi Junction NSW", "budget_cents": 6000 })).await;
    post_task(
        &app,
        &token,
        json!({ "title": "100% done_right", "description": "odd characters", "category_id": 3, "budget_cents": 9000 }),
    )
    .await;

    assert_eq!(titles(&app.get("/api/tasks?q=fence&sort=newest", None).await), ["Walk my dog", "Paint the FENCE"]);
    assert_eq!(titles(&app.get("/api/tasks?q=FrIeNdLy", None).await), ["Walk my dog"]);
    assert_eq!(titles(&app.get("/api/tasks?q=100%25", None).await), ["100% done_right"]);
    assert_eq!(titles(&app.get("/api/tasks?q=0_d", None).await).len(), 0, "punctuation is no wildcard");
    assert_eq!(titles(&app.get("/api/tasks?category=6", None).await), ["Mow lawn"]);
    assert_eq!(titles(&app.get("/api/tasks?location=bondi", None).await), ["Mow lawn", "Paint the FENCE"]);
    assert_eq!(
        titles(&app.get("/api/tasks?min_budget=50&max_budget=100", None).await),
        ["100% done_right", "Mow lawn"]
    );
    assert_eq!(titles(&app.get("/api/tasks?min_budget=60.5", None).await), ["100% done_right", "Paint the FENCE"]);
    assert_eq!(
        titles(&app.get("/api/tasks?q=fence&location=nsw&category=7&max_budget=300", None).await),
        ["Paint the FENCE"]
    );
    assert_eq!(
        titles(&app.get("/api/tasks?q=&category=&location=", None).await).len(),
        4,
        "empty parameters are no filter"
    );
    app
}

async fn browse_sorts_four_ways(app: TestApp) -> TestApp {
    let token = poster(&app, "poster@example.com").await;
    post_task(&app, &token, json!({ "title": "A", "budget_cents": 5000, "due_date": date_in(5) })).await;
    post_task(&app, &token, json!({ "title": "B", "budget_cents": 9000, "due_date": date_in(1) })).await;
    post_task(&app, &token, json!({ "title": "C", "budget_cents": 700, "due_date": date_in(9) })).await;
    assert_eq!(titles(&app.get("/api/tasks?sort=newest", None).await), ["C", "B", "A"]);
    assert_eq!(titles(&app.get("/api/tasks?sort=budget_desc", None).await), ["B", "A", "C"]);
    assert_eq!(titles(&app.get("/api/tasks?sort=budget_asc", None).await), ["C", "A", "B"]);
    assert_eq!(titles(&app.get("/api/tasks?sort=due_soonest", None).await), ["B", "A", "C"]);
    app
}

async fn pagination_never_repeats_or_skips_while_tasks_arrive(app: TestApp) -> TestApp {
    let token = poster(&app, "poster@example.com").await;
    let mut expected = Vec::new();
    for i in 0..9 {
        // Equal budgets: ties are broken by id, never by chance.
        post_task(&app, &token, json!({ "title": format!("Task {i}"), "budget_cents": 1000 + (i % 3) * 100 })).await;
        expected.push(format!("Task {i}"));
    }
    for sort in ["newest", "budget_desc", "budget_asc", "due_soonest"] {
        let mut seen = Vec::new();
        let mut cursor: Option<String> = None;
        let mut pages = 0;
        loop {
            let path = match &cursor {
                None => format!("/api/tasks?sort={sort}&limit=4"),
                Some(cursor) => format!("/api/tasks?sort={sort}&limit=4&cursor={cursor}"),
            };
            let page = app.get(&path, None).await;
            assert_eq!(page.status, StatusCode::OK, "{:?}", page.body);
            seen.extend(titles(&page));
            // New tasks arrive between pages.
            post_task(&app, &token, json!({ "title": format!("Late {sort} {pages}"), "budget_cents": 1000 })).await;
            pages += 1;
            match page.body["next_cursor"].as_str() {
                Some(next) => cursor = Some(next.to_owned()),
                None => break,
            }
        }
        let originals: Vec<&String> = seen.iter().filter(|title| title.starts_with("Task ")).collect();
        let mut unique = originals.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), originals.len(), "{sort}: a task was repeated: {seen:?}");
        assert_eq!(unique.len(), expected.len(), "{sort}: a task was skipped: {seen:?}");
    }
    app
}

async fn browse_rejects_bad_parameters_with_the_error_shape(app: TestApp) -> TestApp {
    for (path, field) in [
        ("/api/tasks?sort=cheapest", "sort"),
        ("/api/tasks?limit=0", "limit"),
        ("/api/tasks?limit=101", "limit"),
        ("/api/tasks?limit=ten", "limit"),
        ("/api/tasks?category=garden", "category"),
        ("/api/tasks?min_budget=lots", "min_budget"),
        ("/api/tasks?min_budget=200&max_budget=100", "max_budget"),
    ] {
        let response = app.get(path, None).await;
        assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY, "{path}");
        assert_eq!(response.error_code(), "validation_failed");
        assert!(!response.field_error(field).is_empty(), "{path}: {:?}", response.body);
    }
    let response = app.get("/api/tasks?cursor=garbage", None).await;
    assert_eq!(response.status, StatusCode::BAD_REQUEST);
    assert_eq!(response.error_code(), "bad_request");
    assert_eq!(app.get("/api/tasks?limit=100", None).await.status, StatusCode::OK);
    assert_eq!(app.get("/api/tasks?min_budget=100&max_budget=100", None).await.status, StatusCode::OK);
    app
}

async fn task_detail_counts_a_viewer_once_per_day(app: TestApp) -> TestApp {
    let owner = poster(&app, "poster@example.com").await;
    let viewer = tasker(&app, "viewer@example.com").await;
    let task_id = id(&post_task(&app, &owner, json!({})).await);
    let path = format!("/api/tasks/{task_id}");
    // Views are written once a second (`task_views`); `seen` writes them now, then reads the count.
    let seen = async |token: Option<&str>| {
        app.get(&path, token).await;
        app.server.state.task_views.flush(&app.server.state.db).await.unwrap();
        app.get(&path, Some(&owner)).await.body["view_count"].clone()
    };
    assert_eq!(seen(Some(owner.as_str())).await, 0, "the poster's own views do not count");
    assert_eq!(seen(Some(viewer.as_str())).await, 1);
    assert_eq!(seen(Some(viewer.as_str())).await, 1);
    assert_eq!(seen(None).await, 2, "a visitor is a different viewer");
    assert_eq!(seen(None).await, 2);
    app
}

async fn task_detail_shows_similar_open_tasks_and_unknown_ids_are_404(app: TestApp) -> TestApp {
    let token = poster(&app, "poster@example.com").await;
    let main = post_task(&app, &token, json!({ "title": "Main", "category_id": 6 })).await;
    post_task(&app, &token, json!({ "title": "Other garden", "category_id": 6 })).await;
    post_task(&app, &token, json!({ "title": "Painting", "category_id": 7 })).await;
    let closed = post_task(&app, &token, json!({ "title": "Closed garden", "category_id": 6 })).await;
    app.post(&format!("/api/tasks/{}/cancel", id(&closed)), Some(&token), json!({})).await;
    let detail = app.get(&format!("/api/tasks/{}", id(&main)), None).await;
    assert_eq!(detail.status, StatusCode::OK);
    let similar: Vec<&str> =
        detail.body["similar_tasks"].as_array().unwrap().iter().map(|t| t["title"].as_str().unwrap()).collect();
    assert_eq!(similar, ["Other garden"]);
    assert_eq!(detail.body["questions"], json!([]));
    assert_eq!(detail.body["assigned_tasker"], Value::Null);
    let missing = app.get("/api/tasks/0190a0a0-0000-7000-8000-000000000000", None).await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    assert_eq!(missing.error_code(), "not_found");
    assert_eq!(app.get("/api/tasks/not-a-uuid", None).await.status, StatusCode::NOT_FOUND);
    app
}

async fn poster_edits_an_open_task(app: TestApp) -> TestApp {
    let owner = poster(&app, "poster@example.com").await;
    let other = tasker(&app, "other@example.com").await;
    let task_id = id(&post_task(&app, &owner, json!({})).await);
    let path = format!("/api/tasks/{task_id}");
    let edited =
        app.patch(&path, Some(&owner), json!({ "title": "Assemble three wardrobes", "budget_cents": 15000 })).await;
    assert_eq!(edited.status, StatusCode::OK, "{:?}", edited.body);
    assert_eq!(edited.body["title"], "Assemble three wardrobes");
    assert_eq!(edited.body["budget_cents"], 15000);
    assert_eq!(edited.body["location"], "Newtown NSW", "absent fields keep their value");
    assert_eq!(titles(&app.get("/api/tasks?q=three", None).await), ["Assemble three wardrobes"]);
    let invalid = app.patch(&path, Some(&owner), json!({ "budget_cents": "cheap" })).await;
    assert_eq!(invalid.body["error"]["message"], "Please enter a valid budget amount");
    assert_eq!(app.patch(&path, Some(&other), json!({ "title": "Mine now" })).await.status, StatusCode::FORBIDDEN);
    assert_eq!(app.patch(&path, None, json!({ "title": "Mine now" })).await.status, StatusCode::UNAUTHORIZED);
    app.post(&format!("{path}/cancel"), Some(&owner), json!({})).await;
    let closed = app.patch(&path, Some(&owner), json!({ "title": "Too late" })).await;
    assert_eq!(closed.status, StatusCode::CONFLICT);
    assert_eq!(closed.error_code(), "conflict");
    app
}

async fn cancelling_marks_offers_not_selected_and_tells_their_taskers(app: TestApp) -> TestApp {
    let owner = poster(&app, "poster@example.com").await;
    let first = tasker(&app, "first@example.com").await;
    let second = tasker(&app, "second@example.com").await;
    let task_id = id(&post_task(&app, &owner, json!({ "title": "Paint shed" })).await);
    make_offer(&app, &first, &task_id, 9000).await;
    make_offer(&app, &second, &task_id, 8000).await;
    let path = format!("/api/tasks/{task_id}/cancel");
    assert_eq!(app.post(&path, Some(&first), json!({})).await.status, StatusCode::FORBIDDEN);
    assert_eq!(app.post(&path, None, json!({})).await.status, StatusCode::UNAUTHORIZED);
    let cancelled = app.post(&path, Some(&owner), json!({})).await;
    assert_eq!(cancelled.status, StatusCode::OK);
    assert_eq!(cancelled.body["status"], "cancelled");
    assert_eq!(app.post(&path, Some(&owner), json!({})).await.status, StatusCode::CONFLICT);
    let offers = app.get(&format!("/api/tasks/{task_id}/offers"), Some(&owner)).await;
    assert!(offers.body["items"].as_array().unwrap().iter().all(|offer| offer["status"] == "not_selected"));
    for token in [&first, &second] {
        let notes = app.get("/api/notifications", Some(token)).await;
        assert_eq!(notes.body["unread_count"], 1);
        assert_eq!(notes.body["items"][0]["type"], "task");
        assert!(notes.body["items"][0]["message"].as_str().unwrap().contains("Paint shed"));
        assert_eq!(notes.body["items"][0]["link"], format!("/task/{task_id}"));
    }
    assert_eq!(app.get("/api/tasks", None).await.body["items"], json!([]));
    app
}

async fn my_tasks_lists_everything_i_posted_newest_first(app: TestApp) -> TestApp {
    let owner = poster(&app, "poster@example.com").await;
    let other = poster(&app, "other@example.com").await;
    let old = post_task(&app, &owner, json!({ "title": "Old" })).await;
    post_task(&app, &owner, json!({ "title": "New" })).await;
    post_task(&app, &other, json!({ "title": "Not mine" })).await;
    app.post(&format!("/api/tasks/{}/cancel", id(&old)), Some(&owner), json!({})).await;
    let mine = app.get("/api/me/tasks", Some(&owner)).await;
    assert_eq!(mine.status, StatusCode::OK);
    assert_eq!(titles(&mine), ["New", "Old"]);
    assert_eq!(mine.body["items"][1]["status"], "cancelled");
    assert_eq!(app.get("/api/me/tasks", None).await.status, StatusCode::UNAUTHORIZED);
    app
}
