//! Offers and questions on tasks, with private amounts and the poster's
//! notifications (spec sections 2 Task detail, 5 Offer form), on both backends.

use crate::common;

use common::{
    TestApp,
    market::{id, make_offer, post_task, poster, tasker},
};
use reqwest::StatusCode;
use serde_json::{Value, json};

on_both_backends!(
    offer_amounts_are_private_to_the_poster_and_the_tasker,
    poster_cannot_offer_on_own_task,
    second_pending_offer_by_the_same_tasker_conflicts,
    concurrent_offers_from_one_tasker_create_exactly_one,
    offers_on_a_task_that_is_not_open_conflict,
    offer_form_uses_its_messages,
    tasker_updates_and_withdraws_a_pending_offer,
    new_offer_notifies_the_poster_in_the_same_transaction,
    my_offers_lists_offers_with_their_tasks,
    questions_are_public_and_answered_once_by_the_poster,
);

async fn offer_amounts_are_private_to_the_poster_and_the_tasker(app: TestApp) -> TestApp {
    let owner = poster(&app, "poster@example.com").await;
    let offerer = tasker(&app, "tasker@example.com").await;
    let stranger = tasker(&app, "stranger@example.com").await;
    let task_id = id(&post_task(&app, &owner, json!({})).await);
    let created = make_offer(&app, &offerer, &task_id, 11000).await;
    assert_eq!(created["amount_cents"], 11000);
    assert_eq!(created["status"], "pending");
    assert_eq!(created["tasker"]["name"], common::public_name_for("tasker@example.com"));
    let path = format!("/api/tasks/{task_id}/offers");
    for (token, private) in [(Some(&owner), true), (Some(&offerer), true), (Some(&stranger), false), (None, false)] {
        let list = app.get(&path, token.map(String::as_str)).await;
        assert_eq!(list.status, StatusCode::OK);
        let offer = &list.body["items"][0];
        assert_eq!(offer["id"], created["id"]);
        if private {
            assert_eq!(offer["amount_cents"], 11000);
            assert_eq!(offer["message"], "I can do it tomorrow");
        } else {
            assert_eq!(offer["amount_cents"], Value::Null);
            assert_eq!(offer["message"], Value::Null);
        }
    }
    assert_eq!(app.get(&format!("/api/tasks/{task_id}"), None).await.body["offer_count"], 1);
    assert_eq!(app.get("/api/tasks", None).await.body["items"][0]["offer_count"], 1);
    let missing = app.get("/api/tasks/0190a0a0-0000-7000-8000-000000000000/offers", None).await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    app
}

async fn poster_cannot_offer_on_own_task(app: TestApp) -> TestApp {
    let owner = poster(&app, "poster@example.com").await;
    let task_id = id(&post_task(&app, &owner, json!({})).await);
    let response = app
        .post(&format!("/api/tasks/{task_id}/offers"), Some(&owner), json!({ "amount_cents": 9000, "message": "Me!" }))
        .await;
    assert_eq!(response.status, StatusCode::FORBIDDEN);
    assert_eq!(response.error_code(), "forbidden");
    app
}

async fn second_pending_offer_by_the_same_tasker_conflicts(app: TestApp) -> TestApp {
    let owner = poster(&app, "poster@example.com").await;
    let offerer = tasker(&app, "tasker@example.com").await;
    let task_id = id(&post_task(&app, &owner, json!({})).await);
    let first = make_offer(&app, &offerer, &task_id, 9000).await;
    let again = app
        .post(
            &format!("/api/tasks/{task_id}/offers"),
            Some(&offerer),
            json!({ "amount_cents": 8000, "message": "Cheaper" }),
        )
        .await;
    assert_eq!(again.status, StatusCode::CONFLICT);
    assert_eq!(again.error_code(), "conflict");
    // After withdrawing, a fresh offer is welcome.
    assert_eq!(
        app.post(&format!("/api/offers/{}/withdraw", id(&first)), Some(&offerer), json!({})).await.status,
        StatusCode::OK
    );
    make_offer(&app, &offerer, &task_id, 8000).await;
    assert_eq!(app.get(&format!("/api/tasks/{task_id}"), None).await.body["offer_count"], 1);
    app
}

