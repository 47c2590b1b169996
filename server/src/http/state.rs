use std::{ops::Deref, sync::Arc};

use domain::{
    auth::access::AccessTokens, live_topics::OperatorSockets, rate_limit::AuthRateLimits, services::Services, signin,
    sms::SmsProvider,
};

use crate::{http::shared_reads, task_views::TaskViews};

use metrics_exporter_prometheus::PrometheusHandle;

/// Everything a handler may need, cheap to clone: the domain's services (through `Deref`) and what
/// only HTTP uses.
#[derive(Clone)]
pub struct AppState {
    pub services: Services,
    pub access_tokens: Arc<AccessTokens>,
    pub auth_limits: AuthRateLimits,
    pub metrics: PrometheusHandle,
    /// Social sign-in providers (Google, Facebook, Apple; the sandbox in dev mode).
    pub signin: Arc<signin::Providers>,
    /// Who may subscribe to the operators' live topic on this node.
    pub operator_sockets: OperatorSockets,
    /// Verification codes by SMS: Twilio, or the dev outbox.
    pub sms: Arc<dyn SmsProvider>,
    /// Task page views not yet written (`task_views`).
    pub task_views: TaskViews,
    /// Anonymous task page reads in flight, shared by identical requests.
    pub task_pages: shared_reads::TaskPageReads,
    /// Anonymous browse reads in flight, shared by identical requests.
    pub browse_pages: shared_reads::BrowseReads,
    /// How far back Best match's window reaches, as this node last read it.
    pub walk_edge: Arc<store::search::WalkEdge>,
}

impl Deref for AppState {
    type Target = Services;

    fn deref(&self) -> &Services {
        &self.services
    }
}
