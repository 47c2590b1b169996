//! The escrow's notices: a checkout paid, processing or failed, the payment
//! requested and released, a cancellation asked for and answered, tips and
//! price increases.

use uuid::Uuid;

use model::{
    payments::{
        fees::{FEE_PERCENT, display_amount},
        rules::Party,
    },
    states::NotificationKind,
};
use store::{db::Timestamp, payments::PaymentRow};

use crate::{
    notices::{Notice, NotificationRow, span, task_link},
    payments::{
        increases, payouts,
        sweep::{AUTO_RELEASE_AFTER, CANCELLATION_ANSWER_WINDOW},
    },
};

/// The tasker whose offer a paid checkout bought.
pub fn offer_accepted(payment: &PaymentRow, title: &str, now: Timestamp) -> NotificationRow {
    let amount = display_amount(payment.amount_cents, &payment.currency);
    NotificationRow::new(
        payment.tasker_id,
        NotificationKind::Task,
        "Offer accepted",
        format!("Your offer on \"{title}\" was accepted. {amount} is held until the task is complete."),
        task_link(payment.task_id),
        now,
    )
}

/// The poster whose checkout was paid.
pub fn payment_held(payment: &PaymentRow, title: &str, now: Timestamp) -> NotificationRow {
    let amount = display_amount(payment.amount_cents, &payment.currency);
    NotificationRow::new(
        payment.poster_id,
        NotificationKind::Payment,
        "Payment held",
        format!("{amount} for \"{title}\" is held securely until you release it."),
        task_link(payment.task_id),
        now,
    )
}

/// Each tasker whose pending offer a paid checkout closed.
pub fn offer_not_selected(task_id: Uuid, title: &str) -> Notice {
    Notice {
        kind: NotificationKind::Offer,
        title: "Offer not selected",
        message: format!("\"{title}\" was assigned to another tasker."),
        link: task_link(task_id),
    }
}

/// The poster whose checkout was paid after the task went to someone else.
pub fn payment_refunded_task_gone(payment: &PaymentRow, title: &str, now: Timestamp) -> NotificationRow {
    let amount = display_amount(payment.amount_cents, &payment.currency);
    NotificationRow::new(
        payment.poster_id,
        NotificationKind::Payment,
        "Payment refunded",
        format!("\"{title}\" was no longer available for this offer, so your payment of {amount} is being refunded."),
        task_link(payment.task_id),
        now,
    )
}

pub fn payment_processing(payment: &PaymentRow, title: &str, now: Timestamp) -> NotificationRow {
    let amount = display_amount(payment.amount_cents, &payment.currency);
    NotificationRow::new(
        payment.poster_id,
        NotificationKind::Payment,
        "Payment processing",
        format!(
            "Your payment of {amount} for \"{title}\" is processing. We'll assign the task as soon as your bank confirms it."
        ),
        task_link(payment.task_id),
        now,
    )
}

pub fn payment_failed(payment: &PaymentRow, title: &str, now: Timestamp) -> NotificationRow {
    let amount = display_amount(payment.amount_cents, &payment.currency);
    NotificationRow::new(
        payment.poster_id,
        NotificationKind::Payment,
        "Payment failed",
        format!(
            "Your bank did not confirm the payment of {amount} for \"{title}\", so the task is open for offers again. You have not been charged."
        ),
        task_link(payment.task_id),
        now,
    )
}

/// The poster, when the tasker asks to be paid: auto-release counts from now.
pub fn payment_requested(poster_id: Uuid, task_id: Uuid, title: &str, now: Timestamp) -> NotificationRow {
    NotificationRow::new(
        poster_id,
        NotificationKind::Payment,
        "Payment requested",
        format!(
            "The tasker marked \"{title}\" complete and asked to be paid. Release the payment once you are happy; it is released automatically after {}.",
            span(AUTO_RELEASE_AFTER)
        ),
        task_link(task_id),
        now,
    )
}

/// Who released an escrow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReleasedBy {
    Poster,
    /// An operator deciding the dispute.
    Operator,
    /// The sweep, after the poster left a payment request unanswered.
    AutoRelease,
}

