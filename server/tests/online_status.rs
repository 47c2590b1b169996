//! Online and last seen for the two parties of an assigned task (`online:{user id}` over `/ws`):
//! the other party sees it, a stranger and a visitor are refused, and `share_online` off hides it
//! both ways. On both databases and both buses.

use crate::common;

use common::{
    TestApp,
    escrow::assigned_task,
    live::{Socket, connect, next_json, send_json},
};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

async fn user_id(app: &TestApp, token: &str) -> String {
    app.get("/api/me", Some(token)).await.body["user"]["id"].as_str().expect("my id").to_owned()
}

async fn set_share_online(app: &TestApp, token: &str, share: bool) {
    let saved = app.request(Method::PUT, "/api/me/privacy", Some(token), Some(json!({ "share_online": share }))).await;
    assert_eq!(saved.status, StatusCode::OK, "{:?}", saved.body);
}

/// Subscribes to `online:{user}`: the state sent after `subscribed`, or the refusal.
async fn watch(socket: &mut Socket, user: &str) -> Value {
    let topic = format!("online:{user}");
    send_json(socket, json!({ "type": "subscribe", "topic": topic })).await;
    loop {
        let message = next_json(socket).await;
        let about_it = message["topic"] == topic.as_str() || message["topic"] == format!("user:{user}").as_str();
        if about_it && matches!(message["type"].as_str(), Some("presence" | "error")) {
            return message;
        }
    }
}

/// A socket of `user` that the server has taken in. `connect` returns once the upgrade is
/// answered, and the server counts the user online only when it starts serving the socket, a
/// moment later; a round trip on the socket (its own topic) waits for that.
async fn connected(app: &TestApp, token: &str, user: &str) -> Socket {
    let mut socket = connect(app, Some(token)).await;
    common::live::subscribe(&mut socket, &format!("user:{user}")).await;
    socket
}

/// The next state of `user` the socket hears.
async fn next_state(socket: &mut Socket, user: &str) -> Value {
    loop {
        let message = next_json(socket).await;
        if message["type"] == "presence" && message["topic"] == format!("user:{user}").as_str() {
            return message;
        }
    }
}

on_both_backends_and_buses!(the_other_party_sees_online_then_last_seen_and_strangers_nothing);

mod privacy {
    use super::*;
    on_both_backends!(share_online_off_hides_it_both_ways);
}

mod after_the_job {
    use super::*;
    on_both_backends!(online_state_is_for_a_job_under_way_only);
}

/// Security review 3: a poster still saw the tasker online after the task was completed. Online
/// state is for the parties of a job under way (assigned, or waiting for release): once released,
/// a new watch is refused. One row per way a job ends: released, cancelled.
async fn online_state_is_for_a_job_under_way_only(app: TestApp) -> TestApp {
    for ends_by_release in [true, false] {
        let assigned = assigned_task(&app, 8_000).await;
        let (poster, tasker) = (&assigned.poster, &assigned.tasker);
        let tasker_id = user_id(&app, tasker).await;
        let mut during = connect(&app, Some(poster)).await;
        assert_eq!(watch(&mut during, &tasker_id).await["type"], "presence", "while the job is under way");
        let ended = if ends_by_release {
            app.post(&format!("/api/tasks/{}/release", assigned.task), Some(poster), json!({})).await
        } else {
            let path = format!("/api/tasks/{}/cancellation", assigned.task);
            let asked = app.post(&path, Some(poster), json!({ "reason": "Plans changed" })).await;
            assert_eq!(asked.status, StatusCode::CREATED, "{:?}", asked.body);
            app.post(&format!("{path}/accept"), Some(tasker), json!({})).await
        };
        assert_eq!(ended.status, StatusCode::OK, "{:?}", ended.body);
        let mut after = connect(&app, Some(poster)).await;
        let refused = watch(&mut after, &tasker_id).await;
        assert_eq!(
            (refused["type"].as_str(), refused["code"].as_str()),
            (Some("error"), Some("forbidden")),
            "after the job ({}): {refused}",
            if ends_by_release { "released" } else { "cancelled" }
        );
    }
    app
}

