//! The escrow as one transaction process, in the spirit of Sharetribe's: the states a task moves
//! through once money is involved, the events that move it, who may cause each one, and for the
//! timed ones the timer that fires it. One row per event, in [`PROCESS`].
//!
//! - The transitions in `domain::payments` and `domain::marketplace` ask [`permit`] (a person's
//!   action) or [`allows`] (the provider's answer, a timer, an operator) before they act; the
//!   store's conditional update then decides races, under the task's row lock.
//! - The kinds of charge ([`PaymentPurpose`]) are tied to the event that opens each one
//!   ([`charge`]), matched exhaustively: a new kind of charge is a new row here and a compile
//!   error everywhere the money must handle it.
//! - `docs/architecture.md`'s state diagram is [`mermaid`]'s output (a test holds them equal), and
//!   `server/tests/escrow_process.rs` walks every state × every event against a running server:
//!   what the table allows ends in its `to`, what it refuses changes no row.

use std::time::Duration;

use uuid::Uuid;

use crate::{
    payments::rules::{DISPUTE_OPEN, Party},
    refusal::Denial,
    states::{PaymentPurpose, TaskStatus},
};

/// What happens to a task's escrow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Event {
    /// The poster accepts an offer: its checkout opens.
    AcceptOffer,
    /// The provider says the checkout is paid: the offer's tasker is assigned (or, when the task
    /// went to another checkout meanwhile, the payment is refunded and nothing else moves).
    CheckoutPaid,
    /// The checkout lapsed unpaid: the task is open again once no other checkout of it is open.
    CheckoutExpired,
    /// A payment that was processing did not settle: as an expired checkout.
    PaymentFailed,
    /// The poster cancels the task before anyone is assigned.
    CancelOpen,
    /// An operator takes the task down (never once a checkout is open: the two race on one update).
    Remove,
    /// The assigned tasker asks to be paid.
    RequestPayment,
    /// The poster releases the escrow (and may add a tip).
    Release,
    /// Nobody answered the tasker's request to be paid (and no cancellation request is open).
    AutoRelease,
    /// Either party asks to cancel the assigned task; the other answers.
    RequestCancellation,
    AcceptCancellation,
    DeclineCancellation,
    /// A cancellation request nobody answered takes effect…
    CancellationLapsed,
    /// …unless the poster asked after the tasker asked to be paid: then it becomes a dispute.
    CancellationEscalated,
    /// Either party disputes: the escrow stays held until an operator decides.
    OpenDispute,
    /// An operator's decision: release the escrow, refund part of it, or refund it all.
    ResolveByRelease,
    ResolveByPartialRefund,
    ResolveByRefund,
    /// The assigned tasker asks for more; the poster approves it (a checkout of the difference).
    AskIncrease,
    ApproveIncrease,
}

impl Event {
    pub const ALL: &'static [Event] = &[
        Event::AcceptOffer,
        Event::CheckoutPaid,
        Event::CheckoutExpired,
        Event::PaymentFailed,
        Event::CancelOpen,
        Event::Remove,
        Event::RequestPayment,
        Event::Release,
        Event::AutoRelease,
        Event::RequestCancellation,
        Event::AcceptCancellation,
        Event::DeclineCancellation,
        Event::CancellationLapsed,
        Event::CancellationEscalated,
        Event::OpenDispute,
        Event::ResolveByRelease,
        Event::ResolveByPartialRefund,
        Event::ResolveByRefund,
        Event::AskIncrease,
        Event::ApproveIncrease,
    ];

    /// The event's row of [`PROCESS`].
    pub fn transition(self) -> &'static Transition {
        PROCESS.iter().find(|row| row.event == self).expect("every event has its row (a test checks)")
    }

    /// Its words in the diagram.
    pub fn label(self) -> &'static str {
        match self {
            Event::AcceptOffer => "accept offer",
            Event::CheckoutPaid => "checkout paid",
            Event::CheckoutExpired => "checkout expired",
            Event::PaymentFailed => "payment failed",
            Event::CancelOpen => "cancel",
            Event::Remove => "remove",
            Event::RequestPayment => "request payment",
            Event::Release => "release",
            Event::AutoRelease => "auto-release",
            Event::RequestCancellation => "request cancellation",
            Event::AcceptCancellation => "accept cancellation",
            Event::DeclineCancellation => "decline cancellation",
            Event::CancellationLapsed => "cancellation lapsed",
            Event::CancellationEscalated => "cancellation escalated",
            Event::OpenDispute => "open dispute",
            Event::ResolveByRelease => "resolve: release",
            Event::ResolveByPartialRefund => "resolve: partial refund",
            Event::ResolveByRefund => "resolve: refund",
            Event::AskIncrease => "ask increase",
            Event::ApproveIncrease => "approve increase",
        }
    }
}

