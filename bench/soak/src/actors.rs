//! The population: posters (post, accept, pay in the sandbox, release), taskers (browse, offer,
//! message, request payment) and anonymous watchers (the feed and a task page).

use std::{collections::HashSet, sync::Arc, time::Duration};

use serde_json::json;
use tokio::time::Instant;

use crate::{
    api::Api,
    session::Session,
    socket::{self, Command, Incoming},
    world::{Path, World, WriteKind},
};

/// How long a lifecycle step that must succeed (verify, release, request-payment) is retried.
const STEP_DEADLINE: Duration = Duration::from_secs(60);
/// The least time between two offers by one tasker: 10 a minute, under the server's 12 (OFFER_CHURN).
const OFFER_PACE: Duration = Duration::from_secs(6);

pub async fn poster(api: Api, world: Arc<World>, n: usize) -> anyhow::Result<()> {
    let email = format!("soak-{}-poster-{n}@example.com", world.run);
    let mut me = Session::start(api, world.clone(), &email, false).await?;
    let due = (time::OffsetDateTime::now_utc().date() + time::Duration::days(7)).to_string();
    let mut k = 0;
    while !world.stopping() {
        k += 1;
        let title = format!("Soak {} poster {n} task {k}", world.run);
        let body = json!({ "title": title, "description": "Assemble a flat-pack wardrobe", "category_id": 1 + k % 8,
            "location": "Newtown NSW", "budget_cents": 5_000 + 100 * (k % 50) as i64, "due_date": due });
        let posted = me.api.post("/api/tasks", Some(&me.token), body).await;
        world.write(WriteKind::Task, title, posted.ok());
        let Some(task) = posted.body["id"].as_str().filter(|_| posted.ok()).map(str::to_owned) else {
            me.pump(Duration::from_secs(1)).await;
            continue;
        };
        me.subscribe(format!("task:{task}"));
        me.task_on_screen = Some(task.clone());
        world.open_tasks.lock().unwrap().push(task.clone());

        // Wait for offers as the task page would, then take the first.
        let mut offer = None;
        let waiting = Instant::now();
        while offer.is_none() && waiting.elapsed() < Duration::from_secs(20) && !world.stopping() {
            me.pump(Duration::from_millis(500)).await;
            offer = me.events.iter().find_map(|(_, event, data)| {
                (event == "offer.created" && data["task_id"] == task.as_str())
                    .then(|| data["id"].as_str().map(str::to_owned))
                    .flatten()
            });
            if offer.is_none() && waiting.elapsed() > Duration::from_secs(10) {
                let offers = me.refetch_offers(Path::Refetch).await;
                offer =
                    offers.iter().find(|o| o["status"] == "pending").and_then(|o| o["id"].as_str().map(str::to_owned));
            }
        }
        world.open_tasks.lock().unwrap().retain(|t| *t != task);
        me.events.clear();
        let Some(offer) = offer else { continue };
        if !accept_and_pay(&me, &task, &offer).await {
            continue;
        }

        // Wait for the tasker to ask for payment, then release.
        let waiting = Instant::now();
        let mut requested = false;
        while !requested && waiting.elapsed() < Duration::from_secs(40) && !world.stopping() {
            me.pump(Duration::from_secs(2)).await;
            let task_now = me.api.get(&format!("/api/tasks/{task}"), Some(&me.token)).await;
            requested = task_now.body["status"] == "completion_requested";
        }
        if requested {
            let deadline = Instant::now() + STEP_DEADLINE;
            me.api.post_until_done(&format!("/api/tasks/{task}/release"), &me.token, json!({}), deadline).await;
        }
    }
    me.listen_until_settled().await;
    Ok(())
}

async fn accept_and_pay(me: &Session, task: &str, offer: &str) -> bool {
    let checkout = me
        .api
        .post("/api/payments/checkout-session", Some(&me.token), json!({ "task_id": task, "offer_id": offer }))
        .await;
    let (Some(url), Some(session)) = (checkout.body["url"].as_str(), checkout.body["session_id"].as_str()) else {
        return false;
    };
    if !me.api.pay_in_sandbox(url).await {
        return false;
    }
    me.world.paid_tasks.lock().unwrap().push(task.to_owned());
    let verify = json!({ "session_id": session, "task_id": task, "offer_id": offer });
    let deadline = Instant::now() + STEP_DEADLINE;
    me.api.post_until_done("/api/payments/verify", &me.token, verify, deadline).await.ok()
}

