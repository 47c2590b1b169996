//! Alert writes cannot be turned against the database, on both backends. The
//! review's alert centred near the North Pole with all 16 categories wrote
//! 16,656 index rows one INSERT at a time, every PATCH (a rename too) rewrote
//! them, and eight such alerts PATCHed in a loop made another user's writes
//! fail with "database is locked".

use model::alerts::MAX_CELLS_PER_ALERT;

use crate::common;

use common::{
    TestApp,
    market::{poster, tasker},
};
use futures_util::future::join_all;
use reqwest::StatusCode;
use serde_json::{Value, json};
use uuid::Uuid;

const HOBART: (f64, f64) = (-42.88, 147.33);

/// The widest alert the rules allow: 15 categories (all 16 are indexed as "any"), 100 km, in
/// Tasmania where the grid cells are narrow.
fn widest_alert(name: &str) -> Value {
    json!({
        "name": name,
        "categories": (1..=15).collect::<Vec<i64>>(),
        "place": { "label": "Hobart TAS 7000", "lat": HOBART.0, "lon": HOBART.1 },
        "radius_km": 100,
        "remote_ok": true,
    })
}

async fn index_rows(app: &TestApp, alert: Uuid) -> i64 {
    store::on_pool!(&app.server.state.db, |pool| {
        sqlx::query_scalar::<_, i64>("select count(*) from task_alert_keys where alert_id = $1")
            .bind(alert)
            .fetch_one(pool)
            .await
            .unwrap()
    })
}

async fn total_rows(app: &TestApp) -> (i64, i64) {
    store::on_pool!(&app.server.state.db, |pool| {
        let alerts = sqlx::query_scalar::<_, i64>("select count(*) from task_alerts").fetch_one(pool).await.unwrap();
        let keys = sqlx::query_scalar::<_, i64>("select count(*) from task_alert_keys").fetch_one(pool).await.unwrap();
        (alerts, keys)
    })
}

/// A row of our own in the alert's index: any rewrite of the index removes it.
async fn plant_marker(app: &TestApp, alert: Uuid) {
    store::on_pool!(&app.server.state.db, |pool| {
        sqlx::query("insert into task_alert_keys (category_id, cell, alert_id) values (99, 123456789, $1)")
            .bind(alert)
            .execute(pool)
            .await
            .unwrap()
            .rows_affected()
    });
}

async fn marker_kept(app: &TestApp, alert: Uuid) -> bool {
    store::on_pool!(&app.server.state.db, |pool| {
        sqlx::query_scalar::<_, i64>("select count(*) from task_alert_keys where alert_id = $1 and category_id = 99")
            .bind(alert)
            .fetch_one(pool)
            .await
            .unwrap()
    }) == 1
}

async fn the_review_pole_alert_is_refused_with_a_field_message(app: TestApp) -> TestApp {
    let token = tasker(&app, "polar@example.com").await;
    let before = total_rows(&app).await;
    let pole = json!({
        "categories": (1..=16).collect::<Vec<i64>>(),
        "place": { "label": "North Pole", "lat": 89.9, "lon": 0.0 },
        "radius_km": 100,
    });
    let refused = app.post("/api/me/alerts", Some(&token), pole).await;
    assert_eq!(
        (refused.status, refused.field_error("place")),
        (StatusCode::UNPROCESSABLE_ENTITY, "Please pick a place in Australia"),
        "{:?}",
        refused.body
    );
    let london = json!({ "q": "plumbing", "place": { "label": "London", "lat": 51.5, "lon": -0.12 } });
    assert_eq!(
        app.post("/api/me/alerts", Some(&token), london).await.field_error("place"),
        "Please pick a place in Australia"
    );
    assert_eq!(total_rows(&app).await, before, "nothing was written");
    app
}

