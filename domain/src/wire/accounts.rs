//! Response shapes shared by several routes.

use serde::Serialize;
use uuid::Uuid;

use store::{
    db::Timestamp,
    portfolio::PortfolioRow,
    profiles::{ProfileRow, ProfileStats},
    reviews::ProfileReviewRow,
    users::UserRow,
};

use crate::{
    accounts::{names, validation::Skill},
    marketplace::responsiveness::Responsiveness,
    media::photos::PhotoKey,
};

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct UserView {
    pub id: Uuid,
    pub email: String,
    pub email_verified: bool,
    pub created_at: Timestamp,
    /// An operator (`ADMIN_EMAILS`, address verified): may decide disputes.
    pub is_operator: bool,
}

impl UserView {
    /// `is_operator`: `http::extract::Operator::user_is`.
    pub fn new(user: &UserRow, is_operator: bool) -> Self {
        Self {
            id: user.id,
            email: user.email.clone(),
            email_verified: user.email_verified,
            created_at: user.created_at,
            is_operator,
        }
    }
}

/// The signed-in user's own profile.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ProfileView {
    pub id: Uuid,
    pub first_name: String,
    pub last_name: String,
    /// The name to show: the chosen display name, else first and last name, else the email's local part, else "User".
    pub display_name: String,
    /// The display name the user chose, if any (what the settings form edits).
    pub custom_display_name: Option<String>,
    pub initials: String,
    pub company_name: Option<String>,
    pub phone: Option<String>,
    /// `phone` was confirmed by a code sent to it (a changed number is unverified again).
    pub phone_verified: bool,
    pub identity_verified: bool,
    pub identity_verified_at: Option<Timestamp>,
    pub location: Option<String>,
    pub bio: Option<String>,
    pub avatar_url: Option<String>,
    pub account_type: String,
    pub is_tasker: bool,
    pub skills: Vec<Skill>,
    pub rating: Option<f64>,
    pub review_count: i64,
    pub tasks_completed: i64,
    pub member_since: Timestamp,
}

impl ProfileView {
    pub fn new(row: &ProfileRow, stats: &ProfileStats) -> Self {
        Self {
            id: row.id,
            first_name: row.first_name.clone(),
            last_name: row.last_name.clone(),
            display_name: names::display_name(
                row.display_name.as_deref(),
                &row.first_name,
                &row.last_name,
                Some(&row.email),
            ),
            custom_display_name: row.display_name.clone(),
            initials: names::initials(&row.first_name, &row.last_name, Some(&row.email)),
            company_name: row.company_name.clone(),
            phone: row.phone.clone(),
            phone_verified: row.phone_verified_at.is_some(),
            identity_verified: row.identity_verified_at.is_some(),
            identity_verified_at: row.identity_verified_at,
            location: row.location.clone(),
            bio: row.bio.clone(),
            avatar_url: row.avatar_url.clone(),
            account_type: row.account_type.clone(),
            is_tasker: row.is_tasker,
            skills: parse_skills(&row.skills),
            rating: stats.rating,
            review_count: stats.review_count,
            tasks_completed: stats.tasks_completed,
            member_since: row.created_at,
        }
    }
}

/// What anyone may see of a person: no email, no phone, no full surname.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct PublicProfileView {
    pub id: Uuid,
    pub first_name: String,
    /// The surname's initial ("L."), never the full surname.
    pub last_name: String,
    pub display_name: String,
    pub initials: String,
    pub location: Option<String>,
    pub bio: Option<String>,
    pub avatar_url: Option<String>,
    pub account_type: String,
    pub is_tasker: bool,
    pub skills: Vec<Skill>,
    pub rating: Option<f64>,
    pub review_count: i64,
    pub tasks_completed: i64,
    pub member_since: Timestamp,
    /// The day (midnight UTC) of the latest offer, message, task posted or question asked; null
    /// if none, or when they do not share their online state.
    pub last_active_at: Option<Timestamp>,
    #[serde(flatten)]
    pub responsiveness: Responsiveness,
    /// Percent of the tasks assigned to them in the last 12 months that they completed (tasks
    /// cancelled on their account count against it); null under 5 such tasks.
    pub completion_rate: Option<i64>,
    pub verified: Verification,
    /// The newest visible reviews about this person (`review_count` in all).
    pub reviews: Vec<ProfileReview>,
    /// The next page from `GET /api/profiles/{id}/reviews?cursor=`; null when these are all.
    pub reviews_next_cursor: Option<String>,
    /// The tasker's portfolio, in their order.
    pub portfolio: Vec<PortfolioItemView>,
}

