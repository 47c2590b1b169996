//! Photos on tasks: the poster adds up to six while the task is open; they show on the task (all),
//! on task cards (the first) and in the task page's link preview; every stored copy has lost its
//! metadata. Refusals leave the task's rows as they were.

use domain::config::Config;

use crate::common;

use common::{
    TestApp,
    escrow::assigned_task,
    images::{
        assert_fixture_has_metadata, assert_no_metadata, dimensions, fetch_jpeg, jpeg_with_metadata, png, status_of,
        str_of, upload,
    },
    live::{connect, next_event_where, subscribe},
    market::{id, post_task, poster},
    rows::{assert_task_unchanged, task_snapshot},
};
use reqwest::{Method, StatusCode};
use serde_json::json;

on_both_backends!(
    a_posters_photos_show_on_the_task_and_its_card_without_metadata,
    a_task_holds_at_most_six_photos,
    only_the_poster_changes_photos_and_only_while_open,
    files_that_are_not_pictures_are_refused,
    the_first_photo_is_the_link_preview_image: with_task_page,
    watchers_see_photos_added_and_removed_live,
);

fn photos_path(task: &str) -> String {
    format!("/api/tasks/{task}/photos")
}

async fn add_photo(app: &TestApp, token: &str, task: &str, bytes: Vec<u8>) -> serde_json::Value {
    let response = upload(app, Some(token), &photos_path(task), Some(bytes), &[]).await;
    assert_eq!(response.status, StatusCode::CREATED, "{:?}", response.body);
    response.body
}

async fn a_posters_photos_show_on_the_task_and_its_card_without_metadata(app: TestApp) -> TestApp {
    let token = poster(&app, "photos@example.com").await;
    let task = id(&post_task(&app, &token, json!({ "title": "Fix the leaking kitchen tap" })).await);
    let fixture = jpeg_with_metadata();
    assert_fixture_has_metadata(&fixture);

    let first = add_photo(&app, &token, &task, fixture).await;
    let second = add_photo(&app, &token, &task, png(2400, 1200)).await;
    for photo in [&first, &second] {
        assert!(str_of(photo, "url").starts_with("/media/tasks/"), "{photo}");
        assert!(str_of(photo, "thumb_url").starts_with("/media/tasks/"), "{photo}");
    }

    // The stored copy: a JPEG with no EXIF/XMP/IPTC, turned upright by the EXIF orientation.
    let full = fetch_jpeg(&app, str_of(&first, "url"), None).await;
    assert_no_metadata(&full);
    assert_eq!(dimensions(&full), (20, 40));
    let thumb = fetch_jpeg(&app, str_of(&first, "thumb_url"), None).await;
    assert_no_metadata(&thumb);
    // Large pictures are scaled down once, at upload: the full copy and the thumbnail.
    assert_eq!(dimensions(&fetch_jpeg(&app, str_of(&second, "url"), None).await), (1600, 800));
    assert_eq!(dimensions(&fetch_jpeg(&app, str_of(&second, "thumb_url"), None).await), (480, 240));

    let detail = app.get(&format!("/api/tasks/{task}"), None).await;
    assert_eq!(detail.body["photos"], json!([first, second]), "the task shows all its photos, oldest first");
    let browse = app.get("/api/tasks", None).await;
    let card = browse.body["items"].as_array().unwrap().iter().find(|item| item["id"] == task.as_str()).unwrap();
    assert_eq!(card["photos"], json!([first]), "a card carries the first photo only");
    let mine = app.get("/api/me/tasks", Some(&token)).await;
    assert_eq!(mine.body["items"][0]["photos"], json!([first]));

    // Removing a photo removes it from the task and from the store.
    let path = format!("{}/{}", photos_path(&task), id(&first));
    let removed = app.request(Method::DELETE, &path, Some(&token), None).await;
    assert_eq!(removed.status, StatusCode::NO_CONTENT, "{:?}", removed.body);
    assert_eq!(app.get(&format!("/api/tasks/{task}"), None).await.body["photos"], json!([second]));
    assert_eq!(status_of(&app, str_of(&first, "url"), None).await, StatusCode::NOT_FOUND);
    assert_eq!(status_of(&app, str_of(&first, "thumb_url"), None).await, StatusCode::NOT_FOUND);
    let again = app.request(Method::DELETE, &path, Some(&token), None).await;
    assert_eq!(again.status, StatusCode::NOT_FOUND);
    app
}