/// Who may cause an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Actor {
    Poster,
    AssignedTasker,
    /// The poster or the assigned tasker.
    EitherParty,
    /// The party that did not make the request being answered.
    OtherParty,
    Operator,
    /// The payment provider's answer (its webhook, or the sweep asking it).
    Provider,
    Timer(Timer),
}

impl Actor {
    fn admits(self, party: Party) -> bool {
        match self {
            Actor::Poster => party == Party::Poster,
            Actor::AssignedTasker => party == Party::AssignedTasker,
            // Which of the two answers is the caller's rule (`rules::may_answer_cancellation`).
            Actor::EitherParty | Actor::OtherParty => matches!(party, Party::Poster | Party::AssignedTasker),
            Actor::Operator | Actor::Provider | Actor::Timer(_) => false,
        }
    }

    fn label(self) -> String {
        match self {
            Actor::Poster => "poster".into(),
            Actor::AssignedTasker => "tasker".into(),
            Actor::EitherParty => "either party".into(),
            Actor::OtherParty => "the other party".into(),
            Actor::Operator => "operator".into(),
            Actor::Provider => "provider".into(),
            Actor::Timer(timer) => format!("after {}", timer.label()),
        }
    }
}

/// The clocks the background sweep keeps, each firing one event when it runs out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timer {
    /// A checkout open this long unpaid is closed.
    CheckoutExpiry,
    /// A request to be paid left this long unanswered is released.
    AutoRelease,
    /// A cancellation request left this long unanswered takes effect (or is escalated).
    CancellationAnswer,
}

impl Timer {
    pub const fn after(self) -> Duration {
        match self {
            Timer::CheckoutExpiry => Duration::from_secs(30 * 60),
            Timer::AutoRelease => Duration::from_secs(7 * 24 * 3600),
            Timer::CancellationAnswer => Duration::from_secs(48 * 3600),
        }
    }

    fn label(self) -> &'static str {
        match self {
            Timer::CheckoutExpiry => "30 min",
            Timer::AutoRelease => "7 days",
            Timer::CancellationAnswer => "48 h",
        }
    }
}

/// Where an event leaves the task.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    To(TaskStatus),
    /// The task keeps its status; a request, a dispute or a charge beside it moves.
    Stays,
}

/// How an event stands to an open dispute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WhileDisputed {
    /// Allowed either way.
    Either,
    /// Refused (409) while a dispute is open, with these words.
    Refused(&'static str),
    /// Only while a dispute is open (the operator's decisions).
    Only,
}

/// One row of the process: `event` moves a task from any of `from` to `to`, caused by `by`.
#[derive(Debug)]
pub struct Transition {
    pub event: Event,
    pub from: &'static [TaskStatus],
    pub to: Next,
    pub by: Actor,
    pub while_disputed: WhileDisputed,
    /// The refusal of anyone but `by` (403).
    pub not_yours: &'static str,
    /// The refusal in any state but `from` (409).
    pub not_now: &'static str,
}

impl Transition {
    pub fn allowed_in(&self, status: TaskStatus) -> bool {
        self.from.contains(&status)
    }

    /// The status after the event, from `status`.
    pub fn next(&self, status: TaskStatus) -> TaskStatus {
        match self.to {
            Next::To(next) => next,
            Next::Stays => status,
        }
    }
}

use TaskStatus::{Assigned, Cancelled, Completed, CompletionRequested, Open, PendingPayment, Removed};

const UNDER_WAY: &[TaskStatus] = &[Assigned, CompletionRequested];
const ANSWER_DISPUTED: WhileDisputed = WhileDisputed::Refused(DISPUTE_OPEN);
const INCREASE_NOT_NOW: &str =
    "A price increase can only be asked for while the task is assigned and not disputed or waiting for release";

