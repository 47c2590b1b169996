//! What a transition may use: the database, the hub, the providers, the limits and the node's
//! settings, cheap to clone. The server's `AppState` holds one (and derefs to it), with what only
//! HTTP needs beside it.

use std::sync::Arc;

use store::db::Db;
use tokio_util::task::TaskTracker;

use crate::{
    auth::revocation::SessionRevocations, config::Config, delivery, mail::Mailer, media::Media, payments,
    rate_limit::Limiter, verification::identity::IdentityProviders,
};

#[derive(Clone)]
pub struct Services {
    pub config: Arc<Config>,
    pub db: Db,
    /// Sessions ended before their access tokens expire.
    pub sessions: SessionRevocations,
    pub mailer: Mailer,
    pub media: Media,
    /// Counters for every limited action (shared through Redis when configured).
    pub limiter: Limiter,
    /// Base of links in emails, without a trailing slash.
    pub public_url: Arc<str>,
    pub hub: realtime::Hub,
    pub payments: payments::Providers,
    /// Web Push and email digests (docs/architecture.md, decision 9).
    pub delivery: Arc<delivery::Delivery>,
    /// Wakes this node's alert-matching worker when a task is posted here.
    pub alert_jobs: Arc<tokio::sync::Notify>,
    /// Identity verification: Stripe Identity, or the sandbox page.
    pub identity: IdentityProviders,
    /// Work a request or a socket starts and does not wait for (a mail, a push device's notice,
    /// a last-seen time): shutdown waits for it, with the workers, before the pool closes.
    pub background: TaskTracker,
}

impl Services {
    pub fn link(&self, path_and_query: &str) -> String {
        format!("{}{path_and_query}", self.public_url)
    }

    /// What the delivery worker gets of this node.
    pub fn delivery_handles(&self) -> delivery::Handles {
        delivery::Handles {
            db: self.db.clone(),
            delivery: self.delivery.clone(),
            mailer: self.mailer.clone(),
            config: self.config.clone(),
            public_url: self.public_url.clone(),
            background: self.background.clone(),
        }
    }
}
