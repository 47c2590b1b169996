//! Operator status is decided by a verified address on `ADMIN_EMAILS` (issue 21): with email
//! verification not required at sign-in, whoever signs up first as an operator's address
//! must not decide disputes.

use domain::config::Config;

use crate::common;

use common::{TestApp, access_token, signup_body};
use reqwest::StatusCode;
use serde_json::json;

const OPERATOR: &str = "ops@taskhub.example";

fn operators_without_verified_sign_in(config: &mut Config) {
    config.admin_emails = vec![OPERATOR.into()];
    config.require_email_verification = false;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unverified_operator_address_is_no_operator_sqlite() {
    common::run(
        common::Backend::Sqlite,
        operators_without_verified_sign_in,
        an_unverified_operator_address_is_no_operator,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(taskhub_skip_postgres, ignore = "TASKHUB_SKIP_POSTGRES is set")]
async fn an_unverified_operator_address_is_no_operator_postgres() {
    common::run(
        common::Backend::Postgres,
        operators_without_verified_sign_in,
        an_unverified_operator_address_is_no_operator,
    )
    .await;
}

async fn an_unverified_operator_address_is_no_operator(app: TestApp) -> TestApp {
    let signed_up = app.post("/api/auth/signup", None, signup_body(OPERATOR, "customer")).await;
    assert_eq!(signed_up.status, StatusCode::CREATED);
    assert_eq!(signed_up.body["user"]["is_operator"], false);
    let login = app.post("/api/auth/login", None, json!({ "email": OPERATOR, "password": "correct horse" })).await;
    assert_eq!(login.status, StatusCode::OK, "{:?}", login.body);
    let token = access_token(&login.body);
    assert_eq!(app.get("/api/me", Some(&token)).await.body["user"]["is_operator"], false);
    let queue = app.get("/api/admin/disputes", Some(&token)).await;
    assert_eq!(queue.status, StatusCode::FORBIDDEN, "{:?}", queue.body);

    let link = app.token_mailed_to(OPERATOR, "Confirm").await;
    assert_eq!(app.post("/api/auth/verify", None, json!({ "token": link })).await.status, StatusCode::OK);
    assert_eq!(app.get("/api/me", Some(&token)).await.body["user"]["is_operator"], true);
    assert_eq!(app.get("/api/admin/disputes", Some(&token)).await.status, StatusCode::OK);
    app
}
