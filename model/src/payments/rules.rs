//! Who may do what beside the escrow's own transitions (those are `process::PROCESS`): verify a
//! payment, message, review, ask to cancel again, answer a request. The wrong actor is refused
//! (403) before the wrong state (409) is.

use uuid::Uuid;

pub use crate::refusal::Denial;

use crate::states::TaskStatus;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Party {
    Poster,
    AssignedTasker,
    Other,
}

impl Party {
    pub fn of(caller: Uuid, poster_id: Uuid, assigned_tasker_id: Option<Uuid>) -> Self {
        if caller == poster_id {
            Party::Poster
        } else if Some(caller) == assigned_tasker_id {
            Party::AssignedTasker
        } else {
            Party::Other
        }
    }
}

fn check(party_ok: bool, who: &'static str, state_ok: bool, state: &'static str) -> Result<(), Denial> {
    if !party_ok {
        Err(Denial::Forbidden(who))
    } else if !state_ok {
        Err(Denial::Conflict(state))
    } else {
        Ok(())
    }
}

pub fn may_verify(party: Party) -> Result<(), Denial> {
    check(party == Party::Poster, "Only the poster can verify this payment", true, "")
}

pub const POSTER_ASKED_BEFORE: &str = "You have already asked to cancel this task; if you cannot agree, open a dispute";

/// A poster asks to cancel an assigned task once. Asking again and again (the
/// moment each request is declined) only wears the tasker down, and a cool-down
/// would merely pace it; a disagreement that remains goes to an operator as a
/// dispute. The tasker, who gives up the pay by asking, is not limited.
pub fn poster_asks_once(party: Party, poster_asked_before: bool) -> Result<(), Denial> {
    check(true, "", !(party == Party::Poster && poster_asked_before), POSTER_ASKED_BEFORE)
}

/// Only the party that did not ask answers a cancellation request.
pub fn may_answer_cancellation(party: Party, requester: Party) -> Result<(), Denial> {
    check(
        matches!(party, Party::Poster | Party::AssignedTasker) && party != requester,
        "Only the other party can answer this request",
        true,
        "",
    )
}

pub const DISPUTE_OPEN: &str = "A dispute is open on this task; an operator will decide";

/// The task moved on between the checks and the change.
pub const MOVED_ON: Denial = Denial::Conflict("The task changed meanwhile; reload it and try again");

pub fn may_message(party: Party, assigned_tasker_id: Option<Uuid>) -> Result<(), Denial> {
    let party_ok = match assigned_tasker_id {
        Some(_) => matches!(party, Party::Poster | Party::AssignedTasker),
        // Before assignment only the poster is a party at all; they have nobody to write to yet.
        None => party == Party::Poster,
    };
    check(
        party_ok,
        "Only the poster and the assigned tasker can read and send messages",
        assigned_tasker_id.is_some(),
        "Messages open once the task is assigned",
    )
}

pub fn may_review(party: Party, status: TaskStatus) -> Result<(), Denial> {
    check(
        matches!(party, Party::Poster | Party::AssignedTasker),
        "Only the poster and the assigned tasker can review",
        status == TaskStatus::Completed,
        "Reviews open once the task is completed",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn party_is_poster_assigned_tasker_or_anyone_else() {
        let (poster, tasker, stranger) = (Uuid::now_v7(), Uuid::now_v7(), Uuid::now_v7());
        assert_eq!(Party::of(poster, poster, Some(tasker)), Party::Poster);
        assert_eq!(Party::of(tasker, poster, Some(tasker)), Party::AssignedTasker);
        assert_eq!(Party::of(stranger, poster, Some(tasker)), Party::Other);
        assert_eq!(Party::of(tasker, poster, None), Party::Other);
    }

    #[test]
    fn only_the_poster_may_verify_a_payment() {
        assert!(may_verify(Party::Poster).is_ok());
        for party in [Party::AssignedTasker, Party::Other] {
            assert!(matches!(may_verify(party), Err(Denial::Forbidden(_))), "{party:?}");
        }
    }

    #[test]
    fn the_wrong_actor_is_forbidden_before_the_wrong_state_conflicts() {
        assert!(matches!(may_review(Party::Other, TaskStatus::Completed), Err(Denial::Forbidden(_))));
        assert!(matches!(may_review(Party::AssignedTasker, TaskStatus::Assigned), Err(Denial::Conflict(_))));
        assert!(matches!(may_answer_cancellation(Party::Poster, Party::Poster), Err(Denial::Forbidden(_))));
        assert!(may_answer_cancellation(Party::AssignedTasker, Party::Poster).is_ok());
        assert!(matches!(may_message(Party::Poster, None), Err(Denial::Conflict(_))));
        assert!(matches!(may_message(Party::Other, None), Err(Denial::Forbidden(_))));
        assert!(may_message(Party::AssignedTasker, Some(Uuid::now_v7())).is_ok());
    }

    #[test]
    fn a_poster_asks_to_cancel_once_and_a_tasker_as_often_as_needed() {
        assert!(poster_asks_once(Party::Poster, false).is_ok());
        assert_eq!(poster_asks_once(Party::Poster, true), Err(Denial::Conflict(POSTER_ASKED_BEFORE)));
        assert!(poster_asks_once(Party::AssignedTasker, true).is_ok());
    }
}
