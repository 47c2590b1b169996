//! Phone verification (issue 24, API.md "Verification, portfolio and photos"): a 6-digit code
//! by SMS (here the dev outbox at `/dev/sms.json`), hashed, 10 minutes, 5 tries; Australian
//! numbers only by default; at most 1 code a minute, 5 an hour, 10 a day per account and per
//! number, and a daily ceiling per country. Refusals leave the profile and the codes as they were.

use store::{db::Db, on_pool};

use crate::common;

use common::{
    TestApp,
    market::{id, make_offer, post_task, poster, tasker},
    rows::snapshot_table,
};
use reqwest::StatusCode;
use serde_json::{Value, json};

on_both_backends!(
    a_number_is_verified_with_the_code_texted_to_it,
    a_wrong_code_is_refused_and_the_sixth_try_is_too_many,
    an_expired_code_is_refused,
    numbers_outside_the_allowed_countries_are_refused,
    one_code_a_minute_per_account_and_per_number,
    five_codes_an_hour_and_ten_a_day,
    a_changed_number_is_unverified_again,
    offers_and_task_cards_carry_the_badges,
);

mod ceiling {
    use super::*;
    on_both_backends!(config = |config| config.sms_daily_limit_per_country = 2; each_country_has_a_daily_ceiling);
}

const NUMBER: &str = "0412 345 678";
const E164: &str = "+61412345678";

/// The texts in the dev outbox to `to`, newest first.
async fn texts_to(app: &TestApp, to: &str) -> Vec<String> {
    let outbox = app.get("/dev/sms.json", None).await;
    assert_eq!(outbox.status, StatusCode::OK);
    outbox
        .body
        .as_array()
        .unwrap()
        .iter()
        .filter(|text| text["to"] == to)
        .map(|text| text["body"].as_str().unwrap().to_owned())
        .collect()
}

async fn code_texted_to(app: &TestApp, to: &str) -> String {
    let texts = texts_to(app, to).await;
    let newest = texts.first().expect("a text with a code");
    newest.split_whitespace().next().unwrap().to_owned()
}

async fn start(app: &TestApp, token: &str, phone: &str) -> common::Response {
    app.post("/api/me/phone/start", Some(token), json!({ "phone": phone })).await
}

async fn verify(app: &TestApp, token: &str, code: &str) -> common::Response {
    app.post("/api/me/phone/verify", Some(token), json!({ "code": code })).await
}

/// Moves every code's sending time `secs` into the past (as if sent that long ago).
async fn age_codes(app: &TestApp, secs: i64) {
    let db: &Db = &app.server.state.db;
    on_pool!(db, |pool| {
        sqlx::query("update phone_codes set created_at = created_at - $1, expires_at = expires_at - $1")
            .bind(secs * 1000)
            .execute(pool)
            .await
            .map(|_| ())
    })
    .unwrap();
}

async fn profile(app: &TestApp, token: &str) -> Value {
    app.get("/api/me", Some(token)).await.body["profile"].clone()
}

async fn a_number_is_verified_with_the_code_texted_to_it(app: TestApp) -> TestApp {
    let token = tasker(&app, "tasker@example.com").await;
    let sent = start(&app, &token, NUMBER).await;
    assert_eq!(sent.status, StatusCode::ACCEPTED, "{:?}", sent.body);
    assert_eq!(sent.body["phone"], E164);
    assert!(sent.body["expires_at"].is_string() && sent.body["resend_at"].is_string());
    let code = code_texted_to(&app, E164).await;
    assert_eq!(code.len(), 6);
    let stored = snapshot_table(&app, "phone_codes").await.join("\n");
    assert!(!stored.contains(&code), "the code is stored hashed: {stored}");

    let verified = verify(&app, &token, &code).await;
    assert_eq!(verified.status, StatusCode::OK, "{:?}", verified.body);
    assert_eq!(verified.body["phone"], E164);
    assert_eq!(verified.body["phone_verified"], true);
    let mine = app.get("/api/me/verification", Some(&token)).await;
    assert_eq!(mine.status, StatusCode::OK);
    assert_eq!(mine.body["phone"], true);
    assert_eq!(mine.body["phone_number"], E164);
    assert_eq!(mine.body["identity"], false);
    assert_eq!(mine.body["email"], true);
    let me = app.get("/api/me", Some(&token)).await.body["user"]["id"].as_str().unwrap().to_owned();
    let public = app.get(&format!("/api/profiles/{me}"), None).await;
    assert_eq!(public.body["verified"], json!({ "email": true, "phone": true, "identity": false, "payment": false }));

    let again = verify(&app, &token, &code).await;
    assert_eq!(again.status, StatusCode::UNPROCESSABLE_ENTITY, "a used code is spent: {:?}", again.body);
    app
}

