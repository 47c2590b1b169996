//! Facts about this deployment the app shows to everyone, and the contact form's receipt.

use serde::Serialize;

use crate::config::SocialLink;

#[derive(Serialize, utoipa::ToSchema)]
pub struct Site {
    pub support_email: String,
    /// Absent unless `BUSINESS_EMAIL` is set.
    pub business_email: Option<String>,
    /// Absent unless `SUPPORT_PHONE` is set.
    pub support_phone: Option<String>,
    pub support_hours: &'static str,
    /// Empty unless `SOCIAL_LINKS` is set.
    pub social: Vec<SocialLink>,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct ContactAccepted {
    pub message: String,
}
