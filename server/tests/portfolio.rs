//! A tasker's portfolio: up to 12 pictures with titles, in an order they choose, on their public
//! profile; stored without metadata. Refusals leave the portfolio as it was.

use crate::common;

use common::{
    TestApp,
    images::{
        assert_fixture_has_metadata, assert_no_metadata, dimensions, fetch_jpeg, jpeg_with_metadata, png, status_of,
        str_of, upload,
    },
    market::{id, poster, tasker},
    rows::snapshot_table,
};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

on_both_backends!(
    a_tasker_builds_a_portfolio_visitors_see_in_order,
    a_portfolio_holds_at_most_twelve_items,
    portfolio_refusals_change_nothing,
);

const PORTFOLIO: &str = "/api/me/portfolio";

async fn add_item(app: &TestApp, token: &str, bytes: Vec<u8>, title: &str, description: Option<&str>) -> Value {
    let mut text = vec![("title", title)];
    if let Some(description) = description {
        text.push(("description", description));
    }
    let response = upload(app, Some(token), PORTFOLIO, Some(bytes), &text).await;
    assert_eq!(response.status, StatusCode::CREATED, "{:?}", response.body);
    response.body
}

async fn user_id(app: &TestApp, token: &str) -> String {
    app.get("/api/me", Some(token)).await.body["user"]["id"].as_str().expect("my id").to_owned()
}

async fn portfolio_of(app: &TestApp, user: &str) -> Value {
    let profile = app.get(&format!("/api/profiles/{user}"), None).await;
    assert_eq!(profile.status, StatusCode::OK, "{:?}", profile.body);
    profile.body["portfolio"].clone()
}

fn titles(portfolio: &Value) -> Vec<&str> {
    portfolio.as_array().unwrap().iter().map(|item| item["title"].as_str().unwrap()).collect()
}

async fn a_tasker_builds_a_portfolio_visitors_see_in_order(app: TestApp) -> TestApp {
    let token = tasker(&app, "builder@example.com").await;
    let me = user_id(&app, &token).await;
    assert_eq!(portfolio_of(&app, &me).await, json!([]));
    let fixture = jpeg_with_metadata();
    assert_fixture_has_metadata(&fixture);

    let deck = add_item(&app, &token, fixture, "Deck rebuild", Some("Merbau, 20 m², two days")).await;
    assert_eq!(deck["title"], "Deck rebuild");
    assert_eq!(deck["description"], "Merbau, 20 m², two days");
    let fence = add_item(&app, &token, png(2000, 1000), "  Paling fence  ", None).await;
    assert_eq!(fence["title"], "Paling fence");
    assert_eq!(fence["description"], Value::Null);
    let shed = add_item(&app, &token, png(100, 100), "Garden shed", None).await;

    let shown = portfolio_of(&app, &me).await;
    assert_eq!(shown, json!([deck, fence, shed]), "visitors see the items in the order added");
    let full = fetch_jpeg(&app, str_of(&deck, "image_url"), None).await;
    assert_no_metadata(&full);
    assert_eq!(dimensions(&full), (20, 40), "turned upright by its EXIF orientation");
    assert_no_metadata(&fetch_jpeg(&app, str_of(&deck, "thumb_url"), None).await);
    assert_eq!(dimensions(&fetch_jpeg(&app, str_of(&fence, "thumb_url"), None).await), (480, 240));

    // Edit the text; clear the description.
    let path = |item: &Value| format!("{PORTFOLIO}/{}", id(item));
    let edited = app.patch(&path(&deck), Some(&token), json!({ "title": "Deck, rebuilt", "description": null })).await;
    assert_eq!(edited.status, StatusCode::OK, "{:?}", edited.body);
    assert_eq!(edited.body["title"], "Deck, rebuilt");
    assert_eq!(edited.body["description"], Value::Null);
    assert_eq!(edited.body["image_url"], deck["image_url"]);

    // Reorder: the shed first, then the deck down one place (as the up/down buttons do).
    let moved = app.patch(&path(&shed), Some(&token), json!({ "position": 0 })).await;
    assert_eq!(moved.status, StatusCode::OK, "{:?}", moved.body);
    assert_eq!(titles(&portfolio_of(&app, &me).await), ["Garden shed", "Deck, rebuilt", "Paling fence"]);
    app.patch(&path(&deck), Some(&token), json!({ "position": 2 })).await;
    assert_eq!(titles(&portfolio_of(&app, &me).await), ["Garden shed", "Paling fence", "Deck, rebuilt"]);
    app.patch(&path(&fence), Some(&token), json!({ "position": 99 })).await;
    assert_eq!(titles(&portfolio_of(&app, &me).await), ["Garden shed", "Deck, rebuilt", "Paling fence"]);

    // Delete: gone from the profile and from the store.
    let deleted = app.request(Method::DELETE, &path(&fence), Some(&token), None).await;
    assert_eq!(deleted.status, StatusCode::NO_CONTENT);
    assert_eq!(titles(&portfolio_of(&app, &me).await), ["Garden shed", "Deck, rebuilt"]);
    assert_eq!(status_of(&app, str_of(&fence, "image_url"), None).await, StatusCode::NOT_FOUND);
    assert_eq!(status_of(&app, str_of(&fence, "thumb_url"), None).await, StatusCode::NOT_FOUND);
    app
}

