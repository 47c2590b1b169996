//! Verification texts through Twilio's Messages API when `TWILIO_*` are set, against a fake held
//! to Twilio's published OpenAPI description: the code goes out in one well-formed request and
//! verifies the number; a number Twilio refuses is 422 and a Twilio outage 503, neither leaving a
//! code behind (nor counting against the send limits).

use domain::config::{Config, Secret};

use crate::common::{self, twilio_fake};

use common::{market::tasker, rows::snapshot_table};
use reqwest::StatusCode;
use serde_json::json;
use twilio_fake::{ACCOUNT_SID, AUTH_TOKEN, FROM, FakeTwilio, error, message};

fn configure(config: &mut Config, fake: &FakeTwilio) {
    config.twilio_account_sid = Some(ACCOUNT_SID.into());
    config.twilio_auth_token = Some(Secret::new(AUTH_TOKEN));
    config.twilio_from = Some(FROM.into());
    config.twilio_api_base = fake.uri();
}

async fn the_code_goes_out_through_twilio_and_verifies_the_number(backend: common::Backend) {
    let fake = FakeTwilio::start().await;
    fake.answer(201, message("+61412345678", "123456 is your Taskhub verification code.")).await;
    common::run(
        backend,
        |config| configure(config, &fake),
        |app| async {
            let token = tasker(&app, "tasker@example.com").await;
            let sent = app.post("/api/me/phone/start", Some(&token), json!({ "phone": "0412 345 678" })).await;
            assert_eq!(sent.status, StatusCode::ACCEPTED, "{:?}", sent.body);
            let [text] = fake.messages().await.try_into().expect("one message asked of Twilio");
            assert_eq!((text["To"].as_str(), text["From"].as_str()), (Some("+61412345678"), Some(FROM)));
            let body = text["Body"].as_str().unwrap();
            let code = body.split_whitespace().next().unwrap();
            assert_eq!(code.len(), 6, "{body}");
            assert!(app.get("/dev/sms.json", None).await.body.as_array().unwrap().is_empty(), "not the outbox");
            let verified = app.post("/api/me/phone/verify", Some(&token), json!({ "code": code })).await;
            assert_eq!(verified.status, StatusCode::OK, "{:?}", verified.body);
            assert_eq!(verified.body["phone_verified"], true);
            app
        },
    )
    .await;
}

async fn a_refused_or_failed_text_leaves_no_code(backend: common::Backend) {
    let refusing = FakeTwilio::start().await;
    refusing.answer(400, error(400, 21211, "The 'To' number +61412345678 is not a valid phone number.")).await;
    common::run(
        backend,
        |config| configure(config, &refusing),
        |app| async {
            let token = tasker(&app, "tasker@example.com").await;
            let refused = app.post("/api/me/phone/start", Some(&token), json!({ "phone": "0412 345 678" })).await;
            assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY, "{:?}", refused.body);
            assert_eq!(refused.field_error("phone"), "We could not send a text to this number");
            assert!(snapshot_table(&app, "phone_codes").await.is_empty());
            let again = app.post("/api/me/phone/start", Some(&token), json!({ "phone": "0412 345 678" })).await;
            assert_eq!(again.status, StatusCode::UNPROCESSABLE_ENTITY, "a refused text is not a send: no wait");
            app
        },
    )
    .await;
    let failing = FakeTwilio::start().await;
    failing.answer(500, error(500, 20500, "Internal Server Error")).await;
    common::run(
        backend,
        |config| configure(config, &failing),
        |app| async {
            let token = tasker(&app, "tasker@example.com").await;
            let down = app.post("/api/me/phone/start", Some(&token), json!({ "phone": "0412 345 678" })).await;
            assert_eq!(down.status, StatusCode::SERVICE_UNAVAILABLE, "{:?}", down.body);
            assert!(snapshot_table(&app, "phone_codes").await.is_empty());
            app
        },
    )
    .await;
}

on_both_backends!(given_backend;
    the_code_goes_out_through_twilio_and_verifies_the_number,
    a_refused_or_failed_text_leaves_no_code,
);
