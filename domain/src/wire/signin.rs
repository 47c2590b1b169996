//! Social sign-in providers: the ones on offer, and the ones linked to the caller's account.

use serde::Serialize;

use store::db::Timestamp;

use crate::signin::ProviderId;

#[derive(Serialize, utoipa::ToSchema)]
pub struct ProviderView {
    pub id: ProviderId,
    pub name: &'static str,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct IdentityView {
    pub provider: ProviderId,
    pub name: &'static str,
    /// The address the provider gave when it was linked.
    pub email: Option<String>,
    pub linked_at: Timestamp,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct IdentitiesResponse {
    pub items: Vec<IdentityView>,
    /// Whether the account also signs in with a password.
    pub has_password: bool,
}