async fn a_portfolio_holds_at_most_twelve_items(app: TestApp) -> TestApp {
    let token = tasker(&app, "prolific@example.com").await;
    // A whole portfolio in one sitting stays within the hourly upload limit.
    for n in 1..=12 {
        add_item(&app, &token, png(40, 30), &format!("Job {n}"), None).await;
    }
    let before = snapshot_table(&app, "portfolio_items").await;
    let thirteenth = upload(&app, Some(&token), PORTFOLIO, Some(png(40, 30)), &[("title", "Job 13")]).await;
    assert_eq!(thirteenth.status, StatusCode::UNPROCESSABLE_ENTITY, "{:?}", thirteenth.body);
    assert_eq!(thirteenth.field_error("file"), "A portfolio can hold at most 12 items; delete one to add another");
    assert_eq!(snapshot_table(&app, "portfolio_items").await, before, "a 13th item changed the portfolio");
    assert_eq!(portfolio_of(&app, &user_id(&app, &token).await).await.as_array().unwrap().len(), 12);
    app
}

async fn portfolio_refusals_change_nothing(app: TestApp) -> TestApp {
    let token = tasker(&app, "careful@example.com").await;
    let other = tasker(&app, "other@example.com").await;
    let customer = poster(&app, "customer@example.com").await;
    let item = add_item(&app, &token, png(40, 30), "Bathroom tiling", Some("Floor and walls")).await;
    let before = snapshot_table(&app, "portfolio_items").await;

    let by_customer = upload(&app, Some(&customer), PORTFOLIO, Some(png(40, 30)), &[("title", "Mine")]).await;
    assert_eq!(by_customer.status, StatusCode::FORBIDDEN, "{:?}", by_customer.body);
    let anonymous = upload(&app, None, PORTFOLIO, Some(png(40, 30)), &[("title", "Mine")]).await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
    let untitled = upload(&app, Some(&token), PORTFOLIO, Some(png(40, 30)), &[("title", "  ")]).await;
    assert_eq!(untitled.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(untitled.field_error("title"), "Please give the item a title (up to 80 characters)");
    let not_a_picture = upload(&app, Some(&token), PORTFOLIO, Some(b"<svg/>".to_vec()), &[("title", "Logo")]).await;
    assert_eq!(not_a_picture.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(not_a_picture.field_error("file"), "Please upload an image file (JPEG, PNG, GIF or WebP)");
    let no_file = upload(&app, Some(&token), PORTFOLIO, None, &[("title", "Nothing")]).await;
    assert_eq!(no_file.field_error("file"), "Please choose an image to upload");
    let long = "d".repeat(501);
    let too_long =
        upload(&app, Some(&token), PORTFOLIO, Some(png(40, 30)), &[("title", "Long"), ("description", &long)]).await;
    assert_eq!(too_long.field_error("description"), "Descriptions can be up to 500 characters");

    let path = format!("{PORTFOLIO}/{}", id(&item));
    let someone_elses = app.patch(&path, Some(&other), json!({ "title": "Stolen" })).await;
    assert_eq!(someone_elses.status, StatusCode::NOT_FOUND);
    let deleted_by_other = app.request(Method::DELETE, &path, Some(&other), None).await;
    assert_eq!(deleted_by_other.status, StatusCode::NOT_FOUND);
    let negative = app.patch(&path, Some(&token), json!({ "position": -1 })).await;
    assert_eq!(negative.status, StatusCode::UNPROCESSABLE_ENTITY);
    let blank = app.patch(&path, Some(&token), json!({ "title": "" })).await;
    assert_eq!(blank.status, StatusCode::UNPROCESSABLE_ENTITY);
    let unknown = app.patch(&format!("{PORTFOLIO}/{}", uuid::Uuid::now_v7()), Some(&token), json!({})).await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);

    assert_eq!(snapshot_table(&app, "portfolio_items").await, before, "refusals changed the portfolio");
    app
}
