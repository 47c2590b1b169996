//! `Hub::disconnect`: the server closes the sockets of an ended session (4001) or of a user, on
//! every node, also while Redis is unreachable.
use crate::common;

use common::{Client, RedisServer, connect, redis_url, start, test_config};
use realtime::{BusConfig, CLOSE_UNAUTHORIZED, Disconnect, Hub};
use serde_json::json;

fn unique(prefix: &str) -> String {
    format!("{prefix}-{}", uuid::Uuid::new_v4())
}

async fn signed_in(addr: std::net::SocketAddr, user: &str, session: &str) -> Client {
    let mut client = connect(addr, &format!("?user={user}&session={session}")).await;
    let subscribed = client.next().await;
    assert_eq!(
        (subscribed["type"].as_str(), subscribed["topic"].as_str()),
        (Some("subscribed"), Some(&*format!("user:{user}")))
    );
    client
}

async fn still_receives(hub: &Hub, client: &mut Client, user: &str) {
    hub.publish(&format!("user:{user}"), "notification.created", &json!({"id": "n"})).await;
    assert_eq!(client.next_event().await["event"], "notification.created");
}

#[tokio::test]
async fn a_session_disconnect_closes_that_sessions_sockets_only_and_a_user_disconnect_all_of_theirs() {
    let (hub, addr) = start(test_config(), BusConfig::Local).await;
    let (user, other_user) = (unique("u"), unique("u"));
    let (ended, kept) = (unique("s"), unique("s"));
    let mut ended_a = signed_in(addr, &user, &ended).await;
    let mut ended_b = signed_in(addr, &user, &ended).await;
    let mut same_user_other_session = signed_in(addr, &user, &kept).await;
    let mut someone_else = signed_in(addr, &other_user, &unique("s")).await;
    let mut visitor = connect(addr, "").await;

    hub.disconnect(Disconnect::Session(ended.clone()), CLOSE_UNAUTHORIZED).await;
    assert_eq!(ended_a.closed_with().await, 4001);
    assert_eq!(ended_b.closed_with().await, 4001);
    still_receives(&hub, &mut same_user_other_session, &user).await;
    still_receives(&hub, &mut someone_else, &other_user).await;

    hub.disconnect(Disconnect::User(user.clone()), 4003).await;
    assert_eq!(same_user_other_session.closed_with().await, 4003);
    still_receives(&hub, &mut someone_else, &other_user).await;
    visitor.send(json!({"type": "ping"})).await;
    assert_eq!(visitor.next().await["type"], "pong", "visitors are nobody's session");
}

async fn two_nodes(url: &str) -> ((Hub, std::net::SocketAddr), (Hub, std::net::SocketAddr)) {
    let bus = || BusConfig::Redis { url: url.to_owned() };
    (start(test_config(), bus()).await, start(test_config(), bus()).await)
}

#[tokio::test]
#[cfg_attr(taskhub_skip_redis, ignore = "TASKHUB_SKIP_REDIS is set")]
async fn a_disconnect_on_one_node_closes_the_sessions_sockets_on_the_other() {
    let url = redis_url();
    let ((node_a, addr_a), (node_b, addr_b)) = two_nodes(&url).await;
    let (user, session) = (unique("u"), unique("s"));
    let mut on_a = signed_in(addr_a, &user, &session).await;
    let mut on_b = signed_in(addr_b, &user, &session).await;
    let mut other_session_on_b = signed_in(addr_b, &user, &unique("s")).await;

    let started = std::time::Instant::now();
    node_a.disconnect(Disconnect::Session(session.clone()), CLOSE_UNAUTHORIZED).await;
    assert_eq!(on_a.closed_with().await, 4001);
    assert_eq!(on_b.closed_with().await, 4001, "closed on the other node too");
    assert!(started.elapsed() < std::time::Duration::from_secs(5), "took {:?}", started.elapsed());
    still_receives(&node_b, &mut other_session_on_b, &user).await;

    node_b.disconnect(Disconnect::User(user.clone()), 4003).await;
    assert_eq!(other_session_on_b.closed_with().await, 4003);
    let topic = format!("user:{user}");
    node_a.publish(&topic, "message.created", &json!({})).await;
    let mut watcher = connect(addr_a, "").await;
    watcher.send(json!({"type": "ping"})).await;
    assert_eq!(watcher.next().await["type"], "pong", "the disconnect is no topic event");
}