async fn the_other_party_sees_online_then_last_seen_and_strangers_nothing(app: TestApp) -> TestApp {
    let assigned = assigned_task(&app, 8_000).await;
    let (poster, tasker) = (&assigned.poster, &assigned.tasker);
    let tasker_id = user_id(&app, tasker).await;
    let mut poster_socket = connect(&app, Some(poster)).await;
    let never = watch(&mut poster_socket, &tasker_id).await;
    assert_eq!(
        never,
        json!({ "type": "presence", "topic": format!("user:{tasker_id}"), "online": false, "last_seen": null })
    );

    let tasker_socket = connect(&app, Some(tasker)).await;
    assert_eq!(next_state(&mut poster_socket, &tasker_id).await["online"], true);
    drop(tasker_socket);
    let offline = next_state(&mut poster_socket, &tasker_id).await;
    assert_eq!(offline["online"], false, "{offline}");
    let last_seen = offline["last_seen"].as_str().expect("a last-seen time").to_owned();
    assert!(last_seen.ends_with('Z'), "{last_seen}");

    // A reload (a new socket, maybe on another node) gets the stored time.
    let mut reloaded = connect(&app, Some(poster)).await;
    let again = watch(&mut reloaded, &tasker_id).await;
    assert_eq!(again["online"], false);
    assert!(again["last_seen"].as_str().is_some(), "{again}");

    let stranger = common::market::tasker(&app, "stranger@example.com").await;
    let mut stranger_socket = connect(&app, Some(&stranger)).await;
    let refused = watch(&mut stranger_socket, &tasker_id).await;
    assert_eq!((refused["type"].as_str(), refused["code"].as_str()), (Some("error"), Some("forbidden")), "{refused}");
    let mut visitor = connect(&app, None).await;
    assert_eq!(watch(&mut visitor, &tasker_id).await["code"], "forbidden");
    app
}

async fn share_online_off_hides_it_both_ways(app: TestApp) -> TestApp {
    let assigned = assigned_task(&app, 8_000).await;
    let (poster, tasker) = (&assigned.poster, &assigned.tasker);
    let (poster_id, tasker_id) = (user_id(&app, poster).await, user_id(&app, tasker).await);
    let mut poster_socket = connected(&app, poster, &poster_id).await;
    let mut tasker_socket = connected(&app, tasker, &tasker_id).await;
    assert_eq!(watch(&mut poster_socket, &tasker_id).await["online"], true, "both share by default");
    assert_eq!(watch(&mut tasker_socket, &poster_id).await["online"], true);

    set_share_online(&app, tasker, false).await;
    let nothing = json!({ "online": false, "last_seen": null });
    for (socket, about) in [(&mut poster_socket, &tasker_id), (&mut tasker_socket, &poster_id)] {
        let state = next_state(socket, about).await;
        assert_eq!(
            json!({ "online": state["online"], "last_seen": state["last_seen"] }),
            nothing,
            "screens open now stop showing it: {state}"
        );
    }
    let hidden = watch(&mut poster_socket, &tasker_id).await;
    assert_eq!((hidden["type"].as_str(), hidden["code"].as_str()), (Some("error"), Some("forbidden")), "{hidden}");
    let own_off = watch(&mut tasker_socket, &poster_id).await;
    assert_eq!(own_off["code"], "forbidden", "whoever shares nothing sees nothing: {own_off}");

    set_share_online(&app, tasker, true).await;
    set_share_online(&app, poster, false).await;
    assert_eq!(watch(&mut tasker_socket, &poster_id).await["code"], "forbidden");
    assert_eq!(watch(&mut poster_socket, &tasker_id).await["code"], "forbidden");

    set_share_online(&app, poster, true).await;
    let shown = watch(&mut tasker_socket, &poster_id).await;
    assert_eq!((shown["type"].as_str(), shown["online"].as_bool()), (Some("presence"), Some(true)), "{shown}");
    app
}
