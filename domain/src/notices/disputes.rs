//! The dispute notices: opened by a party or by the sweep, and decided by an
//! operator (a release is told by [`super::released`]).

use uuid::Uuid;

use model::{
    payments::fees::{FEE_PERCENT, display_amount, payout_cents},
    states::NotificationKind,
};
use store::{db::Timestamp, payments::PaymentRow};

use crate::{
    notices::{NotificationRow, span, task_link},
    payments::sweep::CANCELLATION_ANSWER_WINDOW,
};

/// The opener and the other party (`other_party` names the opener to them: "The tasker").
pub fn dispute_opened(
    (opened_by, other): (Uuid, Uuid),
    other_party: &str,
    task_id: Uuid,
    title: &str,
    now: Timestamp,
) -> [NotificationRow; 2] {
    [
        NotificationRow::new(
            opened_by,
            NotificationKind::Dispute,
            "Dispute opened",
            format!(
                "Your dispute about \"{title}\" is with our team. The payment stays held and nothing is released until an operator decides."
            ),
            task_link(task_id),
            now,
        ),
        NotificationRow::new(
            other,
            NotificationKind::Dispute,
            "Dispute opened",
            format!(
                "{other_party} opened a dispute about \"{title}\". The payment stays held until an operator decides; reply in the task's messages."
            ),
            task_link(task_id),
            now,
        ),
    ]
}

/// The poster and the tasker, when the poster's cancellation request went
/// unanswered after the tasker asked to be paid.
pub fn cancellation_escalated(
    (poster_id, tasker_id): (Uuid, Uuid),
    task_id: Uuid,
    title: &str,
    now: Timestamp,
) -> [NotificationRow; 2] {
    let window = span(CANCELLATION_ANSWER_WINDOW);
    [
        NotificationRow::new(
            poster_id,
            NotificationKind::Dispute,
            "Dispute opened",
            format!(
                "Your request to cancel \"{title}\" was not answered within {window}. As the tasker asked to be paid, an operator will decide; the payment stays held until then."
            ),
            task_link(task_id),
            now,
        ),
        NotificationRow::new(
            tasker_id,
            NotificationKind::Dispute,
            "Dispute opened",
            format!(
                "The poster's request to cancel \"{title}\" was not answered within {window}, so an operator will decide between it and your payment request. The payment stays held; reply in the task's messages."
            ),
            task_link(task_id),
            now,
        ),
    ]
}

/// Both parties, when an operator refunds `refund_cents` of the escrow
/// `payment` stands for: in full, or in part with the rest (less the fee) paid out.
pub fn dispute_refunded(
    payment: &PaymentRow,
    title: &str,
    refund_cents: i64,
    note: &str,
    now: Timestamp,
) -> [NotificationRow; 2] {
    let currency = &payment.currency;
    let refunded = display_amount(refund_cents, currency);
    let link = || task_link(payment.task_id);
    if refund_cents >= payment.amount_cents {
        [
            NotificationRow::new(
                payment.poster_id,
                NotificationKind::Dispute,
                "Dispute resolved: refunded",
                format!(
                    "An operator decided the dispute about \"{title}\": your payment of {refunded} is refunded in full and the task is cancelled. {note}"
                ),
                link(),
                now,
            ),
            NotificationRow::new(
                payment.tasker_id,
                NotificationKind::Dispute,
                "Dispute resolved: refunded",
                format!(
                    "An operator decided the dispute about \"{title}\": the payment is refunded to the poster and the task is cancelled. {note}"
                ),
                link(),
                now,
            ),
        ]
    } else {
        let paid = display_amount(payout_cents(payment.amount_cents - refund_cents), currency);
        [
            NotificationRow::new(
                payment.poster_id,
                NotificationKind::Dispute,
                "Dispute resolved: partly refunded",
                format!(
                    "An operator decided the dispute about \"{title}\": {refunded} is refunded to you and the rest is paid to the tasker. {note}"
                ),
                link(),
                now,
            ),
            NotificationRow::new(
                payment.tasker_id,
                NotificationKind::Dispute,
                "Dispute resolved: partly paid",
                format!(
                    "An operator decided the dispute about \"{title}\": {paid} (after the {FEE_PERCENT}% service fee) is paid to you and {refunded} is refunded to the poster. {note}"
                ),
                link(),
                now,
            ),
        ]
    }
}