async fn a_wrong_code_is_refused_and_the_sixth_try_is_too_many(app: TestApp) -> TestApp {
    let token = tasker(&app, "tasker@example.com").await;
    assert_eq!(start(&app, &token, NUMBER).await.status, StatusCode::ACCEPTED);
    let code = code_texted_to(&app, E164).await;
    let wrong = if code == "000000" { "111111" } else { "000000" };
    let before = profile(&app, &token).await;
    for attempt in 1..=5 {
        let refused = verify(&app, &token, wrong).await;
        assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY, "attempt {attempt}: {:?}", refused.body);
        assert_eq!(refused.field_error("code"), "That code is not right. Check the text and try again.");
    }
    let too_many = verify(&app, &token, &code).await;
    assert_eq!(
        too_many.status,
        StatusCode::TOO_MANY_REQUESTS,
        "even the right code after 5 tries: {:?}",
        too_many.body
    );
    assert!(too_many.headers.contains_key("retry-after"));
    assert_eq!(profile(&app, &token).await, before, "refusals leave the profile as it was");
    assert_eq!(profile(&app, &token).await["phone_verified"], false);
    app
}

async fn an_expired_code_is_refused(app: TestApp) -> TestApp {
    let token = tasker(&app, "tasker@example.com").await;
    assert_eq!(start(&app, &token, NUMBER).await.status, StatusCode::ACCEPTED);
    let code = code_texted_to(&app, E164).await;
    age_codes(&app, 10 * 60 + 1).await;
    let before = (profile(&app, &token).await, snapshot_table(&app, "phone_codes").await);
    let expired = verify(&app, &token, &code).await;
    assert_eq!(expired.status, StatusCode::UNPROCESSABLE_ENTITY, "{:?}", expired.body);
    assert_eq!(expired.field_error("code"), "That code has expired. Ask for a new one.");
    assert_eq!((profile(&app, &token).await, snapshot_table(&app, "phone_codes").await), before);

    let none = verify(&app, &tasker(&app, "other@example.com").await, "123456").await;
    assert_eq!(none.status, StatusCode::UNPROCESSABLE_ENTITY, "no code asked for: {:?}", none.body);
    app
}

async fn numbers_outside_the_allowed_countries_are_refused(app: TestApp) -> TestApp {
    let token = tasker(&app, "tasker@example.com").await;
    for (phone, message) in [
        ("+1 415 555 2671", "We can only send codes to numbers in AU"),
        ("+64 21 123 4567", "We can only send codes to numbers in AU"),
        ("12345", "Please enter a valid mobile number"),
        ("not a number", "Please enter a valid mobile number"),
        // Not a mobile (security review 3): a landline, 13 and 1300 lines, a freephone and a premium number.
        ("02 9374 4000", "Please enter a valid mobile number"),
        ("13 22 21", "Please enter a valid mobile number"),
        ("1300 123 456", "Please enter a valid mobile number"),
        ("1800 123 456", "Please enter a valid mobile number"),
        ("1900 123 456", "Please enter a valid mobile number"),
    ] {
        let refused = start(&app, &token, phone).await;
        assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY, "{phone}: {:?}", refused.body);
        assert_eq!(refused.field_error("phone"), message, "{phone}");
    }
    assert!(snapshot_table(&app, "phone_codes").await.is_empty(), "no code was made");
    assert!(app.get("/dev/sms.json", None).await.body.as_array().unwrap().is_empty(), "no text was sent");
    assert_eq!(start(&app, &token, "+61 412 345 678").await.status, StatusCode::ACCEPTED);
    app
}

async fn one_code_a_minute_per_account_and_per_number(app: TestApp) -> TestApp {
    let first = tasker(&app, "first@example.com").await;
    let second = tasker(&app, "second@example.com").await;
    assert_eq!(start(&app, &first, NUMBER).await.status, StatusCode::ACCEPTED);
    let before = snapshot_table(&app, "phone_codes").await;
    let again = start(&app, &first, "0498 765 432").await;
    assert_eq!(again.status, StatusCode::TOO_MANY_REQUESTS, "the account waits a minute: {:?}", again.body);
    assert_eq!(again.headers["retry-after"], "60");
    let same_number = start(&app, &second, NUMBER).await;
    assert_eq!(same_number.status, StatusCode::TOO_MANY_REQUESTS, "the number waits a minute: {:?}", same_number.body);
    assert_eq!(snapshot_table(&app, "phone_codes").await, before, "refused sends make no code");
    assert_eq!(texts_to(&app, E164).await.len(), 1);
    assert_eq!(start(&app, &second, "0498 765 432").await.status, StatusCode::ACCEPTED);
    age_codes(&app, 61).await;
    assert_eq!(start(&app, &first, NUMBER).await.status, StatusCode::ACCEPTED, "a minute later it may resend");
    app
}

