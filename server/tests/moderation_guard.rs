//! The contact guard on every public, pre-assignment text (issue 23): task title and
//! description on create and edit, questions, answers and offer messages refuse contact
//! details with the field message and change nothing; private messages after assignment
//! are not filtered. The labelled corpus itself runs as a unit test of `moderation::guard`.

use crate::common;

use common::{
    Response, TestApp,
    escrow::{Assigned, assigned_task},
    market::{id, make_offer, post_task, poster, task_body, tasker},
    rows::{assert_task_unchanged, task_snapshot},
};
use reqwest::StatusCode;
use serde_json::json;

on_both_backends!(
    a_task_with_contact_details_is_not_posted,
    edits_questions_answers_and_offers_with_contact_details_change_nothing,
    private_messages_after_assignment_are_not_filtered,
);

const KEEP_IT_ON_TASKHUB: &str = "Please keep contact details and payments on Taskhub until the task is assigned.";

fn assert_refused(response: &Response, field: &str, what: &str) {
    assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY, "{what}: {:?}", response.body);
    assert_eq!(response.error_code(), "validation_failed", "{what}");
    assert_eq!(response.field_error(field), KEEP_IT_ON_TASKHUB, "{what}");
}

async fn open_task_count(app: &TestApp) -> usize {
    let browse = app.get("/api/tasks", None).await;
    assert_eq!(browse.status, StatusCode::OK, "{:?}", browse.body);
    browse.body["items"].as_array().unwrap().len()
}

async fn a_task_with_contact_details_is_not_posted(app: TestApp) -> TestApp {
    let owner = poster(&app, "poster@example.com").await;
    for (field, text) in [
        ("description", "Please call 0412 345 678 before you come"),
        ("description", "email me: olivia at gmail dot com"),
        ("title", "Garden tidy, cash only"),
        ("description", "Pay via paypal.me/olivia"),
    ] {
        let mut body = task_body("Garden tidy");
        body[field] = json!(text);
        let refused = app.post("/api/tasks", Some(&owner), body).await;
        assert_refused(&refused, field, text);
    }
    assert_eq!(open_task_count(&app).await, 0);
    post_task(&app, &owner, json!({ "description": "2 bedrooms 3 bathrooms, $150, postcode 2042" })).await;
    assert_eq!(open_task_count(&app).await, 1);
    app
}

async fn edits_questions_answers_and_offers_with_contact_details_change_nothing(app: TestApp) -> TestApp {
    let owner = poster(&app, "poster@example.com").await;
    let helper = tasker(&app, "tasker@example.com").await;
    let task = id(&post_task(&app, &owner, json!({})).await);
    let asked =
        app.post(&format!("/api/tasks/{task}/questions"), Some(&helper), json!({ "body": "Is parking ok?" })).await;
    assert_eq!(asked.status, StatusCode::CREATED, "{:?}", asked.body);
    let question = id(&asked.body);
    let offer = id(&make_offer(&app, &helper, &task, 9000).await);
    let before = task_snapshot(&app, &task).await;

    let edit =
        app.patch(&format!("/api/tasks/{task}"), Some(&owner), json!({ "description": "text 04 1234 5678" })).await;
    assert_refused(&edit, "description", "task edit");
    let ask = app
        .post(
            &format!("/api/tasks/{task}/questions"),
            Some(&helper),
            json!({ "body": "call me on 0 4 1 2 3 4 5 6 7 8" }),
        )
        .await;
    assert_refused(&ask, "body", "question");
    let answer = app
        .post(
            &format!("/api/questions/{question}/answer"),
            Some(&owner),
            json!({ "body": "Whatsapp me and we'll sort it" }),
        )
        .await;
    assert_refused(&answer, "body", "answer");
    let new_offer = app
        .post(
            &format!("/api/tasks/{task}/offers"),
            Some(&tasker(&app, "other@example.com").await),
            json!({ "amount_cents": 8000, "message": "Cash is cheaper, skip the fee" }),
        )
        .await;
    assert_refused(&new_offer, "message", "new offer");
    let changed_offer =
        app.patch(&format!("/api/offers/{offer}"), Some(&helper), json!({ "message": "sam@example.com" })).await;
    assert_refused(&changed_offer, "message", "offer edit");
    assert_task_unchanged(&app, &task, &before, "a refused text").await;

    let date_only =
        app.patch(&format!("/api/tasks/{task}"), Some(&owner), json!({ "title": "Assemble two wardrobes" })).await;
    assert_eq!(date_only.status, StatusCode::OK, "ordinary text is accepted: {:?}", date_only.body);
    app
}

async fn private_messages_after_assignment_are_not_filtered(app: TestApp) -> TestApp {
    let Assigned { poster, tasker, task, .. } = assigned_task(&app, 5_000).await;
    let path = format!("/api/tasks/{task}/messages");
    let sent = app.post(&path, Some(&poster), json!({ "body": "My mobile is 0412 345 678, gate code 1234" })).await;
    assert_eq!(sent.status, StatusCode::CREATED, "{:?}", sent.body);
    let reply = app.post(&path, Some(&tasker), json!({ "body": "Thanks, I'm on sam@example.com" })).await;
    assert_eq!(reply.status, StatusCode::CREATED, "{:?}", reply.body);
    app
}