/// A picture of past work on a tasker's profile (public by its unguessable URL, metadata stripped).
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct PortfolioItemView {
    pub id: Uuid,
    pub title: String,
    pub description: Option<String>,
    /// At most 1600 px on the longest side (JPEG).
    pub image_url: String,
    /// At most 480 px on the longest side (JPEG).
    pub thumb_url: String,
}

impl From<&PortfolioRow> for PortfolioItemView {
    fn from(row: &PortfolioRow) -> Self {
        let key = PhotoKey::Portfolio(row.id);
        Self {
            id: row.id,
            title: row.title.clone(),
            description: row.description.clone(),
            image_url: key.public_url(),
            thumb_url: key.public_thumb_url(),
        }
    }
}

/// Only what Taskhub has actually checked is marked verified.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct Verification {
    pub email: bool,
    /// A mobile number confirmed by a code sent to it by SMS.
    pub phone: bool,
    /// An identity document and selfie checked by the identity provider.
    pub identity: bool,
    /// A payout account that can receive transfers, or a task paid for.
    pub payment: bool,
}

/// What a profile states beyond the profile row, all computed from activity.
#[derive(Debug, Default)]
pub struct ProfileFacts {
    pub last_active_at: Option<Timestamp>,
    pub responsiveness: Responsiveness,
    pub completion_rate: Option<i64>,
    pub payment_verified: bool,
}

/// A review as shown on the reviewee's profile.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ProfileReview {
    pub id: Uuid,
    pub rating: i64,
    /// Null once a moderator removed it.
    pub body: Option<String>,
    pub removed: bool,
    pub created_at: Timestamp,
    pub task_title: String,
    pub author: ReviewAuthor,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ReviewAuthor {
    pub id: Uuid,
    pub name: String,
    pub avatar_url: Option<String>,
}

impl From<&ProfileReviewRow> for ProfileReview {
    fn from(row: &ProfileReviewRow) -> Self {
        Self {
            id: row.id,
            rating: row.rating,
            body: row.body.clone(),
            removed: row.removed,
            created_at: row.created_at,
            task_title: row.task_title.clone(),
            author: ReviewAuthor {
                id: row.reviewer_id,
                name: names::public_name(&row.reviewer_first_name, &row.reviewer_last_name),
                avatar_url: row.reviewer_avatar_url.clone(),
            },
        }
    }
}

impl PublicProfileView {
    pub fn new(
        row: &ProfileRow,
        stats: &ProfileStats,
        facts: ProfileFacts,
        reviews: &[ProfileReviewRow],
        reviews_next_cursor: Option<String>,
    ) -> Self {
        // The email's local part is not public, so the fallback name skips it.
        Self {
            id: row.id,
            first_name: row.first_name.clone(),
            // The surname is private: public pages show "First L." as listings do.
            last_name: names::surname_initial(&row.last_name),
            display_name: names::public_profile_name(row.display_name.as_deref(), &row.first_name, &row.last_name),
            initials: names::initials(&row.first_name, &row.last_name, None),
            location: row.location.clone(),
            bio: row.bio.clone(),
            avatar_url: row.avatar_url.clone(),
            account_type: row.account_type.clone(),
            is_tasker: row.is_tasker,
            skills: parse_skills(&row.skills),
            rating: stats.rating,
            review_count: stats.review_count,
            tasks_completed: stats.tasks_completed,
            member_since: row.created_at,
            last_active_at: facts.last_active_at,
            responsiveness: facts.responsiveness,
            completion_rate: facts.completion_rate,
            verified: Verification {
                email: row.email_verified,
                phone: row.phone_verified_at.is_some(),
                identity: row.identity_verified_at.is_some(),
                payment: facts.payment_verified,
            },
            reviews: reviews.iter().map(ProfileReview::from).collect(),
            reviews_next_cursor,
            portfolio: Vec::new(),
        }
    }
}

pub fn parse_skills(json: &str) -> Vec<Skill> {
    serde_json::from_str(json).unwrap_or_default()
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct MeResponse {
    pub user: UserView,
    pub profile: ProfileView,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct AvatarResponse {
    pub avatar_url: String,
}