/// Both parties, when the escrow is released: the tasker is told what reaches
/// them (`paid_cents`, after the fee, with any increases), the poster to review.
pub fn released(
    by: ReleasedBy,
    payment: &PaymentRow,
    title: &str,
    paid_cents: i64,
    now: Timestamp,
) -> Vec<NotificationRow> {
    let how = match by {
        ReleasedBy::Poster => "The poster released".to_owned(),
        ReleasedBy::Operator => "An operator decided the dispute and released".to_owned(),
        ReleasedBy::AutoRelease => format!("{} passed without an answer, so we released", span(AUTO_RELEASE_AFTER)),
    };
    let paid = display_amount(paid_cents, &payment.currency);
    vec![
        NotificationRow::new(
            payment.tasker_id,
            NotificationKind::Payment,
            "Payment released",
            format!(
                "{how} the payment for \"{title}\": {paid} (after the {FEE_PERCENT}% service fee) will reach your account in {}.",
                payouts::PAYOUT_TIME
            ),
            task_link(payment.task_id),
            now,
        ),
        NotificationRow::new(
            payment.poster_id,
            NotificationKind::Task,
            "Task completed",
            format!("\"{title}\" is complete and the payment was released. Leave a review for your tasker."),
            task_link(payment.task_id),
            now,
        ),
    ]
}

/// The other party of a new cancellation request: how long they have, and
/// what their silence does.
pub fn cancellation_requested(
    to: Uuid,
    requester: Party,
    task_id: Uuid,
    title: &str,
    reason: &str,
    now: Timestamp,
) -> NotificationRow {
    let silence = match requester {
        Party::Poster => {
            "without an answer the task is cancelled and the payment refunded, unless you have asked to be paid: then an operator decides and the payment stays held"
        }
        _ => "without an answer the task is cancelled and the payment refunded",
    };
    NotificationRow::new(
        to,
        NotificationKind::Task,
        "Cancellation requested",
        format!(
            "A cancellation of \"{title}\" was requested: {reason}. Accept or decline within {}; {silence}.",
            span(CANCELLATION_ANSWER_WINDOW)
        ),
        task_link(task_id),
        now,
    )
}

/// The requester, when the other party declines.
pub fn cancellation_declined(to: Uuid, task_id: Uuid, title: &str, now: Timestamp) -> NotificationRow {
    NotificationRow::new(
        to,
        NotificationKind::Task,
        "Cancellation declined",
        format!("Your request to cancel \"{title}\" was declined."),
        task_link(task_id),
        now,
    )
}

/// Both parties, when a cancellation request is accepted or lapses: with what
/// was refunded to the poster (cents and currency), if a payment was held.
pub fn task_cancelled(
    parties: [Uuid; 2],
    task_id: Uuid,
    title: &str,
    refunded: Option<(i64, &str)>,
    now: Timestamp,
) -> Vec<NotificationRow> {
    let refund_note = match refunded {
        Some((cents, currency)) => {
            format!(" The payment of {} is refunded to the poster.", display_amount(cents, currency))
        }
        None => String::new(),
    };
    parties
        .into_iter()
        .map(|user_id| {
            NotificationRow::new(
                user_id,
                NotificationKind::Task,
                "Task cancelled",
                format!("\"{title}\" was cancelled.{refund_note}"),
                task_link(task_id),
                now,
            )
        })
        .collect()
}

/// The poster, when a tip's checkout ends unpaid (`why` opens the text).
pub fn tip_not_paid(payment: &PaymentRow, title: &str, why: &str, now: Timestamp) -> NotificationRow {
    let amount = display_amount(payment.amount_cents, &payment.currency);
    NotificationRow::new(
        payment.poster_id,
        NotificationKind::Payment,
        "Tip not paid",
        format!(
            "{why} Your tip of {amount} for \"{title}\" was not paid and you have not been charged; the task's payment was released as usual."
        ),
        task_link(payment.task_id),
        now,
    )
}

pub fn tip_processing(payment: &PaymentRow, title: &str, now: Timestamp) -> NotificationRow {
    let amount = display_amount(payment.amount_cents, &payment.currency);
    NotificationRow::new(
        payment.poster_id,
        NotificationKind::Payment,
        "Payment processing",
        format!(
            "Your tip of {amount} for \"{title}\" is processing. It reaches your tasker as soon as your bank confirms it."
        ),
        task_link(payment.task_id),
        now,
    )
}

/// The tasker and the poster, when a tip is paid.
pub fn tip_paid(payment: &PaymentRow, title: &str, now: Timestamp) -> Vec<NotificationRow> {
    let amount = display_amount(payment.amount_cents, &payment.currency);
    vec![
        NotificationRow::new(
            payment.tasker_id,
            NotificationKind::Payment,
            "Tip received",
            format!(
                "The poster tipped you {amount} for \"{title}\". Tips are paid to you in full, with no service fee."
            ),
            task_link(payment.task_id),
            now,
        ),
        NotificationRow::new(
            payment.poster_id,
            NotificationKind::Payment,
            "Tip paid",
            format!("Your tip of {amount} for \"{title}\" was paid to your tasker in full."),
            task_link(payment.task_id),
            now,
        ),
    ]
}

