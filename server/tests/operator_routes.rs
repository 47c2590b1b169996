//! Every operator route (each `/api/admin` operation of the OpenAPI document, so a
//! new one is covered the day it is added) answers 401 signed out and 403 to a
//! signed-in user who is not an operator, before it looks at the path or the
//! body, and changes nothing; an operator gets past the check.

use domain::{
    config::Config,
    payments::{
        calls,
        sandbox::{Call, Fault},
        sweep,
    },
};
use model::states::ProviderCallStatus;
use store::db::Timestamp;

use crate::common;

use std::time::Duration;

use common::{TestApp, escrow::calls_of, market::poster};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use server::http::openapi::ApiDoc;

const OPERATOR: &str = "operator@example.com";

fn with_operator(config: &mut Config) {
    config.payments_sweep_secs = 0;
    config.admin_emails = vec![OPERATOR.into()];
}

/// (method, path with every `{param}` filled by `id`) of every `/api/admin` operation.
fn operator_routes(id: &str) -> Vec<(Method, String)> {
    let document: Value = serde_json::from_str(&ApiDoc::json()).unwrap();
    let mut routes = Vec::new();
    for (path, item) in document["paths"].as_object().unwrap() {
        if !path.starts_with("/api/admin") {
            continue;
        }
        let filled: Vec<String> = path
            .split('/')
            .map(|segment| if segment.starts_with('{') { id.to_owned() } else { segment.to_owned() })
            .collect();
        for method in item.as_object().unwrap().keys() {
            routes.push((method.to_uppercase().parse().unwrap(), filled.join("/")));
        }
    }
    routes
}

async fn call(app: &TestApp, method: &Method, path: &str, token: Option<&str>) -> common::Response {
    let body = (method != Method::GET).then(|| json!({ "outcome": "refund", "note": "Mine now" }));
    app.request(method.clone(), path, token, body).await
}

async fn operator_routes_refuse_everyone_but_operators(app: TestApp) -> TestApp {
    // A parked transfer: what the retry route would put back in the queue.
    let assigned = common::escrow::assigned_task(&app, 5_000).await;
    app.server.state.payments.sandbox().faults().inject(Call::Transfer, Fault::Down);
    let released = app.post(&format!("/api/tasks/{}/release", assigned.task), Some(&assigned.poster), json!({})).await;
    assert_eq!(released.status, StatusCode::OK, "{:?}", released.body);
    let payment = common::escrow::kept_payment(&app, &assigned.task).await;
    let [transfer] = calls_of(&app, payment.id).await.try_into().unwrap();
    let mut at = Timestamp::now();
    for _ in 1..calls::MAX_ATTEMPTS {
        at = at.plus(Duration::from_secs(6 * 3600 + 1));
        sweep::sweep(&app.server.state, at).await.unwrap();
    }
    assert_eq!(calls_of(&app, payment.id).await[0].status, ProviderCallStatus::Parked);

    let routes = operator_routes(&transfer.id.to_string());
    let listed: Vec<String> = routes.iter().map(|(method, path)| format!("{method} {path}")).collect();
    for expected in [
        "GET /api/admin/disputes".to_owned(),
        "GET /api/admin/provider-calls".to_owned(),
        format!("POST /api/admin/provider-calls/{}/retry", transfer.id),
    ] {
        assert!(listed.contains(&expected), "{expected} is an operator route: {listed:?}");
    }
    let someone = poster(&app, "someone@example.com").await;
    let before = common::rows::task_snapshot(&app, &assigned.task).await;
    for (method, path) in &routes {
        let signed_out = call(&app, method, path, None).await;
        assert_eq!(signed_out.status, StatusCode::UNAUTHORIZED, "{method} {path} signed out: {:?}", signed_out.body);
        let as_user = call(&app, method, path, Some(&someone)).await;
        assert_eq!(as_user.status, StatusCode::FORBIDDEN, "{method} {path} as a non-operator: {:?}", as_user.body);
        assert_eq!(as_user.error_code(), "forbidden");
        let as_the_poster = call(&app, method, path, Some(&assigned.poster)).await;
        assert_eq!(as_the_poster.status, StatusCode::FORBIDDEN, "{method} {path} as a party");
    }
    common::rows::assert_task_unchanged(&app, &assigned.task, &before, "a refused operator call").await;
    assert_eq!(
        calls_of(&app, payment.id).await[0].status,
        ProviderCallStatus::Parked,
        "a refused retry leaves the call parked"
    );

    let operator = poster(&app, OPERATOR).await;
    let parked = app.get("/api/admin/provider-calls", Some(&operator)).await;
    assert_eq!(parked.status, StatusCode::OK);
    assert_eq!(parked.body["items"][0]["id"], transfer.id.to_string());
    let retried =
        app.post(&format!("/api/admin/provider-calls/{}/retry", transfer.id), Some(&operator), json!({})).await;
    assert_eq!(retried.status, StatusCode::NO_CONTENT, "{:?}", retried.body);
    assert_eq!(calls_of(&app, payment.id).await[0].status, ProviderCallStatus::Pending);
    app
}

on_both_backends!(config = with_operator; operator_routes_refuse_everyone_but_operators);
