//! Places without a network: suggestions from the embedded gazetteer when no
//! `GEOCODER_URL` is set, task coordinates (picked or resolved from the typed
//! location) and Browse's "within N km"; on both backends.

use crate::common;

use common::{
    TestApp,
    market::{id, post_task, poster},
};
use reqwest::StatusCode;
use serde_json::{Value, json};

on_both_backends!(
    suggestions_come_from_the_gazetteer_without_a_geocoder,
    a_task_stores_the_picked_place_or_resolves_the_typed_one,
    bad_coordinates_get_a_clear_error,
    browse_finds_tasks_within_a_radius,
);

async fn suggestions_come_from_the_gazetteer_without_a_geocoder(app: TestApp) -> TestApp {
    let response = app.get("/api/geocode?q=Newtown", None).await;
    assert_eq!(response.status, StatusCode::OK);
    let places = response.body.as_array().unwrap();
    assert_eq!(places.len(), 5);
    assert_eq!(places[0]["display_name"], "Newtown NSW 2042");
    let prefix = app.get("/api/geocode?q=newt", None).await;
    assert!(prefix.body.as_array().unwrap().iter().any(|place| place["display_name"] == "Newtown NSW 2042"));
    assert!((places[0]["lat"].as_f64().unwrap() + 33.898).abs() < 0.01);
    assert!((places[0]["lon"].as_f64().unwrap() - 151.178).abs() < 0.01);
    let by_postcode = app.get("/api/geocode?q=2750", None).await;
    assert!(by_postcode.body.as_array().unwrap().iter().any(|place| place["display_name"] == "Penrith NSW 2750"));
    assert_eq!(app.get("/api/geocode?q=N", None).await.body, json!([]));
    assert_eq!(app.get("/api/geocode?q=Zzzzqx", None).await.body, json!([]));
    app
}

async fn a_task_stores_the_picked_place_or_resolves_the_typed_one(app: TestApp) -> TestApp {
    let token = poster(&app, "poster@example.com").await;
    let picked = post_task(&app, &token, json!({ "location": "Newtown NSW 2042", "lat": -33.9, "lon": 151.18 })).await;
    assert_eq!((picked["lat"].as_f64(), picked["lon"].as_f64()), (Some(-33.9), Some(151.18)));
    assert_eq!(picked["remote"], false);
    let typed = post_task(&app, &token, json!({ "location": "Penrith" })).await;
    assert!((typed["lat"].as_f64().unwrap() + 33.75).abs() < 0.05, "{typed:?}");
    let unknown = post_task(&app, &token, json!({ "location": "Behind the old mill" })).await;
    assert_eq!(unknown["lat"], Value::Null);
    let remote = post_task(&app, &token, json!({ "location": "", "remote": true, "lat": -33.9, "lon": 151.18 })).await;
    assert_eq!((remote["remote"].clone(), remote["lat"].clone()), (json!(true), Value::Null));

    // Editing the location moves the task; editing anything else keeps its place.
    let path = format!("/api/tasks/{}", id(&picked));
    let retitled = app.patch(&path, Some(&token), json!({ "title": "Still in Newtown" })).await;
    assert_eq!(retitled.body["lat"].as_f64(), Some(-33.9), "{:?}", retitled.body);
    let moved = app.patch(&path, Some(&token), json!({ "location": "Penrith NSW 2750" })).await;
    assert!((moved.body["lat"].as_f64().unwrap() + 33.75).abs() < 0.05, "{:?}", moved.body);
    app
}

async fn bad_coordinates_get_a_clear_error(app: TestApp) -> TestApp {
    let token = poster(&app, "poster@example.com").await;
    for (lat, lon) in [(json!(95.0), json!(151.0)), (json!("north"), json!(151.0)), (json!(-33.9), Value::Null)] {
        let mut body = common::market::task_body("Somewhere odd");
        body["lat"] = lat;
        body["lon"] = lon;
        let response = app.post("/api/tasks", Some(&token), body).await;
        assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY, "{:?}", response.body);
        assert_eq!(response.field_error("location"), "Please pick a location from the suggestions");
    }
    app
}

async fn browse_finds_tasks_within_a_radius(app: TestApp) -> TestApp {
    let token = poster(&app, "poster@example.com").await;
    let newtown = post_task(&app, &token, json!({ "title": "In Newtown", "location": "Newtown NSW 2042" })).await;
    let penrith = post_task(&app, &token, json!({ "title": "In Penrith", "location": "Penrith NSW 2750" })).await;
    post_task(&app, &token, json!({ "title": "Nowhere known", "location": "Behind the old mill" })).await;
    let ids = |response: &common::Response| -> Vec<String> {
        response.body["items"].as_array().unwrap().iter().map(id).collect()
    };
    let near = app.get("/api/tasks?near=-33.8978,151.1785&radius_km=10", None).await;
    assert_eq!(near.status, StatusCode::OK, "{:?}", near.body);
    assert_eq!(ids(&near), vec![id(&newtown)]);
    let wider = app.get("/api/tasks?near=-33.8978,151.1785&radius_km=60", None).await;
    assert_eq!(ids(&wider), vec![id(&penrith), id(&newtown)]);
    let bad = app.get("/api/tasks?near=somewhere", None).await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(bad.field_error("near"), "Near must be a latitude and a longitude, as lat,lon");
    let too_wide = app.get("/api/tasks?near=-33.8978,151.1785&radius_km=500", None).await;
    assert_eq!(too_wide.field_error("radius_km"), "Radius must be a number of km from 1 to 100");
    app
}
