//! Response shapes of the marketplace routes (TaskSummary, Task, Offer in `/api/openapi.json`).

use serde::Serialize;
use uuid::Uuid;

use model::{
    marketplace::categories,
    states::{OfferStatus, TaskStatus},
};
use store::{
    db::Timestamp, offers::OfferRow, profile_facts::CardFacts, profiles::ProfileRow, questions::QuestionRow,
    tasks::TaskRow,
};

use crate::{accounts::names, media::photos::PhotoKey};

/// A person as task cards show them: "First L." or "Anonymous User".
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct PersonSummary {
    pub id: Uuid,
    pub name: String,
    pub avatar_url: Option<String>,
    /// The real average rating, or null while there are no reviews (never an invented 4).
    pub rating: Option<f64>,
    /// The badges shown beside the name (on offers and task cards).
    pub verified: Badges,
}

/// What Taskhub has checked about a person, as compact badges.
#[derive(Clone, Copy, Debug, Default, Serialize, utoipa::ToSchema)]
pub struct Badges {
    /// ID-verified: an identity document and selfie checked by the identity provider.
    pub identity: bool,
    /// Mobile-verified: a code sent by SMS to their number was entered.
    pub phone: bool,
}

impl Badges {
    pub fn of(profile: &ProfileRow) -> Self {
        Self { identity: profile.identity_verified_at.is_some(), phone: profile.phone_verified_at.is_some() }
    }
}

impl PersonSummary {
    pub fn new(id: Uuid, first: &str, last: &str, avatar_url: Option<&String>) -> Self {
        Self {
            id,
            name: names::public_name(first, last),
            avatar_url: avatar_url.cloned(),
            rating: None,
            verified: Badges::default(),
        }
    }
}

/// Fills in the ratings and verification badges of everyone a list shows
/// (read with [`store::profile_facts::card_facts`]).
pub fn fill_ratings<'a>(people: impl IntoIterator<Item = &'a mut PersonSummary>, facts: &CardFacts) {
    for person in people {
        person.rating = facts.ratings.get(&person.id).copied();
        if let Some(&(identity, phone)) = facts.badges.get(&person.id) {
            person.verified = Badges { identity, phone };
        }
    }
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct TaskSummary {
    pub id: Uuid,
    pub title: String,
    pub description: String,
    pub budget_cents: i64,
    pub currency: String,
    pub location: String,
    /// `YYYY-MM-DD`.
    pub due_date: String,
    pub category_id: i64,
    pub category: String,
    pub category_icon: String,
    pub status: TaskStatus,
    pub created_at: Timestamp,
    pub offer_count: i64,
    pub poster: PersonSummary,
    /// Where the task happens, when known.
    pub lat: Option<f64>,
    pub lon: Option<f64>,
    /// Done remotely: no place.
    pub remote: bool,
    /// The task's photos, oldest first; lists carry the first only, the task itself all of them.
    pub photos: Vec<TaskPhoto>,
}

/// A photo of a task: public by its unguessable URL, metadata stripped.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct TaskPhoto {
    pub id: Uuid,
    /// At most 1600 px on the longest side (JPEG).
    pub url: String,
    /// At most 480 px on the longest side (JPEG).
    pub thumb_url: String,
}

impl TaskPhoto {
    pub fn new(id: Uuid) -> Self {
        let key = PhotoKey::Task(id);
        Self { id, url: key.public_url(), thumb_url: key.public_thumb_url() }
    }
}

impl From<&TaskRow> for TaskSummary {
    fn from(row: &TaskRow) -> Self {
        let (category, icon) = categories::label(row.category_id);
        Self {
            id: row.id,
            title: row.title.clone(),
            description: row.description.clone(),
            budget_cents: row.budget_cents,
            currency: row.currency.clone(),
            location: row.location.clone(),
            due_date: row.due_date.clone(),
            category_id: row.category_id,
            category: category.to_owned(),
            category_icon: icon.to_owned(),
            status: row.status,
            created_at: row.created_at,
            offer_count: row.offer_count,
            poster: PersonSummary::new(
                row.poster_id,
                &row.poster_first_name,
                &row.poster_last_name,
                row.poster_avatar_url.as_ref(),
            ),
            lat: row.lat,
            lon: row.lon,
            remote: row.remote,
            photos: row.first_photo_id.map(TaskPhoto::new).into_iter().collect(),
        }
    }
}

