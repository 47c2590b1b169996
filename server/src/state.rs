use std::sync::Arc;

use metrics_exporter_prometheus::PrometheusHandle;

use store::db::Db;

use crate::{
    auth::{access::AccessTokens, revocation::SessionRevocations},
    config::Config,
    mail::Mailer,
    media::Media,
    rate_limit::{AuthRateLimits, Limiter},
};

/// Everything a handler may need, cheap to clone.
#[derive(Clone)]
pub struct AppState {
    pub config: Arc<Config>,
    pub db: Db,
    pub access_tokens: Arc<AccessTokens>,
    /// Sessions ended before their access tokens expire.
    pub sessions: SessionRevocations,
    pub mailer: Mailer,
    pub media: Media,
    pub auth_limits: AuthRateLimits,
    /// Counters for every other limited action (shared through Redis when configured).
    pub limiter: Limiter,
    /// Base of links in emails, without a trailing slash.
    pub public_url: Arc<str>,
    pub metrics: PrometheusHandle,
    pub hub: realtime::Hub,
    pub payments: crate::payments::Providers,
    /// Social sign-in providers (Google, Facebook, Apple; the sandbox in dev mode).
    pub signin: Arc<crate::signin::Providers>,
    /// Web Push and email digests (docs/architecture.md, decision 9).
    pub delivery: Arc<crate::delivery::Delivery>,
    /// Wakes this node's alert-matching worker when a task is posted here.
    pub alert_jobs: Arc<tokio::sync::Notify>,
    /// Who may subscribe to the operators' live topic on this node.
    pub operator_sockets: crate::live_topics::OperatorSockets,
    /// Verification codes by SMS: Twilio, or the dev outbox.
    pub sms: Arc<dyn crate::sms::SmsProvider>,
    /// Identity verification: Stripe Identity, or the sandbox page.
    pub identity: crate::verification::identity::IdentityProviders,
    /// Task page views not yet written (`task_views`).
    pub task_views: crate::task_views::TaskViews,
    /// Anonymous task page reads in flight, shared by identical requests.
    pub task_pages: crate::http::shared_reads::TaskPageReads,
    /// Anonymous browse reads in flight, shared by identical requests.
    pub browse_pages: crate::http::shared_reads::BrowseReads,
    /// How far back Best match's window reaches, as this node last read it.
    pub walk_edge: Arc<store::search::WalkEdge>,
}

impl AppState {
    pub fn link(&self, path_and_query: &str) -> String {
        format!("{}{path_and_query}", self.public_url)
    }

    /// What the delivery worker gets of this node.
    pub fn delivery_handles(&self) -> crate::delivery::Handles {
        crate::delivery::Handles {
            db: self.db.clone(),
            delivery: self.delivery.clone(),
            mailer: self.mailer.clone(),
            config: self.config.clone(),
            public_url: self.public_url.clone(),
        }
    }
}
