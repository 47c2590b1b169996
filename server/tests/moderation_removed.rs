//! What removed content looks like to each reader (issue 23, API.md "Trust and safety"): a
//! removed task is "This task was removed" to everyone but operators, on its API and on its web
//! page; a removed question, answer, offer message, message or review answers
//! `{removed: true, body: null}` to all but operators, who read the text marked removed.

use domain::config::Config;

use crate::common;

use common::{
    TestApp,
    escrow::assign,
    market::{id, make_offer, post_task, poster, tasker},
};
use reqwest::StatusCode;
use serde_json::{Value, json};

const OPERATOR: &str = "operator@example.com";
/// Decides what the first operator may not: a case they are part of.
const SECOND_OPERATOR: &str = "second-operator@example.com";
const TITLE: &str = "Send a deposit to my bank first";
const DESCRIPTION: &str = "Wire the deposit before the wardrobe job starts";

/// An operator, and a stand-in for the built web app so `/task/{id}` is the task's page.
fn with_operator(config: &mut Config) {
    config.payments_sweep_secs = 0;
    config.admin_emails = vec![OPERATOR.into(), SECOND_OPERATOR.into()];
    let dist = config.data_dir.join("web-dist");
    std::fs::create_dir_all(&dist).unwrap();
    let index = "<!doctype html><html><head><title>Taskhub</title><meta name=\"description\" content=\"Local help\" /></head><body><div id=\"root\"></div></body></html>";
    std::fs::write(dist.join("index.html"), index).unwrap();
    config.web_dist = dist;
}

on_both_backends!(config = with_operator;
    a_removed_task_is_gone_for_everyone_but_operators,
    removed_texts_are_read_only_by_operators,
);

async fn remove(app: &TestApp, operator: &str, reporter: &str, target_type: &str, target_id: &str) {
    let report = json!({ "target": { "type": target_type, "id": target_id }, "reason": "offensive" });
    let filed = app.post("/api/reports", Some(reporter), report).await;
    assert_eq!(filed.status, StatusCode::CREATED, "{:?}", filed.body);
    let resolved = app
        .post(
            &format!("/api/admin/reports/{}/resolve", id(&filed.body)),
            Some(operator),
            json!({ "action": "remove", "note": "Against the rules" }),
        )
        .await;
    assert_eq!(resolved.status, StatusCode::OK, "{:?}", resolved.body);
}

async fn a_removed_task_is_gone_for_everyone_but_operators(app: TestApp) -> TestApp {
    let operator = poster(&app, OPERATOR).await;
    let owner = poster(&app, "poster@example.com").await;
    let helper = tasker(&app, "tasker@example.com").await;
    let task = id(&post_task(&app, &owner, json!({ "title": TITLE, "description": DESCRIPTION })).await);
    let page_before = app.client.get(app.url(&format!("/task/{task}"))).send().await.unwrap().text().await.unwrap();
    assert!(page_before.contains(TITLE), "the open task's page previews it");
    remove(&app, &operator, &helper, "task", &task).await;

    for (who, token) in [("a visitor", None), ("its poster", Some(owner.as_str())), ("a tasker", Some(helper.as_str()))]
    {
        let answer = app.get(&format!("/api/tasks/{task}"), token).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{who}: {:?}", answer.body);
        assert_eq!(answer.body["error"]["message"], "This task was removed", "{who}");
        let text = answer.body.to_string();
        assert!(!text.contains("deposit") && !text.contains("wardrobe"), "{who} reads nothing of it: {text}");
    }
    let page = app.client.get(app.url(&format!("/task/{task}"))).send().await.unwrap();
    assert_eq!(page.status(), StatusCode::OK, "the app's page, which shows the removed screen");
    let html = page.text().await.unwrap();
    assert!(!html.contains("deposit") && !html.contains("wardrobe"), "no preview or embedded task: {html}");

    let seen = app.get(&format!("/api/tasks/{task}"), Some(&operator)).await;
    assert_eq!(seen.status, StatusCode::OK, "{:?}", seen.body);
    assert_eq!(seen.body["status"], "removed");
    assert_eq!(seen.body["title"], TITLE);
    assert_eq!(seen.body["description"], DESCRIPTION);
    app
}

/// `(removed, text)` of the first item of a list.
fn first(list: &Value, field: &str) -> (Value, Value) {
    let item = if list["items"].is_array() { &list["items"][0] } else { &list[0] };
    (item["removed"].clone(), item[field].clone())
}

