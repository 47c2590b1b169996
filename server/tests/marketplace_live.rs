//! Marketplace changes reach open browsers: public facts on `task:{id}` and
//! `tasks`, private ones (amounts, notifications) only on the poster's `user:{id}`.
//! On both databases, with the in-process bus and through Redis (which other
//! tests share, so events on the public `tasks` feed are told apart by task id).

use crate::common;

use common::{
    TestApp, access_token,
    live::{connect, next_event, next_event_where, subscribe},
    market::{date_in, id, make_offer, post_task},
};
use reqwest::StatusCode;
use serde_json::{Value, json};

on_both_backends_and_buses!(
    an_offer_reaches_the_poster_in_full_and_visitors_without_the_amount,
    an_edit_reaches_watchers_of_the_task_and_the_feed,
);

async fn an_offer_reaches_the_poster_in_full_and_visitors_without_the_amount(app: TestApp) -> TestApp {
    let poster_session = app.signed_in_user("poster@example.com").await;
    let poster_token = access_token(&poster_session);
    let poster_id = poster_session["user"]["id"].as_str().unwrap().to_owned();
    let tasker = access_token(&app.signed_in_tasker("tasker@example.com").await);

    let mut visitor = connect(&app, None).await;
    subscribe(&mut visitor, "tasks").await;
    let task = post_task(&app, &poster_token, json!({ "title": "Live task" })).await;
    let task_id = id(&task);
    let created = next_event_where(&mut visitor, "tasks", "task.created", |d| d["id"] == task_id.as_str()).await;
    assert_eq!(created["title"], "Live task");
    subscribe(&mut visitor, &format!("task:{task_id}")).await;

    let mut poster_socket = connect(&app, Some(&poster_token)).await;
    let user_topic = format!("user:{poster_id}");
    subscribe(&mut poster_socket, &user_topic).await;

    make_offer(&app, &tasker, &task_id, 9100).await;
    let public = next_event(&mut visitor, &format!("task:{task_id}"), "offer.created").await;
    assert_eq!(public["amount_cents"], Value::Null);
    assert_eq!(public["message"], Value::Null);
    assert_eq!(public["offer_count"], 1);
    let updated = next_event(&mut visitor, &format!("task:{task_id}"), "task.updated").await;
    assert_eq!(updated["offer_count"], 1);

    let full = next_event(&mut poster_socket, &user_topic, "offer.created").await;
    assert_eq!(full["amount_cents"], 9100);
    assert_eq!(full["message"], "I can do it tomorrow");
    let notification = next_event(&mut poster_socket, &user_topic, "notification.created").await;
    assert_eq!(notification["type"], "offer");
    assert_eq!(notification["is_read"], false);

    // Questions and their answers are public: visitors watching the task see both live.
    let asked = app
        .post(&format!("/api/tasks/{task_id}/questions"), Some(&tasker), json!({ "body": "Is parking available?" }))
        .await;
    assert_eq!(asked.status, StatusCode::CREATED, "{:?}", asked.body);
    let question = next_event(&mut visitor, &format!("task:{task_id}"), "question.created").await;
    assert_eq!(question["body"], "Is parking available?");
    let question_id = asked.body["id"].as_str().unwrap();
    let answered = app
        .post(
            &format!("/api/questions/{question_id}/answer"),
            Some(&poster_token),
            json!({ "body": "Yes, in the driveway" }),
        )
        .await;
    assert_eq!(answered.status, StatusCode::OK, "{:?}", answered.body);
    let answer = next_event(&mut visitor, &format!("task:{task_id}"), "question.answered").await;
    assert_eq!(answer["id"], question_id);
    assert_eq!(answer["answer"], "Yes, in the driveway");
    app
}

async fn an_edit_reaches_watchers_of_the_task_and_the_feed(app: TestApp) -> TestApp {
    let poster = access_token(&app.signed_in_user("poster@example.com").await);
    let task = post_task(&app, &poster, json!({ "title": "Paint the fence" })).await;
    let task_id = id(&task);
    let task_topic = format!("task:{task_id}");
    let mut visitor = connect(&app, None).await;
    subscribe(&mut visitor, &task_topic).await;
    subscribe(&mut visitor, "tasks").await;

    let due_date = date_in(5);
    let edit = json!({
        "title": "Paint the back fence",
        "description": "Two coats, paint supplied",
        "budget_cents": 25000,
        "location": "Marrickville NSW",
        "category_id": 7,
        "due_date": due_date,
    });
    let edited = app.patch(&format!("/api/tasks/{task_id}"), Some(&poster), edit).await;
    assert_eq!(edited.status, StatusCode::OK, "{:?}", edited.body);

    // Watchers see the new facts, not only the status, so an open task page can show them at once.
    for topic in [task_topic.as_str(), "tasks"] {
        let update = next_event_where(&mut visitor, topic, "task.updated", |d| d["id"] == task_id.as_str()).await;
        assert_eq!(update["title"], "Paint the back fence", "{topic}");
        assert_eq!(update["description"], "Two coats, paint supplied");
        assert_eq!(update["budget_cents"], 25000);
        assert_eq!(update["location"], "Marrickville NSW");
        assert_eq!(update["category_id"], 7);
        assert_eq!(update["category"], edited.body["category"]);
        assert_eq!(update["due_date"], due_date.as_str());
        assert_eq!(update["status"], "open");
        assert_eq!(update["offer_count"], 0);
    }
    app
}