async fn a_task_holds_at_most_six_photos(app: TestApp) -> TestApp {
    let token = poster(&app, "six@example.com").await;
    let task = id(&post_task(&app, &token, json!({})).await);
    for _ in 0..6 {
        add_photo(&app, &token, &task, png(64, 48)).await;
    }
    let before = task_snapshot(&app, &task).await;
    let seventh = upload(&app, Some(&token), &photos_path(&task), Some(png(64, 48)), &[]).await;
    assert_eq!(seventh.status, StatusCode::UNPROCESSABLE_ENTITY, "{:?}", seventh.body);
    assert_eq!(seventh.field_error("file"), "A task can have at most 6 photos");
    assert_task_unchanged(&app, &task, &before, "a 7th photo").await;
    assert_eq!(app.get(&format!("/api/tasks/{task}"), None).await.body["photos"].as_array().unwrap().len(), 6);
    app
}

async fn only_the_poster_changes_photos_and_only_while_open(app: TestApp) -> TestApp {
    let owner = poster(&app, "owner@example.com").await;
    let stranger = poster(&app, "stranger@example.com").await;
    let task = id(&post_task(&app, &owner, json!({})).await);
    let photo = add_photo(&app, &owner, &task, png(64, 48)).await;
    let before = task_snapshot(&app, &task).await;

    let by_stranger = upload(&app, Some(&stranger), &photos_path(&task), Some(png(64, 48)), &[]).await;
    assert_eq!(by_stranger.status, StatusCode::FORBIDDEN, "{:?}", by_stranger.body);
    let anonymous = upload(&app, None, &photos_path(&task), Some(png(64, 48)), &[]).await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
    let remove_path = format!("{}/{}", photos_path(&task), id(&photo));
    let removed_by_stranger = app.request(Method::DELETE, &remove_path, Some(&stranger), None).await;
    assert_eq!(removed_by_stranger.status, StatusCode::FORBIDDEN);
    assert_task_unchanged(&app, &task, &before, "a stranger's photo changes").await;
    let unknown =
        upload(&app, Some(&owner), &photos_path(&uuid::Uuid::now_v7().to_string()), Some(png(8, 8)), &[]).await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);

    // Once assigned, the task's photos are part of the agreement: no more changes.
    let assigned = assigned_task(&app, 9000).await;
    let before = task_snapshot(&app, &assigned.task).await;
    let late = upload(&app, Some(&assigned.poster), &photos_path(&assigned.task), Some(png(64, 48)), &[]).await;
    assert_eq!(late.status, StatusCode::CONFLICT, "{:?}", late.body);
    let late_removal = app
        .request(
            Method::DELETE,
            &format!("{}/{}", photos_path(&assigned.task), uuid::Uuid::now_v7()),
            Some(&assigned.poster),
            None,
        )
        .await;
    assert_eq!(late_removal.status, StatusCode::CONFLICT);
    assert_task_unchanged(&app, &assigned.task, &before, "photo changes after assignment").await;
    app
}

async fn files_that_are_not_pictures_are_refused(app: TestApp) -> TestApp {
    let token = poster(&app, "files@example.com").await;
    let task = id(&post_task(&app, &token, json!({})).await);
    let before = task_snapshot(&app, &task).await;
    for (bytes, what) in [(b"#!/bin/sh\necho hi\n".to_vec(), "a script"), (b"%PDF-1.7\n".to_vec(), "a PDF")] {
        let response = upload(&app, Some(&token), &photos_path(&task), Some(bytes), &[]).await;
        assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY, "{what}: {:?}", response.body);
        assert_eq!(response.field_error("file"), "Please upload an image file (JPEG, PNG, GIF or WebP)");
    }
    // A GIF header over garbage declares an absurd size: refused from the header, never decoded.
    let fake_gif = upload(&app, Some(&token), &photos_path(&task), Some(b"GIF89a but not really".to_vec()), &[]).await;
    assert_eq!(fake_gif.status, StatusCode::UNPROCESSABLE_ENTITY, "{:?}", fake_gif.body);
    assert!(!fake_gif.field_error("file").is_empty());
    let no_file = upload(&app, Some(&token), &photos_path(&task), None, &[("title", "no file")]).await;
    assert_eq!(no_file.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(no_file.field_error("file"), "Please choose an image to upload");
    let mut huge = png(8, 8);
    huge.resize(10 * 1024 * 1024 + 1, 0);
    let too_large = upload(&app, Some(&token), &photos_path(&task), Some(huge), &[]).await;
    assert_eq!(too_large.status, StatusCode::PAYLOAD_TOO_LARGE, "{:?}", too_large.body);
    let json_body = app.post(&photos_path(&task), Some(&token), json!({ "file": "x" })).await;
    assert_eq!(json_body.status, StatusCode::BAD_REQUEST);
    assert_task_unchanged(&app, &task, &before, "refused files").await;
    app
}