pub async fn tasker(api: Api, world: Arc<World>, n: usize) -> anyhow::Result<()> {
    let email = format!("soak-{}-tasker-{n}@example.com", world.run);
    let mut me = Session::start(api, world.clone(), &email, true).await?;
    me.subscribe("tasks".into());
    // Half the taskers have an alert every soak task matches: each post owes them a
    // notification through the matching outbox.
    if n.is_multiple_of(2) {
        let alert = json!({ "name": format!("Soak {} wardrobes", world.run), "q": "wardrobe",
            "place": { "label": "Newtown NSW 2042", "lat": -33.8978, "lon": 151.1785 }, "radius_km": 10 });
        let deadline = Instant::now() + STEP_DEADLINE;
        if me.api.post_until_done("/api/me/alerts", &me.token, alert, deadline).await.ok() {
            world.alerting_taskers.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
    }
    let mut offered: HashSet<String> = HashSet::new();
    let mut handled: HashSet<String> = HashSet::new();
    let mut last_browse = Instant::now();
    let mut last_mine = Instant::now();
    let mut last_offer: Option<Instant> = None;
    let mut k = 0;
    while !world.stopping() {
        me.pump(Duration::from_millis(500 + fastrand::u64(0..1000))).await;
        let mut candidates: Vec<String> = me
            .events
            .drain(..)
            .filter(|(topic, event, _)| topic == "tasks" && event == "task.created")
            .filter_map(|(_, _, data)| data["id"].as_str().map(str::to_owned))
            .collect();
        if last_browse.elapsed() > Duration::from_secs(5) {
            last_browse = Instant::now();
            let page = me.api.get("/api/tasks?limit=20", Some(&me.token)).await;
            candidates.extend(
                page.body["items"].as_array().into_iter().flatten().filter_map(|t| t["id"].as_str().map(str::to_owned)),
            );
        }
        for task in candidates {
            if offered.contains(&task) || fastrand::f32() > 0.5 || world.stopping() {
                continue;
            }
            // A person writes an offer at a time, under the server's offer-churn limit; a task
            // skipped now is seen again on the next browse.
            if last_offer.is_some_and(|at| at.elapsed() < OFFER_PACE) {
                break;
            }
            last_offer = Some(Instant::now());
            offered.insert(task.clone());
            k += 1;
            let message = format!("Soak {} tasker {n} offer {k}", world.run);
            let body = json!({ "amount_cents": 4_000 + fastrand::i64(0..5_000), "message": message });
            let answer = me.api.post(&format!("/api/tasks/{task}/offers"), Some(&me.token), body).await;
            world.write(WriteKind::Offer, message, answer.ok());
            if answer.ok()
                && let Some(id) = answer.body["id"].as_str()
            {
                world.offers_acked.lock().unwrap().insert(id.to_owned(), world.metrics.now());
            }
        }
        if last_mine.elapsed() > Duration::from_secs(3) {
            last_mine = Instant::now();
            let mine = me.api.get("/api/me/offers", Some(&me.token)).await;
            for item in mine.body["items"].as_array().cloned().unwrap_or_default() {
                let task = item["task"]["id"].as_str().unwrap_or_default().to_owned();
                if item["status"] != "accepted" || item["task"]["status"] != "assigned" || handled.contains(&task) {
                    continue;
                }
                handled.insert(task.clone());
                request_payment(&me, &task, &mut k).await;
            }
        }
    }
    me.listen_until_settled().await;
    Ok(())
}

async fn request_payment(me: &Session, task: &str, k: &mut usize) {
    *k += 1;
    let text = format!("Soak {} tasker message {k} on {task}", me.world.run);
    let answer = me.api.post(&format!("/api/tasks/{task}/messages"), Some(&me.token), json!({ "body": text })).await;
    me.world.write(WriteKind::Message, text, answer.ok());
    let deadline = Instant::now() + STEP_DEADLINE;
    me.api.post_until_done(&format!("/api/tasks/{task}/request-payment"), &me.token, json!({}), deadline).await;
}

/// An anonymous visitor on the feed and one task page: refetches on `recovered:false`, polls
/// the task page while live updates are degraded.
pub async fn watcher(api: Api, world: Arc<World>) {
    let mut socket = socket::open(api.clone(), None, None, world.metrics.clone(), false);
    let _ = socket.commands.send(Command::Subscribe("tasks".into()));
    let mut task = world.some_open_task();
    if let Some(task) = &task {
        let _ = socket.commands.send(Command::Subscribe(format!("task:{task}")));
    }
    let mut degraded = false;
    let mut last_poll = Instant::now();
    let poll_interval = world.poll_interval;
    let page = |task: &Option<String>| match task {
        Some(id) => format!("/api/tasks/{id}"),
        None => "/api/tasks?limit=20".to_owned(),
    };
    while !world.stopping() {
        match tokio::time::timeout(Duration::from_millis(500), socket.incoming.recv()).await {
            Ok(Some(Incoming::Refetch { topic, after })) => {
                // Its own timer, as in the app: a second topic's refetch does not wait for this one.
                let path = if topic == "tasks" { "/api/tasks?limit=20".to_owned() } else { page(&task) };
                let (api, wait) = (api.clone(), after + world.resync_spread());
                tokio::spawn(async move {
                    tokio::time::sleep(wait).await;
                    api.get(&path, None).await;
                });
            }
            Ok(Some(Incoming::Live(ok))) => {
                if !ok && !degraded {
                    last_poll = world.polling_phase();
                }
                degraded = !ok;
            }
            Ok(Some(Incoming::Event { .. })) | Err(_) => {}
            Ok(None) => return,
        }
        if degraded && last_poll.elapsed() >= poll_interval {
            last_poll = Instant::now();
            api.get(&page(&task), None).await;
        }
        if task.is_none() && fastrand::u8(..) < 4 {
            task = world.some_open_task();
            if let Some(task) = &task {
                let _ = socket.commands.send(Command::Subscribe(format!("task:{task}")));
            }
        }
    }
}
