//! Who may call what: every marketplace route against a signed-out visitor,
//! the task's poster, another user and a tasker with an offer on the task.
//! Every refused call must leave the task's rows (task, offers, questions,
//! payments, ledger) and all notifications exactly as they were.

use crate::common;

use common::{
    TestApp,
    market::{id, make_offer, post_task, poster, task_body, tasker},
    rows::{assert_task_unchanged, task_snapshot},
};
use reqwest::Method;
use serde_json::{Value, json};

on_both_backends!(every_route_answers_each_kind_of_caller_correctly);

struct Callers {
    poster: String,
    other: String,
    tasker: String,
    /// The task whose rows a refused call must not change.
    task: String,
}

/// Calls `path` as each caller, in this order: signed out, poster, other user, tasker with an
/// offer; after each refusal, checks that the database is unchanged.
async fn expect(app: &TestApp, callers: &Callers, method: Method, path: &str, body: Value, statuses: [u16; 4]) {
    let who = [
        ("signed out", None),
        ("poster", Some(&callers.poster)),
        ("other user", Some(&callers.other)),
        ("tasker", Some(&callers.tasker)),
    ];
    for ((name, token), status) in who.into_iter().zip(statuses) {
        let body = (method != Method::GET).then(|| body.clone());
        let before = task_snapshot(app, &callers.task).await;
        let response = app.request(method.clone(), path, token.map(String::as_str), body).await;
        assert_eq!(response.status.as_u16(), status, "{method} {path} as {name}: {:?}", response.body);
        if status >= 400 {
            assert!(!response.error_code().is_empty(), "{method} {path} as {name}: no error shape");
            assert_task_unchanged(app, &callers.task, &before, &format!("{method} {path} as {name} (refused)")).await;
        }
    }
}

async fn every_route_answers_each_kind_of_caller_correctly(app: TestApp) -> TestApp {
    let mut callers = Callers {
        poster: poster(&app, "poster@example.com").await,
        other: poster(&app, "other@example.com").await,
        tasker: tasker(&app, "tasker@example.com").await,
        task: String::new(),
    };
    let task = id(&post_task(&app, &callers.poster, json!({})).await);
    callers.task = task.clone();
    let offer = id(&make_offer(&app, &callers.tasker, &task, 9000).await);
    let get = Method::GET;
    let post = Method::POST;
    let patch = Method::PATCH;

    expect(&app, &callers, get.clone(), "/api/categories", json!({}), [200; 4]).await;
    expect(&app, &callers, get.clone(), "/api/tasks", json!({}), [200; 4]).await;
    expect(&app, &callers, post.clone(), "/api/tasks", task_body("Another"), [401, 201, 201, 201]).await;
    expect(&app, &callers, get.clone(), &format!("/api/tasks/{task}"), json!({}), [200; 4]).await;
    expect(
        &app,
        &callers,
        patch.clone(),
        &format!("/api/tasks/{task}"),
        json!({ "title": "Edited" }),
        [401, 200, 403, 403],
    )
    .await;
    expect(&app, &callers, get.clone(), &format!("/api/tasks/{task}/offers"), json!({}), [200; 4]).await;
    let offer_body = json!({ "amount_cents": 8000, "message": "Me too" });
    expect(&app, &callers, post.clone(), &format!("/api/tasks/{task}/offers"), offer_body, [401, 403, 201, 409]).await;
    expect(
        &app,
        &callers,
        patch.clone(),
        &format!("/api/offers/{offer}"),
        json!({ "amount_cents": 8500 }),
        [401, 403, 403, 200],
    )
    .await;
    expect(&app, &callers, get.clone(), &format!("/api/tasks/{task}/questions"), json!({}), [200; 4]).await;
    expect(
        &app,
        &callers,
        post.clone(),
        &format!("/api/tasks/{task}/questions"),
        json!({ "body": "When?" }),
        [401, 403, 201, 201],
    )
    .await;
    let questions = app.get(&format!("/api/tasks/{task}/questions"), None).await;
    let question = id(&questions.body["items"][0]);
    expect(
        &app,
        &callers,
        post.clone(),
        &format!("/api/questions/{question}/answer"),
        json!({ "body": "Soon" }),
        [401, 200, 403, 403],
    )
    .await;
    expect(&app, &callers, get.clone(), "/api/me/tasks", json!({}), [401, 200, 200, 200]).await;
    expect(&app, &callers, get.clone(), "/api/me/offers", json!({}), [401, 200, 200, 200]).await;
    expect(&app, &callers, get.clone(), "/api/notifications", json!({}), [401, 200, 200, 200]).await;
    let notes = app.get("/api/notifications", Some(&callers.poster)).await;
    let note = id(&notes.body["items"][0]);
    expect(&app, &callers, post.clone(), &format!("/api/notifications/{note}/read"), json!({}), [401, 204, 404, 404])
        .await;
    expect(&app, &callers, post.clone(), "/api/notifications/read-all", json!({}), [401, 204, 204, 204]).await;
    expect(&app, &callers, get.clone(), "/api/geocode?q=a", json!({}), [200; 4]).await;
    let contact = json!({ "name": "Sam", "email": "sam@example.com", "subject": "Hi", "message": "Hello" });
    expect(&app, &callers, post.clone(), "/api/contact", contact, [202; 4]).await;
    expect(&app, &callers, post.clone(), &format!("/api/offers/{offer}/withdraw"), json!({}), [401, 403, 403, 200])
        .await;
    expect(&app, &callers, post.clone(), &format!("/api/tasks/{task}/cancel"), json!({}), [401, 200, 403, 403]).await;
    expect(&app, &callers, post.clone(), &format!("/api/tasks/{task}/cancel"), json!({}), [401, 409, 403, 403]).await;
    app
}