/// The escrow's process, one row per event (`Event::ALL`'s order).
pub const PROCESS: &[Transition] = &[
    Transition {
        event: Event::AcceptOffer,
        from: &[Open, PendingPayment],
        to: Next::To(PendingPayment),
        by: Actor::Poster,
        while_disputed: WhileDisputed::Either,
        not_yours: "Only the poster can accept an offer",
        not_now: "This task is no longer open",
    },
    Transition {
        event: Event::CheckoutPaid,
        from: &[PendingPayment],
        to: Next::To(Assigned),
        by: Actor::Provider,
        while_disputed: WhileDisputed::Either,
        not_yours: "",
        not_now: "",
    },
    Transition {
        event: Event::CheckoutExpired,
        from: &[PendingPayment],
        to: Next::To(Open),
        by: Actor::Timer(Timer::CheckoutExpiry),
        while_disputed: WhileDisputed::Either,
        not_yours: "",
        not_now: "",
    },
    Transition {
        event: Event::PaymentFailed,
        from: &[PendingPayment],
        to: Next::To(Open),
        by: Actor::Provider,
        while_disputed: WhileDisputed::Either,
        not_yours: "",
        not_now: "",
    },
    Transition {
        event: Event::CancelOpen,
        from: &[Open],
        to: Next::To(Cancelled),
        by: Actor::Poster,
        while_disputed: WhileDisputed::Either,
        not_yours: "Only the poster can change this task",
        not_now: "This task is no longer open",
    },
    Transition {
        event: Event::Remove,
        from: &[Open],
        to: Next::To(Removed),
        by: Actor::Operator,
        while_disputed: WhileDisputed::Either,
        not_yours: "",
        not_now: "",
    },
    Transition {
        event: Event::RequestPayment,
        from: &[Assigned],
        to: Next::To(CompletionRequested),
        by: Actor::AssignedTasker,
        while_disputed: ANSWER_DISPUTED,
        not_yours: "Only the assigned tasker can request payment",
        not_now: "Payment can only be requested for an assigned task",
    },
    Transition {
        event: Event::Release,
        from: UNDER_WAY,
        to: Next::To(Completed),
        by: Actor::Poster,
        while_disputed: WhileDisputed::Either,
        not_yours: "Only the poster can release payment",
        not_now: "There is no payment to release for this task",
    },
    Transition {
        event: Event::AutoRelease,
        from: &[CompletionRequested],
        to: Next::To(Completed),
        by: Actor::Timer(Timer::AutoRelease),
        while_disputed: ANSWER_DISPUTED,
        not_yours: "",
        not_now: "",
    },
    Transition {
        event: Event::RequestCancellation,
        from: UNDER_WAY,
        to: Next::Stays,
        by: Actor::EitherParty,
        while_disputed: ANSWER_DISPUTED,
        not_yours: "Only the poster or the assigned tasker can ask to cancel",
        not_now: "Only an assigned task can be cancelled this way (an open task is cancelled directly)",
    },
    Transition {
        event: Event::AcceptCancellation,
        from: UNDER_WAY,
        to: Next::To(Cancelled),
        by: Actor::OtherParty,
        while_disputed: ANSWER_DISPUTED,
        not_yours: "Only the other party can answer this request",
        not_now: "There is no cancellation request to answer",
    },
    Transition {
        event: Event::DeclineCancellation,
        from: UNDER_WAY,
        to: Next::Stays,
        by: Actor::OtherParty,
        while_disputed: ANSWER_DISPUTED,
        not_yours: "Only the other party can answer this request",
        not_now: "There is no cancellation request to answer",
    },
    Transition {
        event: Event::CancellationLapsed,
        from: UNDER_WAY,
        to: Next::To(Cancelled),
        by: Actor::Timer(Timer::CancellationAnswer),
        while_disputed: ANSWER_DISPUTED,
        not_yours: "",
        not_now: "",
    },
    Transition {
        event: Event::CancellationEscalated,
        from: &[CompletionRequested],
        to: Next::Stays,
        by: Actor::Timer(Timer::CancellationAnswer),
        while_disputed: ANSWER_DISPUTED,
        not_yours: "",
        not_now: "",
    },
    Transition {
        event: Event::OpenDispute,
        from: UNDER_WAY,
        to: Next::Stays,
        by: Actor::EitherParty,
        while_disputed: WhileDisputed::Refused("A dispute is already open on this task"),
        not_yours: "Only the poster or the assigned tasker can open a dispute",
        not_now: "Only an assigned task can be disputed",
    },
    Transition {
        event: Event::ResolveByRelease,
        from: UNDER_WAY,
        to: Next::To(Completed),
        by: Actor::Operator,
        while_disputed: WhileDisputed::Only,
        not_yours: "",
        not_now: "",
    },
    Transition {
        event: Event::ResolveByPartialRefund,
        from: UNDER_WAY,
        to: Next::To(Completed),
        by: Actor::Operator,
        while_disputed: WhileDisputed::Only,
        not_yours: "",
        not_now: "",
    },
    Transition {
        event: Event::ResolveByRefund,
        from: UNDER_WAY,
        to: Next::To(Cancelled),
        by: Actor::Operator,
        while_disputed: WhileDisputed::Only,
        not_yours: "",
        not_now: "",
    },
    Transition {
        event: Event::AskIncrease,
        from: &[Assigned],
        to: Next::Stays,
        by: Actor::AssignedTasker,
        while_disputed: WhileDisputed::Refused(INCREASE_NOT_NOW),
        not_yours: "Only the assigned tasker can ask for a price increase",
        not_now: INCREASE_NOT_NOW,
    },
    Transition {
        event: Event::ApproveIncrease,
        from: &[Assigned],
        to: Next::Stays,
        by: Actor::Poster,
        while_disputed: WhileDisputed::Refused(INCREASE_NOT_NOW),
        not_yours: "Only the task's poster can answer a price increase",
        not_now: "The task's payment is no longer held",
    },
];

