//! Location suggestions through a fake Nominatim, the contact form and the contact facts the app shows.

use crate::common;

use std::time::{Duration, Instant};

use common::{Backend, TestApp};
use reqwest::StatusCode;
use serde_json::json;
use wiremock::{
    Mock, MockServer, ResponseTemplate,
    matchers::{header_exists, method, path, query_param},
};

async fn with_geocoder<F, Fut>(backend: Backend, upstream: &MockServer, test: F)
where
    F: FnOnce(TestApp) -> Fut,
    Fut: Future<Output = TestApp>,
{
    let url = upstream.uri();
    common::run(backend, move |config| config.geocoder_url = Some(url), test).await;
}

fn places() -> serde_json::Value {
    json!([
        { "display_name": "Newtown, Sydney, NSW, Australia", "lat": "-33.8978", "lon": "151.1793", "place_id": 1 },
        { "display_name": "Newtown, Geelong, VIC, Australia", "lat": "-38.1530", "lon": "144.3349" },
    ])
}

on_both_backends!(given_backend;
    geocode_asks_for_five_australian_results_and_caches_them,
    geocode_answers_empty_for_short_queries_and_upstream_failures,
    geocode_sends_at_most_one_upstream_request_per_second,
    a_busy_geocoder_slot_answers_from_the_gazetteer_at_once,
    geocode_is_limited_per_client,
    contact_form_is_stored_and_mailed_to_support,
    site_shows_the_configured_contacts_and_hides_what_is_unset
);

async fn geocode_asks_for_five_australian_results_and_caches_them(backend: Backend) {
    let upstream = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/search"))
        .and(query_param("format", "json"))
        .and(query_param("q", "Newtown"))
        .and(query_param("countrycodes", "au"))
        .and(query_param("limit", "5"))
        .and(header_exists("user-agent"))
        .respond_with(ResponseTemplate::new(200).set_body_json(places()))
        .expect(1)
        .mount(&upstream)
        .await;
    with_geocoder(backend, &upstream, |app| async move {
        let first = app.get("/api/geocode?q=Newtown", None).await;
        assert_eq!(first.status, StatusCode::OK);
        assert_eq!(first.body[0]["display_name"], "Newtown, Sydney, NSW, Australia");
        assert_eq!(first.body[0]["lat"], -33.8978);
        assert_eq!(first.body.as_array().unwrap().len(), 2);
        assert!(first.body[0].get("place_id").is_none());
        let cached = app.get("/api/geocode?q=newtown", None).await;
        assert_eq!(cached.body, first.body);
        app
    })
    .await;
    upstream.verify().await;
}

async fn geocode_answers_empty_for_short_queries_and_upstream_failures(backend: Backend) {
    let upstream = MockServer::start().await;
    Mock::given(path("/search"))
        .and(query_param("q", "Broken"))
        .respond_with(ResponseTemplate::new(500))
        .mount(&upstream)
        .await;
    Mock::given(path("/search"))
        .and(query_param("q", "Garbled"))
        .respond_with(ResponseTemplate::new(200).set_body_string("<html>"))
        .mount(&upstream)
        .await;
    with_geocoder(backend, &upstream, |app| async move {
        for query in ["", "N", "%20N%20"] {
            let response = app.get(&format!("/api/geocode?q={query}"), None).await;
            assert_eq!((response.status, response.body.clone()), (StatusCode::OK, json!([])), "{query:?}");
        }
        assert_eq!(app.get("/api/geocode", None).await.body, json!([]));
        assert_eq!(app.get("/api/geocode?q=Broken", None).await.body, json!([]));
        assert_eq!(app.get("/api/geocode?q=Garbled", None).await.body, json!([]));
        app
    })
    .await;
    let requests = upstream.received_requests().await.unwrap();
    assert_eq!(requests.len(), 2, "short queries never reach the geocoder");
}

async fn geocode_sends_at_most_one_upstream_request_per_second(backend: Backend) {
    let upstream = MockServer::start().await;
    Mock::given(path("/search"))
        .respond_with(ResponseTemplate::new(200).set_body_json(places()))
        .mount(&upstream)
        .await;
    with_geocoder(backend, &upstream, |app| async move {
        let started = Instant::now();
        for q in ["Bondi", "Manly", "Coogee"] {
            let response = app.get(&format!("/api/geocode?q={q}"), None).await;
            assert_eq!(response.body[0]["display_name"], "Newtown, Sydney, NSW, Australia", "{q} went upstream");
        }
        assert!(started.elapsed() >= Duration::from_millis(1900), "three upstream calls took {:?}", started.elapsed());
        app
    })
    .await;
    assert_eq!(upstream.received_requests().await.unwrap().len(), 3);
}

