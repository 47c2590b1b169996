//! The account journey of spec sections 2, 4 and 5, on both backends.

use crate::common;

use common::{
    TestApp, access_token,
    market::{id, post_task, poster, task_body},
    signup_body,
};
use reqwest::StatusCode;
use serde_json::json;

on_both_backends!(
    signup_verify_login_refresh_logout,
    reused_refresh_token_revokes_the_whole_session,
    unverified_accounts_cannot_sign_in,
    posting_needs_a_confirmed_email_even_with_a_valid_token,
    signup_reports_every_rule_with_the_spec_messages,
    tasker_needs_a_skill_and_skills_are_kept,
    duplicate_email_is_a_conflict,
    wrong_password_and_unknown_email_look_the_same,
    login_validation_messages,
    verification_links_work_once,
    password_recovery_resets_and_signs_out_everywhere,
    recovery_never_reveals_whether_an_account_exists,
    profile_settings_update_and_clear_fields,
    become_tasker_marks_the_profile,
    public_profile_hides_contact_details,
    protected_routes_need_a_valid_token,
);

async fn signup_verify_login_refresh_logout(app: TestApp) -> TestApp {
    let signup = app.post("/api/auth/signup", None, signup_body("Sam@Example.com", "customer")).await;
    assert_eq!(signup.status, StatusCode::CREATED, "{:?}", signup.body);
    assert_eq!(signup.body["user"]["email"], "sam@example.com");
    assert_eq!(signup.body["user"]["email_verified"], false);
    assert!(signup.body["message"].as_str().unwrap().contains("check your email"));

    let token = app.token_mailed_to("sam@example.com", "Confirm").await;
    let verified = app.post("/api/auth/verify", None, json!({ "token": token })).await;
    assert_eq!(verified.status, StatusCode::OK);
    assert_eq!(verified.body["user"]["email_verified"], true);

    let session =
        app.post("/api/auth/login", None, json!({ "email": "sam@example.com", "password": "correct horse" })).await;
    assert_eq!(session.status, StatusCode::OK, "{:?}", session.body);
    assert_eq!(session.body["token_type"], "bearer");
    assert_eq!(session.body["expires_in"], 900);
    assert!(session.body["expires_at"].as_str().unwrap().ends_with('Z'));
    assert_eq!(session.body["profile"]["display_name"], "Sam Lee");
    assert_eq!(session.body["profile"]["initials"], "SL");

    let me = app.get("/api/me", Some(&access_token(&session.body))).await;
    assert_eq!(me.status, StatusCode::OK);
    assert_eq!(me.body["user"]["email"], "sam@example.com");
    assert_eq!(me.body["profile"]["location"], "Newtown NSW");
    assert_eq!(me.body["profile"]["account_type"], "customer");

    let first_refresh = session.body["refresh_token"].as_str().unwrap();
    let rotated = app.post("/api/auth/refresh", None, json!({ "refresh_token": first_refresh })).await;
    assert_eq!(rotated.status, StatusCode::OK);
    let second_refresh = rotated.body["refresh_token"].as_str().unwrap();
    assert_ne!(first_refresh, second_refresh);
    assert_eq!(app.get("/api/me", Some(&access_token(&rotated.body))).await.status, StatusCode::OK);

    let logout = app.post("/api/auth/logout", None, json!({ "refresh_token": second_refresh })).await;
    assert_eq!(logout.status, StatusCode::NO_CONTENT);
    let after_logout = app.post("/api/auth/refresh", None, json!({ "refresh_token": second_refresh })).await;
    assert_eq!(after_logout.status, StatusCode::UNAUTHORIZED);
    assert_eq!(after_logout.error_code(), "unauthorized");
    app
}

