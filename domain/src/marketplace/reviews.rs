//! Reviews both ways once a task is completed: the poster reviews the tasker and the tasker
//! the poster, once each; the one reviewed is notified.

use uuid::Uuid;

use model::{
    payments::rules::{self, Party},
    refusal::{FieldErrors, Invalid},
};
use store::{
    db::{Timestamp, new_id},
    reviews::{self, ReviewRow},
    tasks::TaskRow,
};

use crate::{
    live, notices,
    refusal::{DomainError, DomainResult},
    services::Services,
};

pub const MAX_REVIEW_CHARS: usize = 2000;

/// `reviewer_id` reviews the other party of the completed task, once.
pub async fn write(
    state: &Services,
    task: &TaskRow,
    reviewer_id: Uuid,
    rating: i64,
    body: &str,
) -> DomainResult<ReviewRow> {
    let party = Party::of(reviewer_id, task.poster_id, task.assigned_tasker_id);
    rules::may_review(party, task.status)?;
    let body = checked_review(rating, body)?;
    let reviewee_id = if party == Party::Poster { task.assigned_tasker_id.unwrap_or_default() } else { task.poster_id };
    let now = Timestamp::now();
    let review = ReviewRow {
        id: new_id(),
        task_id: task.id,
        reviewer_id,
        reviewee_id,
        rating,
        body: Some(body.to_owned()),
        removed: false,
        created_at: now,
    };
    let notification = notices::new_review(reviewee_id, task.id, &task.title, now);
    if !reviews::insert_review(&state.db, &review, &notification).await? {
        return Err(DomainError::Conflict("You have already reviewed this task".into()));
    }
    live::notifications_created(state, &[notification]).await;
    Ok(review)
}

/// A rating from 1 to 5 and a few words (at most 2000 characters), trimmed.
fn checked_review(rating: i64, body: &str) -> Result<&str, Invalid> {
    let mut fields = FieldErrors::new();
    if !(1..=5).contains(&rating) {
        fields.insert("rating".into(), "Please choose a rating from 1 to 5".into());
    }
    let body = body.trim();
    if body.is_empty() || body.chars().count() > MAX_REVIEW_CHARS {
        fields.insert("body".into(), "Please write a few words about your experience".into());
    }
    Invalid::check(fields)?;
    Ok(body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_review_is_one_to_five_stars_and_a_few_words() {
        assert_eq!(checked_review(5, " Great work "), Ok("Great work"));
        let refused = checked_review(0, " ").unwrap_err();
        assert_eq!(refused.message, "Please write a few words about your experience");
        assert_eq!(refused.fields["rating"], "Please choose a rating from 1 to 5");
        assert!(checked_review(6, "ok").is_err());
    }
}
