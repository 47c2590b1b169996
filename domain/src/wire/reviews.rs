//! A task's reviews, both ways, once it is completed.

use serde::Serialize;
use uuid::Uuid;

use store::{db::Timestamp, reviews::ReviewRow};

#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
#[schema(as = ReviewRow)]
pub struct Review {
    pub id: Uuid,
    pub task_id: Uuid,
    pub reviewer_id: Uuid,
    pub reviewee_id: Uuid,
    pub rating: i64,
    /// Null once a moderator removed it (the text is kept for the audit).
    pub body: Option<String>,
    pub removed: bool,
    pub created_at: Timestamp,
}

impl From<&ReviewRow> for Review {
    fn from(row: &ReviewRow) -> Self {
        Self {
            id: row.id,
            task_id: row.task_id,
            reviewer_id: row.reviewer_id,
            reviewee_id: row.reviewee_id,
            rating: row.rating,
            body: row.body.clone(),
            removed: row.removed,
            created_at: row.created_at,
        }
    }
}
