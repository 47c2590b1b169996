//! `server seed --demo` fills a believable marketplace once, and only once, with one tasker
//! phone- and ID-verified whose portfolio pictures are real JPEGs from the media pipeline.

use crate::common;

use common::TestApp;
use reqwest::StatusCode;
use serde_json::json;
use server::seed::{DEMO_PASSWORD, DEMO_PEOPLE, seed_demo, verified_tasker::VERIFIED_TASKER};

on_both_backends!(demo_seed_is_complete_and_idempotent);

async fn demo_seed_is_complete_and_idempotent(app: TestApp) -> TestApp {
    let state = &app.server.state;
    let first = seed_demo(&state.db, &state.media).await.unwrap();
    assert!(first.contains("12 people created") && first.contains("1 tasker verified"), "{first}");
    let second = seed_demo(&state.db, &state.media).await.unwrap();
    assert!(second.contains("0 people created") && second.contains("0 tasks and 0 offers"), "{second}");
    assert!(second.contains("0 tasker verified"), "{second}");

    let login =
        app.post("/api/auth/login", None, json!({ "email": DEMO_PEOPLE[1].email(), "password": DEMO_PASSWORD })).await;
    assert_eq!(login.status, StatusCode::OK);
    let avatar = login.body["profile"]["avatar_url"].as_str().unwrap();
    let picture = app.client.get(app.url(avatar)).send().await.unwrap();
    assert_eq!(picture.status(), StatusCode::OK);
    assert_eq!(picture.headers()["content-type"], "image/png");

    let browse = app.get("/api/tasks?limit=100", None).await;
    let items = browse.body["items"].as_array().unwrap();
    assert_eq!(items.len(), 34);
    let categories: std::collections::BTreeSet<i64> =
        items.iter().map(|task| task["category_id"].as_i64().unwrap()).collect();
    assert_eq!(categories.len(), 16, "every category has a task");
    assert!(items.iter().any(|task| task["offer_count"].as_i64().unwrap() > 0));
    verified_tasker_has_badges_and_a_portfolio(&app).await;
    app
}

async fn verified_tasker_has_badges_and_a_portfolio(app: &TestApp) {
    let login = app
        .post(
            "/api/auth/login",
            None,
            json!({ "email": DEMO_PEOPLE[VERIFIED_TASKER].email(), "password": DEMO_PASSWORD }),
        )
        .await;
    assert_eq!(login.status, StatusCode::OK);
    let tasker_id = login.body["user"]["id"].as_str().unwrap().to_owned();
    let token = login.body["access_token"].as_str().unwrap().to_owned();
    let me = app.get("/api/me/verification", Some(&token)).await;
    assert_eq!(me.status, StatusCode::OK, "{:?}", me.body);
    assert_eq!(me.body["phone_number"], "+61491570156");
    assert_eq!((me.body["phone"].as_bool(), me.body["identity"].as_bool()), (Some(true), Some(true)));

    let profile = app.get(&format!("/api/profiles/{tasker_id}"), None).await.body;
    assert_eq!(profile["verified"]["phone"], true);
    assert_eq!(profile["verified"]["identity"], true);
    let portfolio = profile["portfolio"].as_array().unwrap();
    let titles: Vec<&str> = portfolio.iter().map(|item| item["title"].as_str().unwrap()).collect();
    assert_eq!(titles, ["Spotted gum deck, Northcote", "Built-in study desk", "Cedar front door refit"]);
    for item in portfolio {
        for (url, longest) in [(&item["image_url"], 960), (&item["thumb_url"], 480)] {
            let picture = app.client.get(app.url(url.as_str().unwrap())).send().await.unwrap();
            assert_eq!(picture.status(), StatusCode::OK, "{url}");
            assert_eq!(picture.headers()["content-type"], "image/jpeg");
            let image = image::load_from_memory(&picture.bytes().await.unwrap()).unwrap();
            assert_eq!(image.width().max(image.height()), longest, "{url}: re-encoded by the media pipeline");
        }
    }

    // The badges show where posters choose: on the tasker's offers.
    let browse = app.get("/api/tasks?limit=100", None).await.body;
    let furniture =
        browse["items"].as_array().unwrap().iter().find(|task| task["title"] == "Assemble IKEA PAX wardrobe");
    let task_id = furniture.unwrap()["id"].as_str().unwrap();
    let offers = app.get(&format!("/api/tasks/{task_id}/offers"), None).await.body;
    let offers = offers.as_array().or_else(|| offers["items"].as_array()).unwrap().clone();
    let jacks =
        offers.iter().find(|offer| offer["tasker"]["id"] == tasker_id.as_str()).expect("an offer from the tasker");
    assert_eq!(jacks["tasker"]["verified"], json!({ "identity": true, "phone": true }), "{jacks}");
}