#[tokio::test]
#[cfg_attr(taskhub_skip_redis, ignore = "TASKHUB_SKIP_REDIS is set")]
async fn with_redis_down_the_local_sockets_close_at_once_and_the_other_nodes_once_it_is_back() {
    let mut redis = RedisServer::start_or_panic();
    let ((node_a, addr_a), (_node_b, addr_b)) = two_nodes(&redis.url()).await;
    let (user, session) = (unique("u"), unique("s"));
    let mut on_a = signed_in(addr_a, &user, &session).await;
    let mut on_b = signed_in(addr_b, &user, &session).await;

    redis.stop();
    assert_eq!(on_a.next().await, json!({"type": "status", "live": "degraded"}));
    assert_eq!(on_b.next().await, json!({"type": "status", "live": "degraded"}));
    let started = std::time::Instant::now();
    node_a.disconnect(Disconnect::Session(session.clone()), CLOSE_UNAUTHORIZED).await;
    assert_eq!(on_a.closed_with().await, 4001);
    assert!(started.elapsed() < std::time::Duration::from_secs(1), "at once, without Redis: {:?}", started.elapsed());

    redis.restart().expect("redis-server comes back");
    assert_eq!(on_b.closed_with().await, 4001, "node B closes it once the bus is back");
}

#[tokio::test]
#[cfg_attr(taskhub_skip_redis, ignore = "TASKHUB_SKIP_REDIS is set")]
async fn a_disconnect_redis_did_not_take_is_published_once_it_answers() {
    let redis = RedisServer::start_or_panic();
    let ((node_a, addr_a), (_node_b, addr_b)) = two_nodes(&redis.url()).await;
    let (user, session) = (unique("u"), unique("s"));
    let mut on_a = signed_in(addr_a, &user, &session).await;
    let mut on_b = signed_in(addr_b, &user, &session).await;

    // Redis refuses writes for longer than a publish waits, while the subscribers stay connected.
    let client = redis::Client::open(redis.url()).unwrap();
    let mut conn = client.get_multiplexed_async_connection().await.unwrap();
    let () = redis::cmd("CLIENT").arg("PAUSE").arg(1500).arg("WRITE").query_async(&mut conn).await.unwrap();
    node_a.disconnect(Disconnect::Session(session.clone()), CLOSE_UNAUTHORIZED).await;
    assert_eq!(on_a.closed_with().await, 4001);
    assert_eq!(on_b.closed_with().await, 4001, "published once Redis takes writes again");
}

async fn redis_command(url: &str, args: &[&str]) {
    let client = redis::Client::open(url).unwrap();
    let mut conn = client.get_multiplexed_async_connection().await.unwrap();
    let _: redis::Value = redis::cmd(args[0]).arg(&args[1..]).query_async(&mut conn).await.unwrap();
}

#[tokio::test]
#[cfg_attr(taskhub_skip_redis, ignore = "TASKHUB_SKIP_REDIS is set")]
async fn a_node_off_the_bus_when_a_disconnect_was_published_applies_it_once_back() {
    let redis = RedisServer::start_or_panic();
    let url = redis.url();
    // Node B signs in to Redis as a user of its own, so it alone can be shut out.
    redis_command(&url, &["ACL", "SETUSER", "node-b", "on", ">secret", "~*", "&*", "+@all"]).await;
    let (node_a, addr_a) = start(test_config(), BusConfig::Redis { url: url.clone() }).await;
    let (node_b, addr_b) =
        start(test_config(), BusConfig::Redis { url: format!("{url}?user=node-b&pass=secret") }).await;
    let deadline = std::time::Instant::now() + common::WAIT;
    while !(node_a.is_bus_healthy().await && node_b.is_bus_healthy().await) {
        assert!(std::time::Instant::now() < deadline, "the bus did not come up");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let (user, session) = (unique("u"), unique("s"));
    let mut on_b = signed_in(addr_b, &user, &session).await;
    let mut on_a = signed_in(addr_a, &user, &unique("s")).await;

    redis_command(&url, &["ACL", "SETUSER", "node-b", "off"]).await;
    redis_command(&url, &["CLIENT", "KILL", "USER", "node-b"]).await;
    assert_eq!(on_b.next().await, json!({"type": "status", "live": "degraded"}), "node B is off the bus");
    node_a.disconnect(Disconnect::Session(session.clone()), CLOSE_UNAUTHORIZED).await;
    still_receives(&node_a, &mut on_a, &user).await;

    redis_command(&url, &["ACL", "SETUSER", "node-b", "on"]).await;
    assert_eq!(on_b.closed_with().await, 4001, "node B applies what it missed once back on the bus");
}