/// The poster, when the tasker asks for more.
pub fn increase_requested(
    poster_id: Uuid,
    task_id: Uuid,
    title: &str,
    (amount_cents, currency): (i64, &str),
    reason: &str,
    now: Timestamp,
) -> NotificationRow {
    let amount = display_amount(amount_cents, currency);
    NotificationRow::new(
        poster_id,
        NotificationKind::Payment,
        "Price increase requested",
        format!(
            "Your tasker asked for {amount} more for \"{title}\": {reason}. Approve and pay the difference, or decline, within {}.",
            span(increases::ANSWER_WINDOW)
        ),
        task_link(task_id),
        now,
    )
}

/// The tasker, when the poster declines (with their reason, if they gave one).
pub fn increase_declined(
    tasker_id: Uuid,
    task_id: Uuid,
    title: &str,
    (amount_cents, currency): (i64, &str),
    reason: Option<&str>,
    now: Timestamp,
) -> NotificationRow {
    let amount = display_amount(amount_cents, currency);
    let why = reason.map(|reason| format!(": {reason}")).unwrap_or_else(|| ".".into());
    NotificationRow::new(
        tasker_id,
        NotificationKind::Payment,
        "Price increase declined",
        format!("The poster declined your price increase of {amount} for \"{title}\"{why}"),
        task_link(task_id),
        now,
    )
}

/// The tasker, when the poster let the increase's window pass.
pub fn increase_lapsed(
    tasker_id: Uuid,
    task_id: Uuid,
    title: &str,
    (amount_cents, currency): (i64, &str),
    now: Timestamp,
) -> NotificationRow {
    let amount = display_amount(amount_cents, currency);
    NotificationRow::new(
        tasker_id,
        NotificationKind::Payment,
        "Price increase lapsed",
        format!(
            "The poster did not answer your price increase of {amount} for \"{title}\" within {}, so it lapsed.",
            span(increases::ANSWER_WINDOW)
        ),
        task_link(task_id),
        now,
    )
}

pub fn increase_processing(payment: &PaymentRow, title: &str, now: Timestamp) -> NotificationRow {
    let amount = display_amount(payment.amount_cents, &payment.currency);
    NotificationRow::new(
        payment.poster_id,
        NotificationKind::Payment,
        "Payment processing",
        format!(
            "Your payment of {amount} for the price increase on \"{title}\" is processing. It joins the task's payment as soon as your bank confirms it."
        ),
        task_link(payment.task_id),
        now,
    )
}

/// The tasker and the poster, when an increase's checkout is paid into the escrow.
pub fn increase_paid(payment: &PaymentRow, title: &str, now: Timestamp) -> [NotificationRow; 2] {
    let amount = display_amount(payment.amount_cents, &payment.currency);
    [
        NotificationRow::new(
            payment.tasker_id,
            NotificationKind::Payment,
            "Price increase paid",
            format!(
                "The poster paid your price increase of {amount} for \"{title}\". It is held with the rest of the payment until the task is complete."
            ),
            task_link(payment.task_id),
            now,
        ),
        NotificationRow::new(
            payment.poster_id,
            NotificationKind::Payment,
            "Payment held",
            format!("{amount} more for \"{title}\" is held securely until you release it."),
            task_link(payment.task_id),
            now,
        ),
    ]
}

/// The poster, when an increase's payment arrives after the increase was closed.
pub fn increase_refunded(payment: &PaymentRow, title: &str, now: Timestamp) -> NotificationRow {
    let amount = display_amount(payment.amount_cents, &payment.currency);
    NotificationRow::new(
        payment.poster_id,
        NotificationKind::Payment,
        "Payment refunded",
        format!(
            "The price increase on \"{title}\" was closed before your payment of {amount} arrived, so it is being refunded."
        ),
        task_link(payment.task_id),
        now,
    )
}

pub fn increase_failed(payment: &PaymentRow, title: &str, now: Timestamp) -> NotificationRow {
    let amount = display_amount(payment.amount_cents, &payment.currency);
    NotificationRow::new(
        payment.poster_id,
        NotificationKind::Payment,
        "Payment failed",
        format!(
            "Your bank did not confirm the payment of {amount} for the price increase on \"{title}\". You have not been charged; you can approve it again."
        ),
        task_link(payment.task_id),
        now,
    )
}
