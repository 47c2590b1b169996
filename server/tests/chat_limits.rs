//! Questions and messages are paced (issue 46): each one notifies someone (and may push to their
//! phone), so a burst from one account, or at one task, is refused with 429 and `Retry-After`
//! and stores nothing; people asking a few questions or chatting normally never meet the limits.

use domain::config::Config;
use reqwest::{StatusCode, header};
use serde_json::json;

use crate::common;

use common::{
    Response, TestApp,
    escrow::assign,
    market::{id, post_task, poster, tasker},
};

on_both_backends!(
    a_burst_of_questions_waits: small_limits,
    a_burst_of_messages_waits: small_limits,
    asking_and_chatting_normally_meets_no_limit,
);

fn small_limits(config: &mut Config) {
    config.questions_per_account_per_hour = 3;
    config.questions_per_task_per_hour = 5;
    config.messages_per_account_per_minute = 4;
    config.messages_per_task_per_minute = 6;
}

fn assert_paced(answer: &Response, what: &str) {
    assert_eq!(answer.status, StatusCode::TOO_MANY_REQUESTS, "{what}: {:?}", answer.body);
    assert_eq!(answer.error_code(), "rate_limited", "{what}");
    let retry_after: u64 = answer.headers[header::RETRY_AFTER].to_str().unwrap().parse().unwrap();
    assert!(retry_after >= 1, "{what}: told when to try again");
}

async fn ask(app: &TestApp, token: &str, task: &str, n: usize) -> Response {
    app.post(
        &format!("/api/tasks/{task}/questions"),
        Some(token),
        json!({ "body": format!("Question {n}: what size?") }),
    )
    .await
}

async fn a_burst_of_questions_waits(app: TestApp) -> TestApp {
    let owner = poster(&app, "poster@example.com").await;
    let task = id(&post_task(&app, &owner, json!({})).await);
    let eager = tasker(&app, "eager@example.com").await;
    for n in 0..3 {
        assert_eq!(ask(&app, &eager, &task, n).await.status, StatusCode::CREATED, "question {n}");
    }
    assert_paced(&ask(&app, &eager, &task, 3).await, "a fourth question within the hour");

    // The task's own limit holds whoever asks: five in all.
    let other = tasker(&app, "other@example.com").await;
    for n in 0..2 {
        assert_eq!(ask(&app, &other, &task, n).await.status, StatusCode::CREATED, "another asker's {n}");
    }
    assert_paced(&ask(&app, &other, &task, 2).await, "a sixth question on the task");
    let listed = app.get(&format!("/api/tasks/{task}/questions"), None).await;
    assert_eq!(listed.body["items"].as_array().map(Vec::len), Some(5), "the refused ones are not stored");
    let notified = app.get("/api/notifications", Some(&owner)).await;
    assert_eq!(notified.body["items"].as_array().map(Vec::len), Some(5), "nor notified");
    app
}

async fn say(app: &TestApp, token: &str, task: &str, n: usize) -> Response {
    app.post(&format!("/api/tasks/{task}/messages"), Some(token), json!({ "body": format!("Message {n}") })).await
}

async fn a_burst_of_messages_waits(app: TestApp) -> TestApp {
    let owner = poster(&app, "poster@example.com").await;
    let helper = tasker(&app, "helper@example.com").await;
    let job = assign(&app, &owner, &helper, 5_000).await;
    for n in 0..4 {
        assert_eq!(say(&app, &owner, &job.task, n).await.status, StatusCode::CREATED, "message {n}");
    }
    assert_paced(&say(&app, &owner, &job.task, 4).await, "a fifth message within the minute");
    for n in 0..2 {
        assert_eq!(say(&app, &helper, &job.task, n).await.status, StatusCode::CREATED, "the reply {n}");
    }
    assert_paced(&say(&app, &helper, &job.task, 2).await, "a seventh message in the conversation");
    let conversation = app.get(&format!("/api/tasks/{}/messages", job.task), Some(&owner)).await;
    assert_eq!(conversation.body["items"].as_array().map(Vec::len), Some(6), "the refused ones are not stored");
    app
}

async fn asking_and_chatting_normally_meets_no_limit(app: TestApp) -> TestApp {
    let owner = poster(&app, "poster@example.com").await;
    let curious = tasker(&app, "curious@example.com").await;
    let task = id(&post_task(&app, &owner, json!({})).await);
    for n in 0..5 {
        assert_eq!(ask(&app, &curious, &task, n).await.status, StatusCode::CREATED, "question {n}");
    }
    let job = assign(&app, &owner, &curious, 5_000).await;
    for n in 0..10 {
        let (from, to) = if n % 2 == 0 { (&owner, "poster") } else { (&curious, "tasker") };
        assert_eq!(say(&app, from, &job.task, n).await.status, StatusCode::CREATED, "{to}'s message {n}");
    }
    app
}
