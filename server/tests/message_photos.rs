//! Photos in private messages: sent as multipart, stored without metadata, served only to the
//! task's two parties through an authorized route (anyone else 404), never by a public URL.

use crate::common;

use common::{
    TestApp,
    escrow::assigned_task,
    images::{
        assert_fixture_has_metadata, assert_no_metadata, dimensions, fetch_jpeg, jpeg_with_metadata, png, status_of,
        str_of, upload,
    },
    market::{id, post_task, poster},
    rows::{assert_task_unchanged, task_snapshot},
};
use reqwest::StatusCode;
use serde_json::json;

on_both_backends!(the_two_parties_exchange_a_photo_no_one_else_sees, message_photos_are_refused_as_messages_are,);

fn messages_path(task: &str) -> String {
    format!("/api/tasks/{task}/messages")
}

async fn the_two_parties_exchange_a_photo_no_one_else_sees(app: TestApp) -> TestApp {
    let assigned = assigned_task(&app, 9000).await;
    let stranger = poster(&app, "nosy@example.com").await;
    let fixture = jpeg_with_metadata();
    assert_fixture_has_metadata(&fixture);

    let sent = upload(
        &app,
        Some(&assigned.tasker),
        &messages_path(&assigned.task),
        Some(fixture),
        &[("body", "This is the valve I mean")],
    )
    .await;
    assert_eq!(sent.status, StatusCode::CREATED, "{:?}", sent.body);
    assert_eq!(sent.body["body"], "This is the valve I mean");
    let photo = sent.body["photo"].clone();
    let (url, thumb_url) = (str_of(&photo, "url").to_owned(), str_of(&photo, "thumb_url").to_owned());
    assert!(url.starts_with(&format!("/api/tasks/{}/messages/photos/", assigned.task)), "{url}");

    // A photo alone is a message too.
    let photo_only = upload(&app, Some(&assigned.poster), &messages_path(&assigned.task), Some(png(50, 40)), &[]).await;
    assert_eq!(photo_only.status, StatusCode::CREATED, "{:?}", photo_only.body);
    assert_eq!(photo_only.body["body"], "");

    let conversation = app.get(&messages_path(&assigned.task), Some(&assigned.poster)).await;
    let listed: Vec<_> =
        conversation.body["items"].as_array().unwrap().iter().map(|message| message["photo"].clone()).collect();
    assert_eq!(listed, vec![photo.clone(), photo_only.body["photo"].clone()]);

    for party in [&assigned.poster, &assigned.tasker] {
        let full = fetch_jpeg(&app, &url, Some(party)).await;
        assert_no_metadata(&full);
        assert_eq!(dimensions(&full), (20, 40), "turned upright by its EXIF orientation");
        assert_no_metadata(&fetch_jpeg(&app, &thumb_url, Some(party)).await);
    }
    // Anyone else: the same 404 as for a photo that does not exist; no token: 401.
    for path in [&url, &thumb_url] {
        assert_eq!(status_of(&app, path, Some(&stranger)).await, StatusCode::NOT_FOUND);
        assert_eq!(status_of(&app, path, None).await, StatusCode::UNAUTHORIZED);
    }
    let made_up = format!("/api/tasks/{}/messages/photos/{}", assigned.task, uuid::Uuid::now_v7());
    assert_eq!(status_of(&app, &made_up, Some(&assigned.poster)).await, StatusCode::NOT_FOUND);
    // The store holds it, but the public media route never serves a message photo.
    let photo_id = str_of(&photo, "id");
    for key in [format!("private/messages/{photo_id}.jpg"), format!("private/messages/{photo_id}_thumb.jpg")] {
        assert!(app.server.state.media.get(&key).await.unwrap().is_some(), "{key} is stored");
        assert_eq!(status_of(&app, &format!("/media/{key}"), None).await, StatusCode::NOT_FOUND);
        assert_eq!(status_of(&app, &format!("/media/{key}"), Some(&assigned.poster)).await, StatusCode::NOT_FOUND);
    }
    // Another task's parties cannot read it through their own task either.
    let other = assigned_task(&app, 9000).await;
    let sideways = format!("/api/tasks/{}/messages/photos/{photo_id}", other.task);
    assert_eq!(status_of(&app, &sideways, Some(&other.poster)).await, StatusCode::NOT_FOUND);
    app
}

async fn message_photos_are_refused_as_messages_are(app: TestApp) -> TestApp {
    let assigned = assigned_task(&app, 9000).await;
    let stranger = poster(&app, "intruder@example.com").await;
    let before = task_snapshot(&app, &assigned.task).await;
    let path = messages_path(&assigned.task);

    let by_stranger = upload(&app, Some(&stranger), &path, Some(png(32, 32)), &[("body", "hi")]).await;
    assert_eq!(by_stranger.status, StatusCode::FORBIDDEN, "{:?}", by_stranger.body);
    let not_a_picture = upload(&app, Some(&assigned.poster), &path, Some(b"%PDF-1.7".to_vec()), &[]).await;
    assert_eq!(not_a_picture.status, StatusCode::UNPROCESSABLE_ENTITY, "{:?}", not_a_picture.body);
    assert_eq!(not_a_picture.field_error("file"), "Please upload an image file (JPEG, PNG, GIF or WebP)");
    let no_file = upload(&app, Some(&assigned.poster), &path, None, &[("body", "where is the photo")]).await;
    assert_eq!(no_file.status, StatusCode::UNPROCESSABLE_ENTITY);
    let long_text = "x".repeat(2001);
    let too_long = upload(&app, Some(&assigned.poster), &path, Some(png(32, 32)), &[("body", &long_text)]).await;
    assert_eq!(too_long.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_task_unchanged(&app, &assigned.task, &before, "refused message photos").await;
    let listed = app.get(&path, Some(&assigned.poster)).await;
    assert_eq!(listed.body["items"], json!([]));

    // Before assignment there is nobody to write to.
    let owner = poster(&app, "early@example.com").await;
    let open = id(&post_task(&app, &owner, json!({})).await);
    let before = task_snapshot(&app, &open).await;
    let early = upload(&app, Some(&owner), &messages_path(&open), Some(png(32, 32)), &[]).await;
    assert_eq!(early.status, StatusCode::CONFLICT, "{:?}", early.body);
    assert_task_unchanged(&app, &open, &before, "a photo before assignment").await;

    // JSON messages still work as before.
    let text = app.post(&path, Some(&assigned.poster), json!({ "body": "Thanks!" })).await;
    assert_eq!(text.status, StatusCode::CREATED, "{:?}", text.body);
    assert_eq!(text.body["photo"], serde_json::Value::Null);
    app
}