/// A minimal built web app, so `/task/{id}` serves its page with the preview tags.
fn with_task_page(config: &mut Config) {
    let dist = config.data_dir.join("web-dist");
    std::fs::create_dir_all(&dist).unwrap();
    let index = "<!doctype html><html><head><title>Taskhub</title>\
                 <meta name=\"description\" content=\"Taskhub\"></head><body></body></html>";
    std::fs::write(dist.join("index.html"), index).unwrap();
    config.web_dist = dist;
}

async fn the_first_photo_is_the_link_preview_image(app: TestApp) -> TestApp {
    let token = poster(&app, "preview@example.com").await;
    let task = id(&post_task(&app, &token, json!({})).await);
    let page = |app: &TestApp| {
        let path = format!("/task/{task}");
        let request = app.client.get(app.url(&path));
        async move { request.send().await.unwrap().text().await.unwrap() }
    };
    let without = page(&app).await;
    assert!(without.contains("og:title") && !without.contains("og:image"), "{without}");
    assert!(without.contains("content=\"summary\""), "{without}");
    let photo = add_photo(&app, &token, &task, png(300, 200)).await;
    add_photo(&app, &token, &task, png(300, 200)).await;
    let with = page(&app).await;
    let image = app.url(str_of(&photo, "url"));
    assert!(with.contains(&format!("<meta property=\"og:image\" content=\"{image}\" />")), "{with}");
    assert!(with.contains("content=\"summary_large_image\""), "{with}");
    app
}

/// The task's page and the browse list change with the photos, without reloading: each change is
/// a `task.updated` carrying the task's photos (all of them on `task:{id}`, the first on the feed).
async fn watchers_see_photos_added_and_removed_live(app: TestApp) -> TestApp {
    let token = poster(&app, "live-photos@example.com").await;
    let task = id(&post_task(&app, &token, json!({ "title": "Regrout the shower" })).await);
    let task_topic = format!("task:{task}");
    let mut watcher = connect(&app, None).await;
    subscribe(&mut watcher, &task_topic).await;
    subscribe(&mut watcher, "tasks").await;
    let has_photos =
        |count: usize| move |data: &serde_json::Value| data["photos"].as_array().map(Vec::len) == Some(count);

    let first = add_photo(&app, &token, &task, png(64, 48)).await;
    let seen = next_event_where(&mut watcher, &task_topic, "task.updated", has_photos(1)).await;
    assert_eq!(seen["photos"], json!([first]));
    let second = add_photo(&app, &token, &task, png(48, 64)).await;
    let seen = next_event_where(&mut watcher, &task_topic, "task.updated", has_photos(2)).await;
    assert_eq!(seen["photos"], json!([first, second]), "the task's page gets all its photos");
    let listed = next_event_where(&mut watcher, "tasks", "task.updated", has_photos(1)).await;
    assert_eq!(listed["photos"], json!([first]), "cards carry the first photo only");

    let path = format!("{}/{}", photos_path(&task), id(&first));
    assert_eq!(app.request(Method::DELETE, &path, Some(&token), None).await.status, StatusCode::NO_CONTENT);
    let seen = next_event_where(&mut watcher, &task_topic, "task.updated", |data| {
        data["photos"].as_array().is_some_and(|photos| photos.len() == 1 && photos[0] == second)
    })
    .await;
    assert_eq!(seen["id"], task.as_str());
    app
}