async fn five_codes_an_hour_and_ten_a_day(app: TestApp) -> TestApp {
    let token = tasker(&app, "tasker@example.com").await;
    for _ in 0..5 {
        assert_eq!(start(&app, &token, NUMBER).await.status, StatusCode::ACCEPTED);
        age_codes(&app, 61).await;
    }
    let hourly = start(&app, &token, NUMBER).await;
    assert_eq!(hourly.status, StatusCode::TOO_MANY_REQUESTS, "{:?}", hourly.body);
    assert_eq!(hourly.headers["retry-after"], "3600");
    let other_account = tasker(&app, "other@example.com").await;
    assert_eq!(start(&app, &other_account, NUMBER).await.status, StatusCode::TOO_MANY_REQUESTS, "the number's hour");
    age_codes(&app, 3600).await;
    for _ in 0..5 {
        assert_eq!(start(&app, &token, NUMBER).await.status, StatusCode::ACCEPTED);
        age_codes(&app, 61).await;
    }
    age_codes(&app, 3600).await;
    let before = snapshot_table(&app, "phone_codes").await;
    let daily = start(&app, &token, "0498 765 432").await;
    assert_eq!(daily.status, StatusCode::TOO_MANY_REQUESTS, "ten a day per account: {:?}", daily.body);
    assert_eq!(daily.headers["retry-after"], "86400");
    assert_eq!(start(&app, &other_account, NUMBER).await.status, StatusCode::TOO_MANY_REQUESTS, "ten a day per number");
    assert_eq!(snapshot_table(&app, "phone_codes").await, before);
    assert_eq!(texts_to(&app, E164).await.len(), 10);
    app
}

async fn each_country_has_a_daily_ceiling(app: TestApp) -> TestApp {
    for (n, number) in ["0412 345 678", "0412 345 679"].into_iter().enumerate() {
        let token = tasker(&app, &format!("tasker{n}@example.com")).await;
        assert_eq!(start(&app, &token, number).await.status, StatusCode::ACCEPTED);
    }
    let third = tasker(&app, "third@example.com").await;
    let before = snapshot_table(&app, "phone_codes").await;
    let refused = start(&app, &third, "0412 345 670").await;
    assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS, "{:?}", refused.body);
    assert_eq!(refused.headers["retry-after"], "86400");
    assert_eq!(snapshot_table(&app, "phone_codes").await, before);
    app
}

async fn a_changed_number_is_unverified_again(app: TestApp) -> TestApp {
    let token = tasker(&app, "tasker@example.com").await;
    assert_eq!(start(&app, &token, NUMBER).await.status, StatusCode::ACCEPTED);
    let code = code_texted_to(&app, E164).await;
    assert_eq!(verify(&app, &token, &code).await.status, StatusCode::OK);

    let same = app.patch("/api/me/profile", Some(&token), json!({ "phone": "+61 412 345 678", "bio": "Handy" })).await;
    assert_eq!(same.status, StatusCode::OK, "{:?}", same.body);
    assert_eq!(same.body["phone"], E164);
    assert_eq!(same.body["phone_verified"], true, "the same number written another way stays verified");
    let other = app.patch("/api/me/profile", Some(&token), json!({ "phone": "0498 765 432" })).await;
    assert_eq!(other.status, StatusCode::OK, "{:?}", other.body);
    assert_eq!(other.body["phone_verified"], false);
    assert_eq!(app.get("/api/me/verification", Some(&token)).await.body["phone"], false);
    app
}

async fn offers_and_task_cards_carry_the_badges(app: TestApp) -> TestApp {
    let owner = poster(&app, "poster@example.com").await;
    let worker = tasker(&app, "tasker@example.com").await;
    assert_eq!(start(&app, &owner, "0498 765 432").await.status, StatusCode::ACCEPTED);
    let code = code_texted_to(&app, "+61498765432").await;
    assert_eq!(verify(&app, &owner, &code).await.status, StatusCode::OK);
    let task = id(&post_task(&app, &owner, json!({})).await);
    make_offer(&app, &worker, &task, 9000).await;

    let offers = app.get(&format!("/api/tasks/{task}/offers"), Some(&owner)).await;
    assert_eq!(offers.body["items"][0]["tasker"]["verified"], json!({ "identity": false, "phone": false }));
    assert_eq!(start(&app, &worker, NUMBER).await.status, StatusCode::ACCEPTED);
    let code = code_texted_to(&app, E164).await;
    assert_eq!(verify(&app, &worker, &code).await.status, StatusCode::OK);
    let offers = app.get(&format!("/api/tasks/{task}/offers"), Some(&owner)).await;
    assert_eq!(offers.body["items"][0]["tasker"]["verified"], json!({ "identity": false, "phone": true }));

    let detail = app.get(&format!("/api/tasks/{task}"), None).await;
    assert_eq!(detail.body["poster"]["verified"], json!({ "identity": false, "phone": true }));
    let browse = app.get("/api/tasks", None).await;
    let card =
        browse.body["items"].as_array().unwrap().iter().find(|card| card["id"] == task.as_str()).unwrap().clone();
    assert_eq!(card["poster"]["verified"], json!({ "identity": false, "phone": true }));
    app
}
