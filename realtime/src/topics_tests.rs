use super::*;

fn registry() -> Registry {
    Registry::new(8, Duration::from_secs(60), 4, Arc::new(Stats::default()))
}

/// What a socket was sent, read from its queue.
struct Received(Arc<ConnHandle>);

impl Received {
    fn try_recv(&mut self) -> Result<Outbound, ()> {
        self.0.try_take().ok_or(())
    }
}

fn socket(id: u64) -> (Arc<ConnHandle>, Received) {
    let conn = Arc::new(ConnHandle::new(id, None, None, 8, 0));
    (conn.clone(), Received(conn))
}

fn entry(seq: u64) -> Entry {
    Entry { seq, at_ms: protocol::now_ms(), frame: format!("e{seq}").into() }
}

fn frames(out: Outbound) -> Vec<String> {
    match out {
        Outbound::Frame(frame) => vec![frame.to_string()],
        Outbound::Batch(frames) => frames.iter().map(|f| f.to_string()).collect(),
        Outbound::Ping => vec!["ping".into()],
    }
}

#[test]
fn clustered_join_merges_redis_history_with_events_that_arrived_meanwhile() {
    let registry = registry();
    let (conn, mut rx) = socket(1);
    registry.begin_subscribe("t");
    // Published after Redis was read, received through the subscription before joining.
    for seq in [11, 12] {
        let e = entry(seq);
        registry.deliver_remote("t", e.seq, e.at_ms, e.frame);
    }
    let remote = RemoteSnapshot { current: 10, entries: vec![entry(9), entry(10)] };
    assert!(registry.subscribe("t", &conn, Some(8), Some(remote), true));

    let joined = frames(rx.try_recv().unwrap());
    let subscribed: serde_json::Value = serde_json::from_str(&joined[0]).unwrap();
    assert_eq!((subscribed["seq"].as_u64(), subscribed["recovered"].as_bool()), (Some(12), Some(true)));
    assert_eq!(joined[1..], ["e9", "e10", "e11", "e12"]);

    let again = entry(12);
    registry.deliver_remote("t", again.seq, again.at_ms, again.frame);
    let next = entry(13);
    registry.deliver_remote("t", next.seq, next.at_ms, next.frame);
    assert_eq!(frames(rx.try_recv().unwrap()), ["e13"], "no duplicate, then live");
    assert!(rx.try_recv().is_err());
}