async fn reused_refresh_token_revokes_the_whole_session(app: TestApp) -> TestApp {
    let session = app.signed_in_user("reuse@example.com").await;
    let stolen = session["refresh_token"].as_str().unwrap().to_owned();
    let legit = app.post("/api/auth/refresh", None, json!({ "refresh_token": stolen })).await;
    assert_eq!(legit.status, StatusCode::OK);
    let current = legit.body["refresh_token"].as_str().unwrap().to_owned();

    let replay = app.post("/api/auth/refresh", None, json!({ "refresh_token": stolen })).await;
    assert_eq!(replay.status, StatusCode::UNAUTHORIZED);
    // The legitimate holder's newer token is revoked too: the family is burnt.
    let after = app.post("/api/auth/refresh", None, json!({ "refresh_token": current })).await;
    assert_eq!(after.status, StatusCode::UNAUTHORIZED);

    // Other sign-ins of the same user are separate families and keep working.
    let other =
        app.post("/api/auth/login", None, json!({ "email": "reuse@example.com", "password": "correct horse" })).await;
    let refreshed = app.post("/api/auth/refresh", None, json!({ "refresh_token": other.body["refresh_token"] })).await;
    assert_eq!(refreshed.status, StatusCode::OK);
    app
}

async fn unverified_accounts_cannot_sign_in(app: TestApp) -> TestApp {
    app.post("/api/auth/signup", None, signup_body("new@example.com", "customer")).await;
    let login =
        app.post("/api/auth/login", None, json!({ "email": "new@example.com", "password": "correct horse" })).await;
    assert_eq!(login.status, StatusCode::FORBIDDEN);
    assert_eq!(login.error_code(), "email_not_confirmed");
    // ... but only after the password checks out, so it reveals nothing to strangers.
    let wrong =
        app.post("/api/auth/login", None, json!({ "email": "new@example.com", "password": "wrong pass" })).await;
    assert_eq!(wrong.status, StatusCode::UNAUTHORIZED);

    // A fresh link can be requested, and it works.
    let resend = app.post("/api/auth/resend-verification", None, json!({ "email": "new@example.com" })).await;
    assert_eq!(resend.status, StatusCode::ACCEPTED);
    let mut tokens = Vec::new();
    for _ in 0..100 {
        tokens = app.mailbox().await.into_iter().filter(|mail| mail["to"] == "new@example.com").collect();
        if tokens.len() == 2 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(tokens.len(), 2, "a second verification mail");
    let token = app.token_mailed_to("new@example.com", "Confirm").await;
    assert_eq!(app.post("/api/auth/verify", None, json!({ "token": token })).await.status, StatusCode::OK);
    let login =
        app.post("/api/auth/login", None, json!({ "email": "new@example.com", "password": "correct horse" })).await;
    assert_eq!(login.status, StatusCode::OK);
    app
}

/// A token of an unconfirmed account (issued while this node did not require confirmation, as
/// another node of a cluster being reconfigured may) still cannot post a task, an offer or a question.
async fn posting_needs_a_confirmed_email_even_with_a_valid_token(app: TestApp) -> TestApp {
    let poster_token = poster(&app, "poster@example.com").await;
    let task_id = id(&post_task(&app, &poster_token, json!({})).await);
    let mut lenient = app.server.state.config.as_ref().clone();
    lenient.bind_addr = "127.0.0.1:0".into();
    lenient.require_email_verification = false;
    let lenient = server::start(lenient).await.expect("second node starts");
    let client = reqwest::Client::new();
    let signup =
        client.post(format!("{}/api/auth/signup", lenient.url())).json(&signup_body("new@example.com", "tasker"));
    assert_eq!(signup.send().await.unwrap().status(), StatusCode::CREATED);
    let login = client
        .post(format!("{}/api/auth/login", lenient.url()))
        .json(&json!({ "email": "new@example.com", "password": "correct horse" }));
    let session: serde_json::Value = login.send().await.unwrap().json().await.unwrap();
    lenient.shutdown().await.unwrap();
    let token = access_token(&session);

    let refused = [
        app.post("/api/tasks", Some(&token), task_body("Unconfirmed task")).await,
        app.post(
            &format!("/api/tasks/{task_id}/offers"),
            Some(&token),
            json!({ "amount_cents": 9000, "message": "Hi" }),
        )
        .await,
        app.post(&format!("/api/tasks/{task_id}/questions"), Some(&token), json!({ "body": "When?" })).await,
    ];
    for response in refused {
        assert_eq!(response.status, StatusCode::FORBIDDEN, "{:?}", response.body);
        assert_eq!(response.error_code(), "email_not_confirmed");
    }
    let task = app.get(&format!("/api/tasks/{task_id}"), None).await;
    assert_eq!(task.body["offer_count"], 0);
    assert_eq!(task.body["questions"].as_array().map(Vec::len), Some(0), "{:?}", task.body["questions"]);
    let listed = app.get("/api/tasks", None).await;
    assert_eq!(listed.body["items"].as_array().map(Vec::len), Some(1));
    app
}

async fn signup_reports_every_rule_with_the_spec_messages(app: TestApp) -> TestApp {
    let empty = app.post("/api/auth/signup", None, json!({})).await;
    assert_eq!(empty.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(empty.error_code(), "validation_failed");
    assert_eq!(empty.field_error("first_name"), "First name is required");
    assert_eq!(empty.field_error("last_name"), "Last name is required");
    assert_eq!(empty.field_error("email"), "Email is required");
    assert_eq!(empty.field_error("password"), "Password is required");

    let bad = app
        .post(
            "/api/auth/signup",
            None,
            json!({ "first_name": "A", "last_name": "B", "email": "not-an-email", "password": "12345" }),
        )
        .await;
    assert_eq!(bad.field_error("email"), "Email is invalid");
    assert_eq!(bad.field_error("password"), "Password must be at least 6 characters");
    assert!(bad.body["error"]["message"].as_str().is_some_and(|message| !message.is_empty()));

    let wrong_type = app.post("/api/auth/signup", None, json!({ "email": 42 })).await;
    assert_eq!(wrong_type.status, StatusCode::UNPROCESSABLE_ENTITY);
    let bad_account_type = app.post("/api/auth/signup", None, json!({ "account_type": "admin" })).await;
    assert_eq!(bad_account_type.status, StatusCode::UNPROCESSABLE_ENTITY);
    let foreign_avatar = app
        .post("/api/auth/signup", None, json!({ "first_name": "A", "last_name": "B", "email": "a@b.co", "password": "123456", "avatar_url": "https://evil.example/x.png" }))
        .await;
    assert_eq!(foreign_avatar.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(!foreign_avatar.field_error("avatar_url").is_empty());
    app
}

async fn tasker_needs_a_skill_and_skills_are_kept(app: TestApp) -> TestApp {
    let mut body = signup_body("tasker@example.com", "tasker");
    body["skills"] = json!([]);
    let no_skills = app.post("/api/auth/signup", None, body.clone()).await;
    assert_eq!(no_skills.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(no_skills.field_error("skills"), "Please add at least one skill");

    body["skills"] = json!([{ "name": "Tiling", "level": 101 }]);
    let bad_level = app.post("/api/auth/signup", None, body.clone()).await;
    assert_eq!(bad_level.field_error("skills"), "Skill level must be between 1 and 100");

    body["skills"] = json!([{ "name": "Tiling", "level": 40 }, { "name": "tiling", "level": 60 }]);
    assert_eq!(app.post("/api/auth/signup", None, body.clone()).await.status, StatusCode::UNPROCESSABLE_ENTITY);

    body["skills"] = json!([{ "name": " Tiling ", "level": 40 }, { "name": "Painting" }]);
    assert_eq!(app.post("/api/auth/signup", None, body).await.status, StatusCode::CREATED);
    let token = app.token_mailed_to("tasker@example.com", "Confirm").await;
    app.post("/api/auth/verify", None, json!({ "token": token })).await;
    let session =
        app.post("/api/auth/login", None, json!({ "email": "tasker@example.com", "password": "correct horse" })).await;
    let profile = &session.body["profile"];
    assert_eq!(profile["account_type"], "tasker");
    assert_eq!(profile["is_tasker"], true);
    assert_eq!(profile["skills"], json!([{ "name": "Tiling", "level": 40 }, { "name": "Painting", "level": 50 }]));
    app
}

async fn duplicate_email_is_a_conflict(app: TestApp) -> TestApp {
    assert_eq!(
        app.post("/api/auth/signup", None, signup_body("dup@example.com", "customer")).await.status,
        StatusCode::CREATED
    );
    let again = app.post("/api/auth/signup", None, signup_body("DUP@example.com", "customer")).await;
    assert_eq!(again.status, StatusCode::CONFLICT);
    assert_eq!(again.error_code(), "conflict");
    app
}

async fn wrong_password_and_unknown_email_look_the_same(app: TestApp) -> TestApp {
    app.signed_in_user("known@example.com").await;
    let wrong =
        app.post("/api/auth/login", None, json!({ "email": "known@example.com", "password": "nope-nope" })).await;
    let unknown =
        app.post("/api/auth/login", None, json!({ "email": "ghost@example.com", "password": "nope-nope" })).await;
    assert_eq!(wrong.status, StatusCode::UNAUTHORIZED);
    assert_eq!(wrong.body, unknown.body);
    app
}

async fn login_validation_messages(app: TestApp) -> TestApp {
    let empty = app.post("/api/auth/login", None, json!({ "email": "", "password": "" })).await;
    assert_eq!(empty.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(empty.field_error("email"), "Email is required");
    assert_eq!(empty.field_error("password"), "Password is required");
    let invalid = app.post("/api/auth/login", None, json!({ "email": "sam", "password": "x" })).await;
    assert_eq!(invalid.field_error("email"), "Email is invalid");
    app
}

async fn verification_links_work_once(app: TestApp) -> TestApp {
    app.post("/api/auth/signup", None, signup_body("once@example.com", "customer")).await;
    let token = app.token_mailed_to("once@example.com", "Confirm").await;
    assert_eq!(app.post("/api/auth/verify", None, json!({ "token": token })).await.status, StatusCode::OK);
    let again = app.post("/api/auth/verify", None, json!({ "token": token })).await;
    assert_eq!(again.status, StatusCode::BAD_REQUEST);
    assert_eq!(again.error_code(), "bad_request");
    assert_eq!(app.post("/api/auth/verify", None, json!({ "token": "made-up" })).await.status, StatusCode::BAD_REQUEST);
    app
}

async fn password_recovery_resets_and_signs_out_everywhere(app: TestApp) -> TestApp {
    let session = app.signed_in_user("forgetful@example.com").await;
    let recover = app.post("/api/auth/recover", None, json!({ "email": "forgetful@example.com" })).await;
    assert_eq!(recover.status, StatusCode::ACCEPTED);
    let token = app.token_mailed_to("forgetful@example.com", "Reset").await;

    let short = app.post("/api/auth/reset", None, json!({ "token": token, "password": "123" })).await;
    assert_eq!(short.field_error("password"), "Password must be at least 6 characters");
    let reset = app.post("/api/auth/reset", None, json!({ "token": token, "password": "brand new secret" })).await;
    assert_eq!(reset.status, StatusCode::OK, "{:?}", reset.body);
    let reused = app.post("/api/auth/reset", None, json!({ "token": token, "password": "another secret" })).await;
    assert_eq!(reused.status, StatusCode::BAD_REQUEST);

    let old_session = app.post("/api/auth/refresh", None, json!({ "refresh_token": session["refresh_token"] })).await;
    assert_eq!(old_session.status, StatusCode::UNAUTHORIZED);
    let old_password = app
        .post("/api/auth/login", None, json!({ "email": "forgetful@example.com", "password": "correct horse" }))
        .await;
    assert_eq!(old_password.status, StatusCode::UNAUTHORIZED);
    let new_password = app
        .post("/api/auth/login", None, json!({ "email": "forgetful@example.com", "password": "brand new secret" }))
        .await;
    assert_eq!(new_password.status, StatusCode::OK);
    app
}

async fn recovery_never_reveals_whether_an_account_exists(app: TestApp) -> TestApp {
    let unknown = app.post("/api/auth/recover", None, json!({ "email": "nobody@example.com" })).await;
    assert_eq!(unknown.status, StatusCode::ACCEPTED);
    app.signed_in_user("somebody@example.com").await;
    let known = app.post("/api/auth/recover", None, json!({ "email": "somebody@example.com" })).await;
    assert_eq!(known.status, StatusCode::ACCEPTED);
    assert_eq!(known.body, unknown.body);
    let invalid = app.post("/api/auth/recover", None, json!({ "email": "nope" })).await;
    assert_eq!(invalid.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(invalid.field_error("email"), "Please enter a valid email address");
    app
}

async fn profile_settings_update_and_clear_fields(app: TestApp) -> TestApp {
    let session = app.signed_in_user("settings@example.com").await;
    let token = access_token(&session);
    let updated = app
        .patch(
            "/api/me/profile",
            Some(&token),
            json!({ "first_name": " Samira ", "display_name": "Sami Fixes", "phone": "0400 000 000", "bio": "Handy.", "location": null }),
        )
        .await;
    assert_eq!(updated.status, StatusCode::OK, "{:?}", updated.body);
    assert_eq!(updated.body["first_name"], "Samira");
    assert_eq!(updated.body["last_name"], "Lee");
    assert_eq!(updated.body["display_name"], "Sami Fixes");
    assert_eq!(updated.body["custom_display_name"], "Sami Fixes");
    assert_eq!(updated.body["phone"], "0400 000 000");
    assert_eq!(updated.body["location"], serde_json::Value::Null);

    let cleared = app.patch("/api/me/profile", Some(&token), json!({ "display_name": "" })).await;
    assert_eq!(cleared.body["display_name"], "Samira Lee");
    assert_eq!(cleared.body["bio"], "Handy.");

    let blank_name = app.patch("/api/me/profile", Some(&token), json!({ "last_name": "  " })).await;
    assert_eq!(blank_name.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(blank_name.field_error("last_name"), "Last name is required");
    let me = app.get("/api/me", Some(&token)).await;
    assert_eq!(me.body["profile"]["last_name"], "Lee", "a refused edit changes nothing");
    app
}

async fn become_tasker_marks_the_profile(app: TestApp) -> TestApp {
    let session = app.signed_in_user("switch@example.com").await;
    assert_eq!(session["profile"]["is_tasker"], false);
    let profile = app.post("/api/me/become-tasker", Some(&access_token(&session)), json!({})).await;
    assert_eq!(profile.status, StatusCode::OK);
    assert_eq!(profile.body["is_tasker"], true);
    // Saved, not only answered: the profile read back, and a new session, say so too.
    let me = app.get("/api/me", Some(&access_token(&session))).await;
    assert_eq!(me.body["profile"]["is_tasker"], true, "{:?}", me.body);
    let again =
        app.post("/api/auth/login", None, json!({ "email": "switch@example.com", "password": "correct horse" })).await;
    assert_eq!(again.body["profile"]["is_tasker"], true, "{:?}", again.body);
    let user_id: uuid::Uuid = session["user"]["id"].as_str().unwrap().parse().unwrap();
    let stored: bool = store::on_pool!(&app.server.state.db, |pool| {
        sqlx::query_scalar("select is_tasker from profiles where id = $1").bind(user_id).fetch_one(pool).await.unwrap()
    });
    assert!(stored, "profiles.is_tasker is saved");
    app
}

async fn public_profile_hides_contact_details(app: TestApp) -> TestApp {
    let session = app.signed_in_user("public@example.com").await;
    app.patch("/api/me/profile", Some(&access_token(&session)), json!({ "phone": "0400 111 222" })).await;
    let id = session["user"]["id"].as_str().unwrap();
    let profile = app.get(&format!("/api/profiles/{id}"), None).await;
    assert_eq!(profile.status, StatusCode::OK);
    assert_eq!(profile.body["display_name"], "Public L.", "the surname stays private, as on listings");
    assert_eq!(profile.body["verified"]["email"], true);
    assert_eq!(profile.body["rating"], serde_json::Value::Null);
    assert_eq!(profile.body["review_count"], 0);
    let text = profile.body.to_string();
    assert!(!text.contains("public@example.com") && !text.contains("0400 111 222"));

    let missing = app.get(&format!("/api/profiles/{}", uuid::Uuid::now_v7()), None).await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    assert_eq!(missing.error_code(), "not_found");
    assert_eq!(app.get("/api/profiles/not-a-uuid", None).await.status, StatusCode::NOT_FOUND);
    app
}

async fn protected_routes_need_a_valid_token(app: TestApp) -> TestApp {
    let none = app.get("/api/me", None).await;
    assert_eq!(none.status, StatusCode::UNAUTHORIZED);
    assert_eq!(none.error_code(), "unauthorized");
    let forged = app.get("/api/me", Some("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.bad")).await;
    assert_eq!(forged.status, StatusCode::UNAUTHORIZED);
    assert_eq!(app.patch("/api/me/profile", None, json!({})).await.status, StatusCode::UNAUTHORIZED);
    app
}