async fn removed_texts_are_read_only_by_operators(app: TestApp) -> TestApp {
    let operator = poster(&app, OPERATOR).await;
    let owner = poster(&app, "poster@example.com").await;
    let helper = tasker(&app, "tasker@example.com").await;
    let bystander = tasker(&app, "bystander@example.com").await;
    let hidden = (json!(true), Value::Null);

    // A question with its answer, and an offer's message, on an open task.
    let task = id(&post_task(&app, &owner, json!({})).await);
    let asked =
        app.post(&format!("/api/tasks/{task}/questions"), Some(&helper), json!({ "body": "Rude question" })).await;
    assert_eq!(asked.status, StatusCode::CREATED, "{:?}", asked.body);
    let question = id(&asked.body);
    let answered =
        app.post(&format!("/api/questions/{question}/answer"), Some(&owner), json!({ "body": "Polite answer" })).await;
    assert_eq!(answered.status, StatusCode::OK, "{:?}", answered.body);
    let offer = id(&make_offer(&app, &helper, &task, 9_000).await);
    remove(&app, &operator, &owner, "question", &question).await;
    remove(&app, &operator, &owner, "offer", &offer).await;

    let questions = format!("/api/tasks/{task}/questions");
    for token in [None, Some(owner.as_str()), Some(helper.as_str())] {
        let list = app.get(&questions, token).await.body;
        assert_eq!(first(&list, "body"), hidden, "{list}");
        assert_eq!(list["items"][0]["answer"], Value::Null, "{list}");
        let detail = app.get(&format!("/api/tasks/{task}"), token).await.body;
        assert_eq!(detail["questions"][0]["body"], Value::Null, "{detail}");
    }
    let list = app.get(&questions, Some(&operator)).await.body;
    assert_eq!(first(&list, "body"), (json!(true), json!("Rude question")));
    assert_eq!(list["items"][0]["answer"], "Polite answer");
    let detail = app.get(&format!("/api/tasks/{task}"), Some(&operator)).await.body;
    assert_eq!(detail["questions"][0]["body"], "Rude question");

    let offers = format!("/api/tasks/{task}/offers");
    for token in [None, Some(owner.as_str()), Some(helper.as_str()), Some(bystander.as_str())] {
        assert_eq!(first(&app.get(&offers, token).await.body, "message"), hidden);
    }
    assert_eq!(
        first(&app.get(&offers, Some(&operator)).await.body, "message"),
        (json!(true), json!("I can do it tomorrow"))
    );

    // A message and a review on a task the operator posted (messages are only for the two parties).
    let assigned = assign(&app, &operator, &helper, 6_000).await;
    let sent = app
        .post(&format!("/api/tasks/{}/messages", assigned.task), Some(&helper), json!({ "body": "Abusive words" }))
        .await;
    assert_eq!(sent.status, StatusCode::CREATED, "{:?}", sent.body);
    // The operator is a party here (and the reporter), so another operator decides.
    let second = poster(&app, SECOND_OPERATOR).await;
    remove(&app, &second, &operator, "message", &id(&sent.body)).await;
    let messages = format!("/api/tasks/{}/messages", assigned.task);
    assert_eq!(first(&app.get(&messages, Some(&helper)).await.body, "body"), hidden);
    assert_eq!(first(&app.get(&messages, Some(&operator)).await.body, "body"), (json!(true), json!("Abusive words")));

    let released = app.post(&format!("/api/tasks/{}/release", assigned.task), Some(&operator), json!({})).await;
    assert_eq!(released.status, StatusCode::OK, "{:?}", released.body);
    let reviews = format!("/api/tasks/{}/reviews", assigned.task);
    let by_tasker = app.post(&reviews, Some(&helper), json!({ "rating": 1, "body": "Insulting review" })).await;
    assert_eq!(by_tasker.status, StatusCode::CREATED, "{:?}", by_tasker.body);
    let by_poster = app.post(&reviews, Some(&operator), json!({ "rating": 5, "body": "Great work" })).await;
    assert_eq!(by_poster.status, StatusCode::CREATED, "{:?}", by_poster.body);
    remove(&app, &operator, &bystander, "review", &id(&by_tasker.body)).await;

    let operator_id = app.get("/api/me", Some(&operator)).await.body["user"]["id"].as_str().unwrap().to_owned();
    let profile = format!("/api/profiles/{operator_id}");
    let profile_reviews = format!("/api/profiles/{operator_id}/reviews");
    let the_removed = |list: &Value| -> (Value, Value) {
        let item = list.as_array().unwrap().iter().find(|r| r["id"] == by_tasker.body["id"]).expect("listed").clone();
        (item["removed"].clone(), item["body"].clone())
    };
    for token in [None, Some(helper.as_str()), Some(bystander.as_str())] {
        assert_eq!(the_removed(&app.get(&reviews, token).await.body), hidden);
        assert_eq!(the_removed(&app.get(&profile, token).await.body["reviews"]), hidden);
        assert_eq!(the_removed(&app.get(&profile_reviews, token).await.body["items"]), hidden);
    }
    let text = (json!(true), json!("Insulting review"));
    assert_eq!(the_removed(&app.get(&reviews, Some(&operator)).await.body), text);
    assert_eq!(the_removed(&app.get(&profile, Some(&operator)).await.body["reviews"]), text);
    assert_eq!(the_removed(&app.get(&profile_reviews, Some(&operator)).await.body["items"]), text);
    app
}