async fn concurrent_offers_from_one_tasker_create_exactly_one(app: TestApp) -> TestApp {
    let owner = poster(&app, "poster@example.com").await;
    let offerer = tasker(&app, "tasker@example.com").await;
    let task_id = id(&post_task(&app, &owner, json!({})).await);
    let path = format!("/api/tasks/{task_id}/offers");
    let attempts =
        (0..8).map(|i| app.post(&path, Some(&offerer), json!({ "amount_cents": 9000 + i, "message": "Race" })));
    let responses = futures_util::future::join_all(attempts).await;
    let created = responses.iter().filter(|r| r.status == StatusCode::CREATED).count();
    let conflicts = responses.iter().filter(|r| r.status == StatusCode::CONFLICT).count();
    assert_eq!((created, conflicts), (1, 7), "{:?}", responses.iter().map(|r| r.status).collect::<Vec<_>>());
    assert_eq!(app.get(&path, Some(&owner)).await.body["items"].as_array().unwrap().len(), 1);
    assert_eq!(app.get(&format!("/api/tasks/{task_id}"), None).await.body["offer_count"], 1);
    assert_eq!(app.get("/api/notifications", Some(&owner)).await.body["unread_count"], 1);
    app
}

async fn offers_on_a_task_that_is_not_open_conflict(app: TestApp) -> TestApp {
    let owner = poster(&app, "poster@example.com").await;
    let offerer = tasker(&app, "tasker@example.com").await;
    let task_id = id(&post_task(&app, &owner, json!({})).await);
    app.post(&format!("/api/tasks/{task_id}/cancel"), Some(&owner), json!({})).await;
    let response = app
        .post(&format!("/api/tasks/{task_id}/offers"), Some(&offerer), json!({ "amount_cents": 9000, "message": "Hi" }))
        .await;
    assert_eq!(response.status, StatusCode::CONFLICT);
    let unknown = app
        .post(
            "/api/tasks/0190a0a0-0000-7000-8000-000000000000/offers",
            Some(&offerer),
            json!({ "amount_cents": 9000, "message": "Hi" }),
        )
        .await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    app
}

