//! Signing up and in: the session a sign-in starts, the account it answers with, and the ticket that
//! opens the live connection.

use serde::Serialize;

use store::db::Timestamp;

use crate::wire::accounts::{ProfileView, UserView};

#[derive(Serialize, utoipa::ToSchema)]
pub struct SignupResponse {
    pub user: UserView,
    pub message: &'static str,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct UserResponse {
    pub user: UserView,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct MessageResponse {
    pub message: &'static str,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct SessionResponse {
    pub access_token: String,
    pub refresh_token: String,
    pub token_type: &'static str,
    pub expires_in: u64,
    pub expires_at: Timestamp,
    pub user: UserView,
    pub profile: Option<ProfileView>,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct TicketResponse {
    pub ticket: String,
    pub expires_in: u64,
}