#[test]
fn clustered_join_with_a_hole_is_not_recovered() {
    let registry = registry();
    let (conn, mut rx) = socket(1);
    registry.begin_subscribe("t");
    let remote = RemoteSnapshot { current: 10, entries: vec![entry(8), entry(10)] };
    assert!(registry.subscribe("t", &conn, Some(7), Some(remote), true));
    let joined = frames(rx.try_recv().unwrap());
    assert_eq!(joined.len(), 1, "nothing replayed");
    assert!(joined[0].contains(r#""recovered":false"#));
}

#[test]
fn last_clustered_subscriber_leaving_forgets_the_topic() {
    let registry = registry();
    let (first, _rx1) = socket(1);
    let (second, _rx2) = socket(2);
    for conn in [&first, &second] {
        registry.begin_subscribe("t");
        registry.subscribe("t", conn, None, Some(RemoteSnapshot::default()), true);
    }
    assert!(!registry.unsubscribe("t", 1, true));
    assert!(registry.is_watched("t"));
    assert!(registry.unsubscribe("t", 2, true));
    assert!(!registry.is_watched("t"));
    assert_eq!(registry.topic_count(), 0);
}

#[test]
fn publishing_again_to_an_idle_topic_does_not_push_out_the_others() {
    let registry = registry();
    let template = EventTemplate::new("busy", "e", &serde_json::json!({}));
    for topic in ["quiet-1", "quiet-2", "quiet-3"] {
        registry.publish_local(topic, &template, false);
    }
    for _ in 0..50 {
        registry.publish_local("busy", &template, false);
    }
    for kept in ["quiet-1", "quiet-2", "quiet-3", "busy"] {
        assert!(registry.topics.contains_key(kept), "{kept} was evicted by another topic's events");
    }
    assert_eq!(registry.idle.lock().unwrap().len(), 4, "one queue entry per idle topic");
}

#[test]
fn at_most_max_idle_unwatched_topics_are_kept_longest_unwatched_first() {
    let registry = registry();
    let (watcher, _rx) = socket(1);
    registry.subscribe("watched", &watcher, None, None, false);
    for n in 0..100 {
        let (conn, _rx) = socket(100 + n);
        let topic = format!("t{n}");
        registry.subscribe(&topic, &conn, None, None, false);
        registry.unsubscribe(&topic, conn.id, false);
    }
    let template = EventTemplate::new("published", "e", &serde_json::json!({}));
    registry.publish_local("published", &template, false);
    assert_eq!(registry.topic_count(), 1 + 4, "the watched topic and 4 unwatched");
    assert!(registry.is_watched("watched"));
    for kept in ["t97", "t98", "t99", "published"] {
        assert!(registry.topics.contains_key(kept), "{kept} was unwatched last");
    }
}

#[test]
fn full_queue_closes_the_subscriber_as_slow_without_blocking_others() {
    let stats = Arc::new(Stats::default());
    let registry = Registry::new(8, Duration::from_secs(60), 4, stats.clone());
    let stalled = Arc::new(ConnHandle::new(1, None, None, 2, 0));
    let (healthy, mut healthy_rx) = socket(2);
    registry.subscribe("t", &stalled, None, None, false);
    registry.subscribe("t", &healthy, None, None, false);
    healthy_rx.try_recv().unwrap();
    for n in 0..4 {
        let template = EventTemplate::new("t", "e", &serde_json::json!({"n": n}));
        registry.publish_local("t", &template, false);
        assert!(healthy_rx.try_recv().is_ok());
    }
    let snapshot = stats.snapshot();
    assert_eq!(snapshot.slow_consumer_closes, 1);
    assert!(snapshot.dropped >= 2);
    assert_eq!(snapshot.delivered, 4 + 1);
}

/// The `refetch_after_ms` of the `subscribed` frame a socket was sent.
fn refetch_after_ms(rx: &mut Received) -> u64 {
    let sent = frames(rx.try_recv().unwrap());
    let subscribed: serde_json::Value = serde_json::from_str(&sent[0]).unwrap();
    assert_eq!(subscribed["recovered"], false);
    subscribed["refetch_after_ms"].as_u64().expect("a refetch names its slot")
}

#[test]
fn a_resync_paces_the_refetches_of_crowded_topics_across_topics_and_not_of_small_ones() {
    // 10 refetches a second: slots 100 ms apart.
    let registry = registry().with_refetch_rate(10.0);
    let mut crowd = Vec::new();
    for topic in ["feed", "page"] {
        for _ in 0..=PACED_ABOVE {
            let (conn, mut rx) = socket(crowd.len() as u64 + 1);
            assert!(registry.subscribe(topic, &conn, None, None, false));
            rx.try_recv().unwrap();
            crowd.push(rx);
        }
    }
    let (small, mut small_rx) = socket(1_000);
    assert!(registry.subscribe("mine", &small, None, None, false));
    small_rx.try_recv().unwrap();

    registry.resync("feed", 5);
    registry.resync("page", 7);
    registry.resync("mine", 3);
    let mut delays: Vec<u64> = crowd.iter_mut().map(refetch_after_ms).collect();
    delays.sort_unstable();
    // 66 sockets on two crowded topics share one queue: 0, 100, 200, … 6,500 ms.
    let expected: Vec<u64> = (0..delays.len() as u64).map(|slot| slot * 100).collect();
    for (got, want) in delays.iter().zip(&expected) {
        assert!(got.abs_diff(*want) <= 5, "slot {want} ms, got {got} ms");
    }
    assert_eq!(refetch_after_ms(&mut small_rx), 0, "a small topic refetches at once");
}

#[test]
fn a_since_the_history_cannot_serve_gets_a_slot_and_a_first_subscribe_none() {
    let registry = registry();
    let (conn, mut rx) = socket(1);
    assert!(registry.subscribe("t", &conn, None, None, false));
    let first: serde_json::Value = serde_json::from_str(&frames(rx.try_recv().unwrap())[0]).unwrap();
    assert!(first.get("refetch_after_ms").is_none(), "nothing to refetch on a first subscribe: {first}");
    let (again, mut again_rx) = socket(2);
    // Seq 50 was never seen here: the history cannot fill the gap.
    assert!(registry.subscribe("t", &again, Some(50), None, false));
    assert_eq!(refetch_after_ms(&mut again_rx), 0);
}
