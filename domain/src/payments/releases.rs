//! The poster releases the escrow once the work is done, with a tip if they like: the
//! release goes first and never waits for the tip's checkout (`tips`).

use uuid::Uuid;

use model::{
    payments::{
        process::{self, Event},
        rules::{self, Party},
    },
    refusal::Invalid,
};
use store::tasks::TaskRow;

use crate::{
    marketplace,
    payments::{
        escrow::{self, CheckoutStarted},
        tips,
    },
    refusal::DomainResult,
    services::Services,
};

/// What the poster is told when the release went ahead but the tip's checkout did not open.
pub const TIP_NOT_STARTED: &str =
    "The payment was released, but the tip could not be started. You have not been charged for it.";

/// A release by the poster, and the tip's checkout when one was asked for.
pub struct Release {
    /// The task as it is after the release.
    pub task: TaskRow,
    pub tip: Option<CheckoutStarted>,
    /// Why the tip's checkout could not be opened.
    pub tip_error: Option<&'static str>,
}

/// `poster_id` releases the task's escrow: the poster only (403), only while under way (409); a
/// tip, when given, of A$1 to A$500 (422). A tip's checkout that fails does not undo the release.
pub async fn by_poster(
    state: &Services,
    task: &TaskRow,
    poster_id: Uuid,
    tip_cents: Option<i64>,
) -> DomainResult<Release> {
    let party = Party::of(poster_id, task.poster_id, task.assigned_tasker_id);
    process::permit(Event::Release, party, task.status, task.open_dispute_id)?;
    if tip_cents.is_some_and(|cents| !tips::valid_tip(cents)) {
        return Err(Invalid::field("tip_cents", "A tip must be between $1.00 and $500.00").into());
    }
    escrow::release(state, task, Some(poster_id), None).await?.ok_or(rules::MOVED_ON)?;
    let (tip, tip_error) = match tip_cents {
        None => (None, None),
        Some(cents) => match tips::start(state, task, cents).await {
            Ok(checkout) => (Some(checkout), None),
            Err(error) => {
                tracing::warn!(?error, task_id = %task.id, "could not open a tip's checkout after a release");
                (None, Some(TIP_NOT_STARTED))
            }
        },
    };
    let task = marketplace::tasks::task_or_not_found(state, task.id).await?;
    Ok(Release { task, tip, tip_error })
}