async fn offer_form_uses_its_messages(app: TestApp) -> TestApp {
    let owner = poster(&app, "poster@example.com").await;
    let offerer = tasker(&app, "tasker@example.com").await;
    let task_id = id(&post_task(&app, &owner, json!({})).await);
    let path = format!("/api/tasks/{task_id}/offers");
    for amount in [json!("lots"), json!(499), json!(null), json!(10.5)] {
        let response = app.post(&path, Some(&offerer), json!({ "amount_cents": amount, "message": "Hi" })).await;
        assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(response.field_error("amount_cents"), "Please enter a valid offer amount");
    }
    let response = app.post(&path, Some(&offerer), json!({ "amount_cents": 900, "message": "  " })).await;
    assert_eq!(response.field_error("message"), "Please add a comment to your offer");
    assert_eq!(
        app.post(&path, None, json!({ "amount_cents": 900, "message": "Hi" })).await.status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(app.get(&path, Some(&owner)).await.body["items"], json!([]));
    app
}

async fn tasker_updates_and_withdraws_a_pending_offer(app: TestApp) -> TestApp {
    let owner = poster(&app, "poster@example.com").await;
    let offerer = tasker(&app, "tasker@example.com").await;
    let stranger = tasker(&app, "stranger@example.com").await;
    let task_id = id(&post_task(&app, &owner, json!({})).await);
    let offer_id = id(&make_offer(&app, &offerer, &task_id, 9000).await);
    let path = format!("/api/offers/{offer_id}");
    let updated = app.patch(&path, Some(&offerer), json!({ "amount_cents": 9500 })).await;
    assert_eq!(updated.status, StatusCode::OK, "{:?}", updated.body);
    assert_eq!(updated.body["amount_cents"], 9500);
    assert_eq!(updated.body["message"], "I can do it tomorrow");
    assert_eq!(
        app.patch(&path, Some(&offerer), json!({ "amount_cents": 1 })).await.status,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    for token in [&stranger, &owner] {
        assert_eq!(app.patch(&path, Some(token), json!({ "amount_cents": 600 })).await.status, StatusCode::FORBIDDEN);
        assert_eq!(app.post(&format!("{path}/withdraw"), Some(token), json!({})).await.status, StatusCode::FORBIDDEN);
    }
    assert_eq!(app.patch(&path, None, json!({ "amount_cents": 600 })).await.status, StatusCode::UNAUTHORIZED);
    let withdrawn = app.post(&format!("{path}/withdraw"), Some(&offerer), json!({})).await;
    assert_eq!(withdrawn.status, StatusCode::OK);
    assert_eq!(withdrawn.body["status"], "withdrawn");
    assert_eq!(app.get(&format!("/api/tasks/{task_id}"), None).await.body["offer_count"], 0);
    assert_eq!(app.post(&format!("{path}/withdraw"), Some(&offerer), json!({})).await.status, StatusCode::CONFLICT);
    assert_eq!(app.patch(&path, Some(&offerer), json!({ "amount_cents": 9000 })).await.status, StatusCode::CONFLICT);
    assert_eq!(
        app.patch("/api/offers/0190a0a0-0000-7000-8000-000000000000", Some(&offerer), json!({})).await.status,
        StatusCode::NOT_FOUND
    );
    app
}

async fn new_offer_notifies_the_poster_in_the_same_transaction(app: TestApp) -> TestApp {
    let owner = poster(&app, "poster@example.com").await;
    let task_id = id(&post_task(&app, &owner, json!({ "title": "Clean oven" })).await);
    for i in 0..3 {
        make_offer(&app, &tasker(&app, &format!("tasker{i}@example.com")).await, &task_id, 9000).await;
    }
    let notes = app.get("/api/notifications?limit=2", Some(&owner)).await;
    assert_eq!(notes.status, StatusCode::OK);
    assert_eq!(notes.body["unread_count"], 3);
    let first_page = notes.body["items"].as_array().unwrap().clone();
    assert_eq!(first_page.len(), 2);
    assert_eq!(first_page[0]["type"], "offer");
    assert_eq!(first_page[0]["is_read"], false);
    assert!(first_page[0]["message"].as_str().unwrap().contains("Clean oven"));
    assert_eq!(notes.body["has_more"], true);
    let cursor = notes.body["next_cursor"].as_str().unwrap();
    let rest = app.get(&format!("/api/notifications?limit=2&cursor={cursor}"), Some(&owner)).await;
    assert_eq!(rest.body["items"].as_array().unwrap().len(), 1);
    assert_eq!(rest.body["next_cursor"], Value::Null);
    assert_eq!(rest.body["has_more"], false);

    let first_id = first_page[0]["id"].as_str().unwrap();
    let other = poster(&app, "other@example.com").await;
    assert_eq!(
        app.post(&format!("/api/notifications/{first_id}/read"), Some(&other), json!({})).await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        app.post(&format!("/api/notifications/{first_id}/read"), None, json!({})).await.status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        app.post(&format!("/api/notifications/{first_id}/read"), Some(&owner), json!({})).await.status,
        StatusCode::NO_CONTENT
    );
    let unread = app.get("/api/notifications?unread_only=true", Some(&owner)).await;
    assert_eq!(unread.body["unread_count"], 2);
    assert_eq!(unread.body["items"].as_array().unwrap().len(), 2);
    assert_eq!(app.post("/api/notifications/read-all", Some(&owner), json!({})).await.status, StatusCode::NO_CONTENT);
    assert_eq!(app.get("/api/notifications", Some(&owner)).await.body["unread_count"], 0);
    assert_eq!(app.get("/api/notifications", None).await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(app.get("/api/notifications?cursor=zz", Some(&owner)).await.status, StatusCode::BAD_REQUEST);
    app
}

async fn my_offers_lists_offers_with_their_tasks(app: TestApp) -> TestApp {
    let owner = poster(&app, "poster@example.com").await;
    let offerer = tasker(&app, "tasker@example.com").await;
    let first = id(&post_task(&app, &owner, json!({ "title": "First" })).await);
    let second = id(&post_task(&app, &owner, json!({ "title": "Second" })).await);
    make_offer(&app, &offerer, &first, 9000).await;
    make_offer(&app, &offerer, &second, 7000).await;
    let mine = app.get("/api/me/offers", Some(&offerer)).await;
    assert_eq!(mine.status, StatusCode::OK);
    let items = mine.body["items"].as_array().unwrap();
    assert_eq!(items.len(), 2);
    assert_eq!(items[0]["task"]["title"], "Second");
    assert_eq!(items[0]["amount_cents"], 7000);
    assert_eq!(items[1]["task"]["title"], "First");
    assert_eq!(app.get("/api/me/offers", Some(&owner)).await.body["items"], json!([]));
    assert_eq!(app.get("/api/me/offers", None).await.status, StatusCode::UNAUTHORIZED);
    app
}

async fn questions_are_public_and_answered_once_by_the_poster(app: TestApp) -> TestApp {
    let owner = poster(&app, "poster@example.com").await;
    let asker = tasker(&app, "asker@example.com").await;
    let task_id = id(&post_task(&app, &owner, json!({ "title": "Move piano" })).await);
    let path = format!("/api/tasks/{task_id}/questions");
    assert_eq!(app.post(&path, None, json!({ "body": "Stairs?" })).await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(app.post(&path, Some(&owner), json!({ "body": "Stairs?" })).await.status, StatusCode::FORBIDDEN);
    assert_eq!(
        app.post(&path, Some(&asker), json!({ "body": " " })).await.field_error("body"),
        "Please enter your question"
    );
    let asked = app.post(&path, Some(&asker), json!({ "body": "Are there stairs?" })).await;
    assert_eq!(asked.status, StatusCode::CREATED, "{:?}", asked.body);
    assert_eq!(asked.body["answer"], Value::Null);
    let question_id = id(&asked.body);
    assert_eq!(app.get("/api/notifications", Some(&owner)).await.body["items"][0]["title"], "New question");

    let answer_path = format!("/api/questions/{question_id}/answer");
    assert_eq!(app.post(&answer_path, Some(&asker), json!({ "body": "Yes" })).await.status, StatusCode::FORBIDDEN);
    assert_eq!(app.post(&answer_path, None, json!({ "body": "Yes" })).await.status, StatusCode::UNAUTHORIZED);
    let answered = app.post(&answer_path, Some(&owner), json!({ "body": "Two flights" })).await;
    assert_eq!(answered.status, StatusCode::OK, "{:?}", answered.body);
    assert_eq!(answered.body["answer"], "Two flights");
    assert_eq!(app.post(&answer_path, Some(&owner), json!({ "body": "Three" })).await.status, StatusCode::CONFLICT);
    assert_eq!(app.get("/api/notifications", Some(&asker)).await.body["items"][0]["title"], "Question answered");

    let public = app.get(&path, None).await;
    assert_eq!(public.status, StatusCode::OK);
    assert_eq!(public.body["items"][0]["body"], "Are there stairs?");
    assert_eq!(public.body["items"][0]["answer"], "Two flights");
    assert_eq!(app.get(&format!("/api/tasks/{task_id}"), None).await.body["questions"][0]["answer"], "Two flights");
    app.post(&format!("/api/tasks/{task_id}/cancel"), Some(&owner), json!({})).await;
    assert_eq!(app.post(&path, Some(&asker), json!({ "body": "Still on?" })).await.status, StatusCode::CONFLICT);
    assert_eq!(
        app.post("/api/questions/0190a0a0-0000-7000-8000-000000000000/answer", Some(&owner), json!({ "body": "x" }))
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    app
}