async fn a_rename_or_a_pause_does_not_rewrite_the_index(app: TestApp) -> TestApp {
    let token = tasker(&app, "renamer@example.com").await;
    let created = app.post("/api/me/alerts", Some(&token), widest_alert("Everything near Hobart")).await;
    assert_eq!(created.status, StatusCode::CREATED, "{:?}", created.body);
    let alert: Uuid = created.body["id"].as_str().unwrap().parse().unwrap();
    let rows = index_rows(&app, alert).await;
    assert!(rows <= 15 * (MAX_CELLS_PER_ALERT as i64 + 1), "{rows} index rows");
    plant_marker(&app, alert).await;

    let path = format!("/api/me/alerts/{alert}");
    let renamed = app.patch(&path, Some(&token), json!({ "name": "Hobart and around" })).await;
    assert_eq!((renamed.status, renamed.body["name"].as_str()), (StatusCode::OK, Some("Hobart and around")));
    let paused = app.patch(&path, Some(&token), json!({ "paused": true, "q": "garden" })).await;
    assert_eq!(paused.status, StatusCode::OK);
    assert!(marker_kept(&app, alert).await, "a rename or a pause rewrote the index");
    assert_eq!(index_rows(&app, alert).await, rows + 1);

    // Changing what it covers does rewrite it.
    let narrower = app.patch(&path, Some(&token), json!({ "radius_km": 10 })).await;
    assert_eq!(narrower.status, StatusCode::OK);
    assert!(!marker_kept(&app, alert).await);
    assert!(index_rows(&app, alert).await < rows);
    app
}

async fn alert_writes_are_limited_per_account_and_never_fail_another_users_writes(app: TestApp) -> TestApp {
    let attacker = tasker(&app, "flooder@example.com").await;
    let victim = poster(&app, "bystander@example.com").await;
    let mut alerts = Vec::new();
    for n in 0..8 {
        let created = app.post("/api/me/alerts", Some(&attacker), widest_alert(&format!("Flood {n}"))).await;
        assert_eq!(created.status, StatusCode::CREATED, "{:?}", created.body);
        alerts.push(created.body["id"].as_str().unwrap().to_owned());
    }
    // Eight loops rewriting the widest alerts (radius back and forth) while someone else writes.
    let flood = join_all(alerts.iter().map(|alert| {
        let (app, attacker) = (&app, &attacker);
        async move {
            let mut statuses = Vec::new();
            for round in 0..12 {
                let radius = if round % 2 == 0 { 99 } else { 100 };
                let response =
                    app.patch(&format!("/api/me/alerts/{alert}"), Some(attacker), json!({ "radius_km": radius })).await;
                statuses.push(response.status);
            }
            statuses
        }
    }));
    let bystander = async {
        let mut statuses = Vec::new();
        for n in 0..10 {
            let body = json!({ "q": format!("gutters {n}"), "categories": [3] });
            statuses.push(app.post("/api/me/alerts", Some(&victim), body).await.status);
            let profile = app.patch("/api/me/profile", Some(&victim), json!({ "bio": format!("Bio {n}") })).await;
            statuses.push(profile.status);
        }
        statuses
    };
    let (flood, bystander) = tokio::join!(flood, bystander);
    assert!(bystander.iter().all(|status| status.is_success()), "another user's writes failed: {bystander:?}");
    let flood: Vec<StatusCode> = flood.into_iter().flatten().collect();
    assert!(flood.iter().all(|status| status.is_success() || *status == StatusCode::TOO_MANY_REQUESTS), "{flood:?}");
    let allowed = flood.iter().filter(|status| status.is_success()).count();
    // 8 creations and 52 changes make the 60 writes an hour one account may make.
    assert_eq!(allowed, 52, "{flood:?}");
    let throttled = app.patch(&format!("/api/me/alerts/{}", alerts[0]), Some(&attacker), json!({ "name": "x" })).await;
    assert_eq!(throttled.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(throttled.body["error"]["message"].is_string());
    app
}

on_both_backends!(
    the_review_pole_alert_is_refused_with_a_field_message,
    a_rename_or_a_pause_does_not_rewrite_the_index,
    alert_writes_are_limited_per_account_and_never_fail_another_users_writes,
);
