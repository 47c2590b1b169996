//! A signed-in soak client: its socket and the web app's reactions to what arrives on it
//! (notifications into its list, refetch on `recovered:false`, polling the screen's queries
//! every poll interval while live updates are degraded).

use std::{sync::Arc, time::Duration};

use serde_json::Value;
use tokio::time::Instant;

use crate::{
    api::Api,
    socket::{self, Command, Incoming, Socket},
    world::{Path, World},
};

pub struct Session {
    pub api: Api,
    pub token: String,
    pub user_id: String,
    pub world: Arc<World>,
    socket: Socket,
    degraded: bool,
    last_poll: Instant,
    /// The task on screen (a poster's own task page: its offers are on screen).
    pub task_on_screen: Option<String>,
    /// Events the actor reacts to (task topics, the feed), in arrival order.
    pub events: Vec<(String, String, Value)>,
}

impl Session {
    pub async fn start(api: Api, world: Arc<World>, email: &str, tasker: bool) -> anyhow::Result<Session> {
        // Signing up can meet a fault too: try again, as a person would.
        let mut attempt = 0;
        let (user_id, token) = loop {
            attempt += 1;
            match api.verified_user(email, tasker).await {
                Ok(signed_in) => break signed_in,
                Err(error) if attempt >= 10 => return Err(error),
                Err(_) => tokio::time::sleep(Duration::from_secs(1)).await,
            }
        };
        let socket = socket::open(api.clone(), Some(token.clone()), Some(user_id.clone()), world.metrics.clone(), true);
        Ok(Session {
            api,
            token,
            user_id,
            world,
            socket,
            degraded: false,
            last_poll: Instant::now(),
            task_on_screen: None,
            events: Vec::new(),
        })
    }

    pub fn subscribe(&self, topic: String) {
        let _ = self.socket.commands.send(Command::Subscribe(topic));
    }

    /// Stops acting but keeps listening (and reacting as the app does) until the audit starts.
    pub async fn listen_until_settled(&mut self) {
        self.world.idle.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        while !self.world.settled() {
            self.pump(Duration::from_millis(250)).await;
        }
    }

    /// Handles what arrives for `period` (polling meanwhile while degraded).
    pub async fn pump(&mut self, period: Duration) {
        let until = Instant::now() + period;
        loop {
            if self.degraded && self.last_poll.elapsed() >= self.world.poll_interval {
                self.refetch_screen(Path::Poll).await;
            }
            let wait = until.saturating_duration_since(Instant::now()).min(Duration::from_millis(250));
            if wait.is_zero() {
                return;
            }
            match tokio::time::timeout(wait, self.socket.incoming.recv()).await {
                Ok(Some(incoming)) => self.handle(incoming).await,
                Ok(None) => return,
                Err(_) => {}
            }
        }
    }

    async fn handle(&mut self, incoming: Incoming) {
        match incoming {
            Incoming::Live(ok) => {
                // Back to ok: no refetch here, the node's resync of each topic comes first.
                if !ok && !self.degraded {
                    self.last_poll = self.world.polling_phase();
                }
                self.degraded = !ok;
            }
            Incoming::Refetch { topic, after } => {
                if topic.starts_with("user:") {
                    self.refetch_notifications(Path::Refetch).await;
                    self.refetch_offers(Path::Refetch).await;
                } else if let Some(task) = self.task_on_screen.clone() {
                    // Its own timer, as in the app: the screen goes on meanwhile.
                    let (api, token, world) = (self.api.clone(), self.token.clone(), self.world.clone());
                    let wait = after + self.world.resync_spread();
                    tokio::spawn(async move {
                        tokio::time::sleep(wait).await;
                        fetch_offers(&api, &token, &world, &task, Path::Refetch).await;
                    });
                }
            }
            Incoming::Event { topic, event, data, replayed, received } => {
                let path = if replayed { Path::Recovery } else { Path::Live };
                match (event.as_str(), data["id"].as_str()) {
                    ("notification.created", Some(id)) if topic.starts_with("user:") => {
                        self.world.notification_seen(&self.user_id, id, path);
                    }
                    // Only posters hear of new offers (on their user topic and their task's topic).
                    ("offer.created", Some(id)) => self.world.offer_known_at(id, path, received),
                    _ => {}
                }
                self.events.push((topic, event, data));
            }
        }
    }

    /// What the app refetches: the queries on screen (notifications, the task's offers).
    async fn refetch_screen(&mut self, path: Path) {
        self.last_poll = Instant::now();
        self.refetch_notifications(path).await;
        self.refetch_offers(path).await;
    }

    /// Refetches the notification list, newest first, paging on ("Load more") while the oldest
    /// item of a page was new to this user: the gap is filled once a page ends on one it knew.
    /// A failed page is tried again three times with a growing pause, as TanStack Query does.
    async fn refetch_notifications(&self, path: Path) {
        let mut cursor: Option<String> = None;
        loop {
            let url = match &cursor {
                Some(cursor) => format!("/api/notifications?limit=100&cursor={cursor}"),
                None => "/api/notifications?limit=100".to_owned(),
            };
            let Some(page) = self.get_with_retries(&url).await else { return };
            let mut oldest_was_known = true;
            for item in page["items"].as_array().into_iter().flatten() {
                if let Some(id) = item["id"].as_str() {
                    oldest_was_known = self.world.notification_seen(&self.user_id, id, path);
                }
            }
            cursor = page["next_cursor"].as_str().map(str::to_owned);
            if oldest_was_known || cursor.is_none() {
                return;
            }
        }
    }

    async fn get_with_retries(&self, url: &str) -> Option<Value> {
        for attempt in 0..4 {
            if attempt > 0 {
                tokio::time::sleep(Duration::from_secs(1 << (attempt - 1))).await;
            }
            let answer = self.api.get(url, Some(&self.token)).await;
            if answer.ok() {
                return Some(answer.body);
            }
        }
        None
    }

    pub async fn refetch_offers(&self, path: Path) -> Vec<Value> {
        let Some(task) = &self.task_on_screen else { return Vec::new() };
        fetch_offers(&self.api, &self.token, &self.world, task, path).await
    }
}

/// The task page's offers, each now known to its poster by `path`.
async fn fetch_offers(api: &Api, token: &str, world: &World, task: &str, path: Path) -> Vec<Value> {
    let answer = api.get(&format!("/api/tasks/{task}/offers"), Some(token)).await;
    let offers = answer.body.as_array().cloned().unwrap_or_default();
    for offer in &offers {
        if let Some(id) = offer["id"].as_str() {
            world.offer_known(id, path);
        }
    }
    offers
}
