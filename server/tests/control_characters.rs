//! No text input stores a control character (security review 3: a NUL byte in a task, a
//! message, a bio, even the sign-in form was a 500 on PostgreSQL). Every way in is one row:
//! JSON bodies through `ApiJson` and the text fields of multipart forms, each refused with 422
//! `validation_failed` naming the field, and nothing stored.

use reqwest::{StatusCode, multipart};
use serde_json::{Value, json};

use crate::common::{
    self, TestApp,
    market::{id, post_task, poster, task_body},
};

on_both_backends!(
    control_characters_are_refused_in_every_json_text_field,
    control_characters_are_refused_in_multipart_text_fields,
    tabs_and_new_lines_stay_allowed,
);

/// The characters refused: C0 controls but tab, line feed and carriage return; DEL; C1 controls.
const REFUSED: [&str; 4] = ["\u{0}", "\u{1b}", "\u{7f}", "\u{85}"];

async fn control_characters_are_refused_in_every_json_text_field(app: TestApp) -> TestApp {
    let token = poster(&app, "ctl-poster@example.com").await;
    let task = post_task(&app, &token, json!({})).await;
    let task_id = id(&task);
    for control in REFUSED {
        let with = |text: &str| format!("{text}{control}end");
        // (method, path, token, body, the field named)
        let cases: Vec<(&str, String, Option<&str>, Value, &str)> = vec![
            (
                "POST",
                "/api/auth/login".into(),
                None,
                json!({ "email": with("a@example.com"), "password": "x" }),
                "email",
            ),
            (
                "POST",
                "/api/auth/login".into(),
                None,
                json!({ "email": "a@example.com", "password": with("pw") }),
                "password",
            ),
            (
                "POST",
                "/api/tasks".into(),
                Some(&token),
                merged(task_body("x"), json!({ "title": with("Fix a tap") })),
                "title",
            ),
            (
                "POST",
                "/api/tasks".into(),
                Some(&token),
                merged(task_body("Fix a tap"), json!({ "description": with("It drips all night long") })),
                "description",
            ),
            ("PATCH", "/api/me/profile".into(), Some(&token), json!({ "bio": with("I fix things") }), "bio"),
            ("PATCH", "/api/me/profile".into(), Some(&token), json!({ "first_name": with("Jo") }), "first_name"),
            ("PATCH", "/api/me/profile".into(), Some(&token), json!({ "display_name": with("Jo") }), "display_name"),
            (
                "POST",
                "/api/reports".into(),
                Some(&token),
                json!({ "target": { "type": "task", "id": task_id }, "reason": "other", "details": with("odd") }),
                "details",
            ),
            (
                "POST",
                format!("/api/tasks/{task_id}/cancel"),
                Some(&token),
                json!({ "reason_code": with("other") }),
                "reason_code",
            ),
        ];
        for (method, path, token, body, field) in cases {
            let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
            let response = app.request(method.clone(), &path, token, Some(body)).await;
            assert_eq!(
                response.status,
                StatusCode::UNPROCESSABLE_ENTITY,
                "{method} {path} {control:?}: {:?}",
                response.body
            );
            assert_eq!(response.error_code(), "validation_failed", "{method} {path}");
            assert_eq!(response.field_error(field), "Please remove control characters from this field", "{path}");
        }
    }
    // Nothing was stored: the task is as posted and still open, the profile unchanged.
    let page = app.get(&format!("/api/tasks/{task_id}"), Some(&token)).await;
    assert_eq!(page.body["status"], "open");
    assert_eq!(page.body["title"], task["title"]);
    let mine = app.get("/api/me/tasks", Some(&token)).await;
    assert_eq!(mine.body["items"].as_array().map(Vec::len), Some(1), "{:?}", mine.body);
    let me = app.get("/api/me", Some(&token)).await;
    assert!(!me.body.to_string().contains("end"), "{:?}", me.body);
    app
}

async fn control_characters_are_refused_in_multipart_text_fields(app: TestApp) -> TestApp {
    let token = common::market::tasker(&app, "ctl-tasker@example.com").await;
    for control in REFUSED {
        let png = common::images::png(8, 8);
        let form = multipart::Form::new()
            .part("file", multipart::Part::bytes(png).file_name("a.png").mime_str("image/png").unwrap())
            .text("title", format!("Deck{control}"));
        let response =
            app.client.post(app.url("/api/me/portfolio")).bearer_auth(&token).multipart(form).send().await.unwrap();
        let response = TestApp::read(response).await;
        assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY, "{control:?}: {:?}", response.body);
        assert_eq!(response.field_error("title"), "Please remove control characters from this field");
    }
    let profile = app.get("/api/me", Some(&token)).await;
    let profile = app.get(&format!("/api/profiles/{}", profile.body["user"]["id"].as_str().unwrap()), None).await;
    assert_eq!(profile.body["portfolio"], json!([]), "nothing stored: {:?}", profile.body);
    app
}

async fn tabs_and_new_lines_stay_allowed(app: TestApp) -> TestApp {
    let token = poster(&app, "ctl-lines@example.com").await;
    let task = post_task(&app, &token, json!({ "description": "First line\nSecond line\r\n\tindented" })).await;
    assert_eq!(task["description"], "First line\nSecond line\r\n\tindented");
    app
}

fn merged(mut body: Value, changes: Value) -> Value {
    if let (Some(body), Some(changes)) = (body.as_object_mut(), changes.as_object()) {
        body.extend(changes.clone());
    }
    body
}
