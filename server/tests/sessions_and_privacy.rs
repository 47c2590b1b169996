//! Sessions end when they are ended (sign-out, password reset) — access
//! tokens included; a reset voids every other reset link; public profiles
//! keep the surname private; location search ignores case in any script;
//! a weak JWT secret stops the server at start.

use crate::common;

use common::{
    TestApp, access_token,
    market::{id, post_task},
};
use reqwest::StatusCode;
use serde_json::json;

on_both_backends!(
    signing_out_ends_the_access_token_at_once,
    a_password_reset_ends_every_session_and_every_other_reset_link,
    public_profiles_show_first_name_and_surname_initial,
    the_location_filter_ignores_case_beyond_ascii,
    tasks_written_before_the_location_column_are_filled_in_at_start,
);

async fn signing_out_ends_the_access_token_at_once(app: TestApp) -> TestApp {
    let session = app.signed_in_user("sam@example.com").await;
    let token = access_token(&session);
    assert_eq!(app.get("/api/me", Some(&token)).await.status, StatusCode::OK);
    let refresh = session["refresh_token"].as_str().unwrap();
    assert_eq!(
        app.post("/api/auth/logout", None, json!({ "refresh_token": refresh })).await.status,
        StatusCode::NO_CONTENT
    );
    let after = app.get("/api/me", Some(&token)).await;
    assert_eq!(after.status, StatusCode::UNAUTHORIZED, "{:?}", after.body);
    assert_eq!(after.error_code(), "unauthorized");
    // Another session of the same user is unaffected.
    let other =
        app.post("/api/auth/login", None, json!({ "email": "sam@example.com", "password": "correct horse" })).await;
    assert_eq!(app.get("/api/me", Some(&access_token(&other.body))).await.status, StatusCode::OK);
    app
}

/// Every reset link mailed to `to`, newest first.
async fn reset_tokens_mailed_to(app: &TestApp, to: &str, at_least: usize) -> Vec<String> {
    for _ in 0..100 {
        let tokens: Vec<String> = app
            .mailbox()
            .await
            .into_iter()
            .filter(|mail| mail["to"] == to && mail["subject"].as_str().unwrap_or("").contains("Reset"))
            .map(|mail| {
                let text = mail["text"].as_str().unwrap().to_owned();
                let start = text.find("token=").unwrap() + "token=".len();
                text[start..].split_whitespace().next().unwrap().to_owned()
            })
            .collect();
        if tokens.len() >= at_least {
            return tokens;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("fewer than {at_least} reset mails to {to}");
}

async fn a_password_reset_ends_every_session_and_every_other_reset_link(app: TestApp) -> TestApp {
    let session = app.signed_in_user("sam@example.com").await;
    let token = access_token(&session);
    for _ in 0..2 {
        let asked = app.post("/api/auth/recover", None, json!({ "email": "sam@example.com" })).await;
        assert_eq!(asked.status, StatusCode::ACCEPTED);
    }
    let links = reset_tokens_mailed_to(&app, "sam@example.com", 2).await;
    let reset = app.post("/api/auth/reset", None, json!({ "token": links[0], "password": "new password" })).await;
    assert_eq!(reset.status, StatusCode::OK, "{:?}", reset.body);
    let older = app.post("/api/auth/reset", None, json!({ "token": links[1], "password": "attacker's pick" })).await;
    assert_eq!(older.status, StatusCode::BAD_REQUEST, "the other link no longer works: {:?}", older.body);
    assert_eq!(app.get("/api/me", Some(&token)).await.status, StatusCode::UNAUTHORIZED, "the old session has ended");
    let login =
        app.post("/api/auth/login", None, json!({ "email": "sam@example.com", "password": "new password" })).await;
    assert_eq!(login.status, StatusCode::OK);
    app
}

async fn public_profiles_show_first_name_and_surname_initial(app: TestApp) -> TestApp {
    let session = app.signed_in_user("sam@example.com").await;
    let user_id = session["user"]["id"].as_str().unwrap();
    let profile = app.get(&format!("/api/profiles/{user_id}"), None).await;
    assert_eq!(profile.status, StatusCode::OK);
    assert_eq!(profile.body["display_name"], "Sam L.");
    assert_eq!(profile.body["first_name"], "Sam");
    assert_eq!(profile.body["last_name"], "L.");
    assert_eq!(profile.body["initials"], "SL");
    assert!(!profile.body.to_string().contains("Lee"), "no full surname: {}", profile.body);
    // The owner still sees their own full name.
    let me = app.get("/api/me", Some(&access_token(&session))).await;
    assert_eq!(me.body["profile"]["last_name"], "Lee");
    app
}

async fn the_location_filter_ignores_case_beyond_ascii(app: TestApp) -> TestApp {
    let token = common::market::poster(&app, "poster@example.com").await;
    let upper = id(&post_task(&app, &token, json!({ "location": "ÉVORA, Portugal" })).await);
    let lower = id(&post_task(&app, &token, json!({ "title": "Paint a fence", "location": "Århus, Danmark" })).await);
    let found = |query: &'static str| {
        let app = &app;
        async move {
            let page = app.get(&format!("/api/tasks?location={query}"), None).await;
            assert_eq!(page.status, StatusCode::OK);
            page.body["items"].as_array().unwrap().iter().map(id).collect::<Vec<_>>()
        }
    };
    assert_eq!(found("évora").await, vec![upper.clone()]);
    assert_eq!(found("%C3%89VORA").await, vec![upper]);
    assert_eq!(found("ÅRHUS").await, vec![lower.clone()]);
    assert_eq!(found("århus").await, vec![lower]);
    app
}

async fn tasks_written_before_the_location_column_are_filled_in_at_start(app: TestApp) -> TestApp {
    let token = common::market::poster(&app, "old-poster@example.com").await;
    for n in 0..3 {
        post_task(&app, &token, json!({ "title": format!("Old task {n}"), "location": "ÉVORA" })).await;
    }
    let db = &app.server.state.db;
    store::on_pool!(db, |pool| {
        sqlx::query("update tasks set location_search = null").execute(pool).await.map(|_| ())
    })
    .unwrap();
    assert_eq!(store::backfills::fill_missing_location_search(db).await.unwrap(), 3);
    assert_eq!(store::backfills::fill_missing_location_search(db).await.unwrap(), 0, "nothing left");
    let page = app.get("/api/tasks?location=%C3%A9vora", None).await;
    assert_eq!(page.body["items"].as_array().unwrap().len(), 3);
    app
}

// Start-up configuration, before any request: one backend is enough.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_jwt_secret_shorter_than_32_bytes_stops_the_server_at_start() {
    let data_dir = std::env::temp_dir().join(format!("taskhub-test-{}", uuid::Uuid::now_v7().simple()));
    let mut config = domain::config::Config::local(data_dir.clone());
    config.bind_addr = "127.0.0.1:0".into();
    config.jwt_secret = Some(domain::config::Secret::new("short-secret"));
    let error = server::start(config).await.err().expect("a short JWT_SECRET is refused");
    assert!(error.to_string().contains("JWT_SECRET must be at least 32 bytes"), "{error:#}");
    std::fs::remove_dir_all(data_dir).ok();
}