async fn a_busy_geocoder_slot_answers_from_the_gazetteer_at_once(backend: Backend) {
    let upstream = MockServer::start().await;
    Mock::given(path("/search"))
        .respond_with(ResponseTemplate::new(200).set_body_json(places()).set_delay(Duration::from_secs(2)))
        .mount(&upstream)
        .await;
    with_geocoder(backend, &upstream, |app| async move {
        let slow = app.get("/api/geocode?q=Somewhere%20slow", None);
        let meanwhile = async {
            tokio::time::sleep(Duration::from_millis(300)).await;
            let started = Instant::now();
            let response = app.get("/api/geocode?q=Newtown", None).await;
            (started.elapsed(), response)
        };
        let (slow, (waited, meanwhile)) = tokio::join!(slow, meanwhile);
        assert_eq!(slow.body.as_array().unwrap().len(), 2, "the first query went upstream");
        assert!(waited < Duration::from_millis(500), "waited {waited:?} behind another query");
        let names: Vec<&str> =
            meanwhile.body.as_array().unwrap().iter().map(|place| place["display_name"].as_str().unwrap()).collect();
        assert!(names.contains(&"Newtown NSW 2042"), "{names:?}");
        app
    })
    .await;
    assert_eq!(upstream.received_requests().await.unwrap().len(), 1);
}

async fn geocode_is_limited_per_client(backend: Backend) {
    common::run(
        backend,
        |_| {},
        |app| async move {
            for _ in 0..60 {
                assert_eq!(app.get("/api/geocode?q=Newt", None).await.status, StatusCode::OK);
            }
            let refused = app.get("/api/geocode?q=Newt", None).await;
            assert_eq!((refused.status, refused.error_code()), (StatusCode::TOO_MANY_REQUESTS, "rate_limited"));
            app
        },
    )
    .await;
}

async fn contact_form_is_stored_and_mailed_to_support(backend: Backend) {
    common::run(backend, |_| {}, |app| async move {
        let missing = app.post("/api/contact", None, json!({ "email": "nope" })).await;
        assert_eq!(missing.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(missing.field_error("name"), "Name is required");
        assert_eq!(missing.field_error("email"), "Email is invalid");
        assert_eq!(missing.field_error("subject"), "Subject is required");
        assert_eq!(missing.field_error("message"), "Message is required");
        let sent = app
            .post("/api/contact", None, json!({ "name": "Jo", "email": "jo@example.com", "subject": "Refund", "message": "Where is my refund?" }))
            .await;
        assert_eq!(sent.status, StatusCode::ACCEPTED, "{:?}", sent.body);
        let stored: Vec<(String, String, String, String)> = store::on_pool!(&app.server.state.db, |pool| {
            sqlx::query_as("select name, email, subject, message from contact_messages").fetch_all(pool).await.unwrap()
        });
        let expected = ["Jo", "jo@example.com", "Refund", "Where is my refund?"].map(String::from);
        assert_eq!(stored, vec![expected.into()], "the message is stored once, as sent");
        for _ in 0..100 {
            let mail = app.mailbox().await;
            if let Some(mail) = mail.iter().find(|mail| mail["to"] == "support@taskhub.local") {
                assert!(mail["subject"].as_str().unwrap().contains("Refund"));
                assert!(mail["text"].as_str().unwrap().contains("Where is my refund?"));
                return app;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("no mail reached support");
    })
    .await;
}

async fn site_shows_the_configured_contacts_and_hides_what_is_unset(backend: Backend) {
    common::run(
        backend,
        |_| {},
        |app| async move {
            let site = app.get("/api/site", None).await;
            assert_eq!(site.status, StatusCode::OK);
            assert_eq!(
                site.body,
                json!({
                    "support_email": "support@taskhub.local",
                    "business_email": null,
                    "support_phone": null,
                    "support_hours": "Monday-Friday 9am-6pm EST",
                    "social": [],
                })
            );
            app
        },
    )
    .await;
    let configure = |config: &mut domain::config::Config| {
        config.support_email = "help@taskhub.com.au".into();
        config.business_email = Some("partners@taskhub.com.au".into());
        config.support_phone = Some("+61 2 9000 0000".into());
        config.social_links = domain::config::parse_social_links("Facebook=https://facebook.com/taskhub").unwrap();
    };
    common::run(backend, configure, |app| async move {
        let site = app.get("/api/site", None).await;
        assert_eq!(site.body["support_email"], "help@taskhub.com.au");
        assert_eq!(site.body["business_email"], "partners@taskhub.com.au");
        assert_eq!(site.body["support_phone"], "+61 2 9000 0000");
        assert_eq!(site.body["social"], json!([{ "name": "Facebook", "url": "https://facebook.com/taskhub" }]));
        app
    })
    .await;
}