/// May `party` cause `event` on a task in `status` (with `open_dispute`)? The status it leads to,
/// or the refusal: the wrong actor (403) before the wrong state (409) before an open dispute (409).
pub fn permit(
    event: Event,
    party: Party,
    status: TaskStatus,
    open_dispute: Option<Uuid>,
) -> Result<TaskStatus, Denial> {
    let row = event.transition();
    if !row.by.admits(party) {
        return Err(Denial::Forbidden(row.not_yours));
    }
    if !row.allowed_in(status) {
        return Err(Denial::Conflict(row.not_now));
    }
    match (row.while_disputed, open_dispute) {
        (WhileDisputed::Refused(words), Some(_)) => Err(Denial::Conflict(words)),
        (WhileDisputed::Only, None) => Err(Denial::Conflict("There is no open dispute on this task")),
        _ => Ok(row.next(status)),
    }
}

/// Does the table let `event` (the provider's, a timer's or an operator's) happen to a task in
/// `status`, disputed or not? The status it leads to.
pub fn allows(event: Event, status: TaskStatus, disputed: bool) -> Option<TaskStatus> {
    let row = event.transition();
    let dispute_ok = match row.while_disputed {
        WhileDisputed::Either => true,
        WhileDisputed::Refused(_) => !disputed,
        WhileDisputed::Only => disputed,
    };
    (row.allowed_in(status) && dispute_ok).then(|| row.next(status))
}

/// What a kind of charge is, in the process: the event that opens its checkout, and whether the
/// service fee is taken from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Charge {
    pub opened_by: Event,
    pub takes_fee: bool,
    /// Held with the task's escrow and released, refunded or split with it; otherwise paid out
    /// to the tasker the moment it is paid.
    pub held_in_escrow: bool,
}

impl Charge {
    /// The service fee on `amount_cents` of this kind of charge.
    pub fn fee_cents(self, amount_cents: i64) -> i64 {
        if self.takes_fee { crate::payments::fees::fee_cents(amount_cents) } else { 0 }
    }
}

/// Each kind of charge's place in the process.
pub const fn charge(purpose: PaymentPurpose) -> Charge {
    match purpose {
        PaymentPurpose::Task => Charge { opened_by: Event::AcceptOffer, takes_fee: true, held_in_escrow: true },
        PaymentPurpose::Increase => Charge { opened_by: Event::ApproveIncrease, takes_fee: true, held_in_escrow: true },
        PaymentPurpose::Tip => Charge { opened_by: Event::Release, takes_fee: false, held_in_escrow: false },
    }
}

