//! Every notification's wording, in one place: one function per notice, each
//! composing its title, text and link from the rules' own constants (the fee
//! from `payments::fees`, the windows from the sweep, the increases and the
//! reschedules), so a changed rule changes what people are told with it.
//!
//! A notice for a known person is a [`NotificationRow`]; a notice whose
//! recipients are only known inside the store's transaction (the taskers whose
//! offers a change closed) is a [`Notice`], stamped there for each of them. The
//! store only persists what it is given. Amounts only known inside the
//! transaction (what a release pays out, what a cancellation refunds) are
//! handed to a notice function the caller passes in.

mod disputes;
mod escrow;
mod marketplace;
mod moderation;

use std::time::Duration;

use uuid::Uuid;

pub use self::{disputes::*, escrow::*, marketplace::*, moderation::*};
pub use store::notifications::{Notice, NotificationRow};

/// The task page, where nearly every notice leads.
fn task_link(task_id: Uuid) -> Option<String> {
    Some(format!("/task/{task_id}"))
}

/// A rule's window as people read it: hours up to three days ("48 hours",
/// "72 hours"), whole days beyond ("7 days", "14 days").
pub fn span(window: Duration) -> String {
    let hours = window.as_secs() / 3600;
    if hours <= 72 || !hours.is_multiple_of(24) { format!("{hours} hours") } else { format!("{} days", hours / 24) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::payments::{increases, sweep};
    use model::{
        payments::{fees::FEE_PERCENT, rules::Party},
        states::PaymentPurpose,
    };
    use store::{db::Timestamp, payments::PaymentRow};

    fn payment(amount_cents: i64) -> PaymentRow {
        let now = Timestamp(1_700_000_000_000);
        PaymentRow {
            id: Uuid::nil(),
            task_id: Uuid::from_u128(7),
            offer_id: Uuid::nil(),
            poster_id: Uuid::from_u128(1),
            tasker_id: Uuid::from_u128(2),
            provider: "sandbox".into(),
            session_id: String::new(),
            checkout_url: String::new(),
            amount_cents,
            fee_cents: model::payments::fees::fee_cents(amount_cents),
            currency: "aud".into(),
            status: model::states::PaymentStatus::Held,
            charge_ref: None,
            payment_intent: None,
            transfer_ref: None,
            refund_ref: None,
            refund_reason: None,
            completion_requested_at: None,
            expires_at: now,
            created_at: now,
            updated_at: now,
            held_at: None,
            released_at: None,
            refunded_at: None,
            refunded_cents: 0,
            next_check_at: None,
            check_attempts: 0,
            purpose: PaymentPurpose::Task,
            parent_payment_id: None,
        }
    }

    #[test]
    fn a_release_names_the_fee_from_the_fee_rule_and_the_payout_time() {
        let now = Timestamp(1_700_000_000_000);
        let [tasker, poster] =
            <[NotificationRow; 2]>::try_from(released(ReleasedBy::Poster, &payment(10_000), "Fix the tap", 9_000, now))
                .unwrap();
        assert_eq!(
            tasker.message,
            "The poster released the payment for \"Fix the tap\": $90.00 AUD (after the 10% service fee) will reach your account in 3-5 business days."
        );
        assert!(tasker.message.contains(&format!("after the {FEE_PERCENT}% service fee")));
        assert_eq!(
            (tasker.user_id, tasker.title.as_str(), tasker.kind.as_str()),
            (Uuid::from_u128(2), "Payment released", "payment")
        );
        assert_eq!(tasker.link.as_deref(), Some("/task/00000000-0000-0000-0000-000000000007"));
        assert_eq!((poster.user_id, poster.title.as_str()), (Uuid::from_u128(1), "Task completed"));
    }

    #[test]
    fn auto_release_and_the_payment_request_count_the_sweeps_own_days() {
        let now = Timestamp(0);
        let auto = released(ReleasedBy::AutoRelease, &payment(5_000), "Mow", 4_500, now);
        assert!(auto[0].message.starts_with(&format!("{} passed without an answer", span(sweep::AUTO_RELEASE_AFTER))));
        assert!(auto[0].message.starts_with("7 days passed without an answer, so we released the payment"));
        let asked = payment_requested(Uuid::nil(), Uuid::nil(), "Mow", now);
        assert!(asked.message.ends_with("it is released automatically after 7 days."), "{}", asked.message);
    }

    #[test]
    fn answer_windows_come_from_their_rules() {
        let now = Timestamp(0);
        let asked = cancellation_requested(Uuid::nil(), Party::AssignedTasker, Uuid::nil(), "Mow", "rain", now);
        assert_eq!(
            asked.message,
            "A cancellation of \"Mow\" was requested: rain. Accept or decline within 48 hours; without an answer the task is cancelled and the payment refunded."
        );
        assert_eq!(span(sweep::CANCELLATION_ANSWER_WINDOW), "48 hours");
        let increase = increase_requested(Uuid::nil(), Uuid::nil(), "Mow", (2_500, "aud"), "more grass", now);
        assert!(increase.message.ends_with(&format!("or decline, within {}.", span(increases::ANSWER_WINDOW))));
        assert!(increase.message.contains("$25.00 AUD more"), "{}", increase.message);
        assert!(increase.message.ends_with("within 72 hours."));
    }

    #[test]
    fn a_split_decision_pays_the_rest_less_the_fee() {
        let [_, tasker] = dispute_refunded(&payment(10_000), "Paint", 4_000, "Half done.", Timestamp(0));
        assert_eq!(
            tasker.message,
            "An operator decided the dispute about \"Paint\": $54.00 AUD (after the 10% service fee) is paid to you and $40.00 AUD is refunded to the poster. Half done."
        );
    }

    #[test]
    fn a_notice_for_people_found_later_is_stamped_per_recipient() {
        let notice = offer_not_selected(Uuid::from_u128(7), "Mow");
        let (a, b) = (notice.to(Uuid::from_u128(3), Timestamp(5)), notice.to(Uuid::from_u128(4), Timestamp(5)));
        assert_ne!(a.id, b.id);
        assert_eq!((a.user_id, b.user_id), (Uuid::from_u128(3), Uuid::from_u128(4)));
        assert_eq!(a.message, "\"Mow\" was assigned to another tasker.");
        assert_eq!(a.message, b.message);
    }

    #[test]
    fn windows_read_in_hours_up_to_three_days_then_in_days() {
        assert_eq!(span(Duration::from_secs(48 * 3600)), "48 hours");
        assert_eq!(span(Duration::from_secs(72 * 3600)), "72 hours");
        assert_eq!(span(Duration::from_secs(7 * 24 * 3600)), "7 days");
        assert_eq!(span(Duration::from_secs(14 * 24 * 3600)), "14 days");
        assert_eq!(span(Duration::from_secs(100 * 3600)), "100 hours");
    }
}