/// The poster card of the detail screen.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct PosterStats {
    pub rating: Option<f64>,
    pub review_count: i64,
    pub tasks_completed: i64,
    pub member_since: Timestamp,
}

/// Everything the task detail screen shows, in one answer.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct TaskDetail {
    #[serde(flatten)]
    pub task: TaskSummary,
    /// Distinct viewers per day, summed over days.
    pub view_count: i64,
    pub assigned_tasker: Option<PersonSummary>,
    pub poster_stats: PosterStats,
    /// The first page of questions, oldest first; the rest from `GET /api/tasks/{id}/questions`.
    pub questions: Vec<QuestionView>,
    pub questions_next_cursor: Option<String>,
    pub questions_has_more: bool,
    pub similar_tasks: Vec<TaskSummary>,
    pub updated_at: Timestamp,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct OfferView {
    pub id: Uuid,
    pub task_id: Uuid,
    pub tasker: PersonSummary,
    /// Null unless the caller is the task's poster or the offer's tasker.
    pub amount_cents: Option<i64>,
    /// Null unless the caller is the task's poster or the offer's tasker (or an operator), and
    /// once removed (except to operators).
    pub message: Option<String>,
    /// The message was removed by a moderator.
    pub removed: bool,
    pub status: OfferStatus,
    pub created_at: Timestamp,
}

impl OfferView {
    /// `private` says whether the caller may see the amount and message.
    pub fn new(row: &OfferRow, private: bool) -> Self {
        Self {
            id: row.id,
            task_id: row.task_id,
            tasker: PersonSummary::new(
                row.tasker_id,
                &row.tasker_first_name,
                &row.tasker_last_name,
                row.tasker_avatar_url.as_ref(),
            ),
            amount_cents: private.then_some(row.amount_cents),
            message: (private && !row.message_removed).then(|| row.message.clone()),
            removed: row.message_removed,
            status: row.status,
            created_at: row.created_at,
        }
    }

    /// The poster and the offer's own tasker see everything but a removed message; an operator
    /// sees everything, a removed message marked removed; others see neither.
    pub fn for_viewer(row: &OfferRow, poster_id: Uuid, viewer: Option<Uuid>, operator: bool) -> Self {
        let mut view =
            Self::new(row, operator || viewer.is_some_and(|viewer| viewer == poster_id || viewer == row.tasker_id));
        if operator {
            view.message = Some(row.message.clone());
        }
        view
    }
}

/// My Tasks, "Tasks I'm Offering On": the offer (in full: it is mine) and its task.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct MyOfferView {
    #[serde(flatten)]
    pub offer: OfferView,
    pub task: TaskSummary,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct QuestionView {
    pub id: Uuid,
    pub task_id: Uuid,
    pub asker: PersonSummary,
    /// Null once a moderator removed the question (and its answer), except to operators.
    pub body: Option<String>,
    pub answer: Option<String>,
    pub removed: bool,
    pub answered_at: Option<Timestamp>,
    pub created_at: Timestamp,
}

impl From<&QuestionRow> for QuestionView {
    fn from(row: &QuestionRow) -> Self {
        Self::as_read(row, false)
    }
}

impl QuestionView {
    /// An operator (`operator`) reads a removed question's text, marked removed; nobody else does.
    pub fn as_read(row: &QuestionRow, operator: bool) -> Self {
        let shown = !row.removed || operator;
        Self {
            id: row.id,
            task_id: row.task_id,
            asker: PersonSummary::new(
                row.asker_id,
                &row.asker_first_name,
                &row.asker_last_name,
                row.asker_avatar_url.as_ref(),
            ),
            body: shown.then(|| row.body.clone()),
            answer: row.answer.clone().filter(|_| shown),
            removed: row.removed,
            answered_at: row.answered_at,
            created_at: row.created_at,
        }
    }
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct Invitation {
    pub task_id: Uuid,
    pub tasker_id: Uuid,
    pub created_at: Timestamp,
}