/// The process as a Mermaid state diagram: every row, each from-state an arrow.
pub fn mermaid() -> String {
    let mut out = String::from("stateDiagram-v2\n    [*] --> open\n");
    for row in PROCESS {
        for &from in row.from {
            let to = row.next(from);
            let mut label = format!("{} ({})", row.event.label(), row.by.label());
            match row.while_disputed {
                WhileDisputed::Either => {}
                WhileDisputed::Refused(_) => label.push_str(", not disputed"),
                WhileDisputed::Only => label.push_str(", disputed"),
            }
            out.push_str(&format!("    {} --> {}: {label}\n", from.as_str(), to.as_str()));
        }
    }
    for terminal in [Completed, Cancelled, Removed] {
        out.push_str(&format!("    {} --> [*]\n", terminal.as_str()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_event_has_one_row_in_order() {
        let events: Vec<Event> = PROCESS.iter().map(|row| row.event).collect();
        assert_eq!(events, Event::ALL);
    }

    #[test]
    fn every_persons_event_says_why_it_refuses() {
        for row in PROCESS {
            let persons =
                matches!(row.by, Actor::Poster | Actor::AssignedTasker | Actor::EitherParty | Actor::OtherParty);
            assert_eq!(persons, !row.not_yours.is_empty(), "{:?}", row.event);
            assert_eq!(persons, !row.not_now.is_empty(), "{:?}", row.event);
        }
    }

    #[test]
    fn the_wrong_actor_is_refused_before_the_wrong_state_and_the_dispute() {
        let disputed = Some(Uuid::now_v7());
        assert!(matches!(
            permit(Event::Release, Party::AssignedTasker, Open, None),
            Err(Denial::Forbidden("Only the poster can release payment"))
        ));
        assert!(matches!(permit(Event::Release, Party::Poster, Open, None), Err(Denial::Conflict(_))));
        assert_eq!(permit(Event::Release, Party::Poster, Assigned, disputed), Ok(Completed));
        assert_eq!(
            permit(Event::RequestPayment, Party::AssignedTasker, Assigned, disputed),
            Err(Denial::Conflict(DISPUTE_OPEN))
        );
        assert_eq!(permit(Event::RequestPayment, Party::AssignedTasker, Assigned, None), Ok(CompletionRequested));
        assert_eq!(
            permit(Event::OpenDispute, Party::AssignedTasker, CompletionRequested, None),
            Ok(CompletionRequested)
        );
        assert!(matches!(permit(Event::Remove, Party::Poster, Open, None), Err(Denial::Forbidden(_))));
        assert_eq!(allows(Event::AutoRelease, CompletionRequested, true), None);
        assert_eq!(allows(Event::AutoRelease, CompletionRequested, false), Some(Completed));
        assert_eq!(allows(Event::ResolveByRefund, Assigned, false), None);
        assert_eq!(allows(Event::ResolveByRefund, Assigned, true), Some(Cancelled));
        assert_eq!(allows(Event::ResolveByRelease, Completed, true), None);
    }

    #[test]
    fn either_party_disputes_an_assigned_task_once() {
        let open = Some(Uuid::now_v7());
        let dispute = |party, status, dispute| permit(Event::OpenDispute, party, status, dispute);
        assert_eq!(dispute(Party::Poster, Assigned, None), Ok(Assigned));
        assert_eq!(dispute(Party::AssignedTasker, CompletionRequested, None), Ok(CompletionRequested));
        assert!(matches!(dispute(Party::Other, Open, None), Err(Denial::Forbidden(_))));
        assert!(matches!(dispute(Party::Poster, Completed, None), Err(Denial::Conflict(_))));
        assert_eq!(
            dispute(Party::Poster, Assigned, open),
            Err(Denial::Conflict("A dispute is already open on this task"))
        );
    }

    #[test]
    fn nothing_leaves_a_finished_task() {
        for row in PROCESS {
            for finished in [Completed, Cancelled, Removed] {
                assert!(!row.allowed_in(finished), "{:?} from {finished:?}", row.event);
            }
        }
    }

    #[test]
    fn every_charge_is_opened_by_a_persons_event() {
        for &purpose in PaymentPurpose::ALL {
            let row = charge(purpose).opened_by.transition();
            assert!(matches!(row.by, Actor::Poster), "{purpose:?} is opened by {:?}", row.by);
        }
        assert!(!charge(PaymentPurpose::Tip).takes_fee);
    }

    /// `docs/architecture.md` shows the process as `mermaid()` draws it.
    #[test]
    fn the_architecture_document_draws_this_process() {
        let document = include_str!("../../../docs/architecture.md");
        let start = "<!-- escrow-process: generated by model::payments::process::mermaid -->\n```mermaid\n";
        let drawn = document
            .split_once(start)
            .and_then(|(_, rest)| rest.split_once("```"))
            .map(|(diagram, _)| diagram)
            .unwrap_or_default();
        let expected = mermaid();
        assert!(
            drawn == expected,
            "docs/architecture.md's escrow diagram differs from the process; put this after its marker:\n```mermaid\n{expected}```"
        );
    }
}
