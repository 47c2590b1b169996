//! The states things move through and the kinds of notification, as enums:
//! the rules match on them, rows decode into them, the API and the live
//! events carry them, and the OpenAPI document lists their values (so the web's
//! generated types are unions, not `string`).
//!
//! Each value's text is written once, here, and is what the database stores.
//! SQL keeps its literals (`where status = 'open'`): PostgreSQL uses a partial
//! index only when the query names the value itself, not a parameter. The
//! schema's CHECK constraints list the same values; `tests/schema_states.rs`
//! holds the two together.

crate::text_enum! {
    /// A task's lifecycle (docs/architecture.md, "The lifecycles").
    pub enum TaskStatus {
        Open = "open",
        /// An offer is accepted and its checkout is open.
        PendingPayment = "pending_payment",
        Assigned = "assigned",
        CompletionRequested = "completion_requested",
        Completed = "completed",
        Cancelled = "cancelled",
        /// Taken down by a moderator: only operators read it.
        Removed = "removed",
    }
}

impl TaskStatus {
    /// Assigned and not yet finished: the states in which the job itself can change
    /// (cancellations, disputes, increases, reschedules).
    pub fn is_under_way(self) -> bool {
        matches!(self, Self::Assigned | Self::CompletionRequested)
    }
}

crate::text_enum! {
    pub enum OfferStatus {
        Pending = "pending",
        Accepted = "accepted",
        /// Another offer was accepted, or the task closed.
        NotSelected = "not_selected",
        Withdrawn = "withdrawn",
    }
}

crate::text_enum! {
    /// A charge held in escrow: pending → (processing →) held → released | refunded;
    /// a checkout that was never paid ends `expired`, a processing payment that
    /// did not settle ends `failed` (docs/architecture.md, "The lifecycles").
    pub enum PaymentStatus {
        /// Checkout open, not yet paid.
        Pending = "pending",
        /// Paid, the provider has not yet settled it (a late payment method).
        Processing = "processing",
        Failed = "failed",
        Held = "held",
        Released = "released",
        Refunded = "refunded",
        /// The checkout lapsed unpaid.
        Expired = "expired",
    }
}

crate::text_enum! {
    /// The kind of a charge held in escrow (`payments.purpose`): the checkout that bought the task,
    /// a price increase the poster approved (its parent is the task's payment, held and settled
    /// with it), or a tip paid on release (to the tasker in full, no fee). Every step of the money
    /// (settling a checkout, releasing, refunding, transferring) matches on it exhaustively, so a
    /// new kind is a compile error wherever it must be handled.
    pub enum PaymentPurpose {
        Task = "task",
        Increase = "increase",
        Tip = "tip",
    }
}

crate::text_enum! {
    /// Money owed to or back from the payment provider: a transfer to the tasker, or a refund
    /// to the poster. Making a call matches on it.
    pub enum ProviderCallKind {
        Transfer = "transfer",
        Refund = "refund",
    }
}

crate::text_enum! {
    /// One movement of money in the ledger (`ledger_entries.kind`), with its sign on what the
    /// platform holds for posters and taskers.
    pub enum LedgerKind {
        /// The poster's card is charged into escrow (+amount).
        Charge = "charge",
        /// The tasker is paid out of escrow (−(amount − fee)).
        Payout = "payout",
        /// The platform keeps its fee (−fee).
        Fee = "fee",
        /// The poster gets the charge back (−amount).
        Refund = "refund",
    }
}

crate::text_enum! {
    /// Why a party opened a dispute.
    pub enum DisputeReason {
        NotCompleted = "not_completed",
        PoorQuality = "poor_quality",
        NoShow = "no_show",
        Other = "other",
    }
}

crate::text_enum! {
    /// How an operator (or the poster's release) ended a dispute.
    pub enum DisputeOutcome {
        Release = "release",
        PartialRefund = "partial_refund",
        Refund = "refund",
    }
}

crate::text_enum! {
    /// Whom a cancellation counts against: the tasker's completion rate counts only theirs.
    pub enum CancellationAttribution {
        Poster = "poster",
        Tasker = "tasker",
        /// A shared cause (weather, agreement) or nobody's fault on record.
        #[serde(rename = "none")]
        Nobody = "none",
    }
}

crate::text_enum! {
    pub enum DisputeStatus {
        Open = "open",
        Resolved = "resolved",
    }
}

crate::text_enum! {
    /// A request to cancel an assigned task, answered by the other party.
    pub enum CancellationStatus {
        Pending = "pending",
        Accepted = "accepted",
        Declined = "declined",
        /// Unanswered within its window: it takes effect.
        Lapsed = "lapsed",
        /// Overtaken by the task's own ending (completed, disputed, cancelled otherwise).
        Closed = "closed",
    }
}

crate::text_enum! {
    /// A price increase the assigned tasker asks for: pending → approved (its checkout is open)
    /// → paid, or declined | lapsed (unanswered) | closed (the task moved on first).
    pub enum PriceIncreaseStatus {
        Pending = "pending",
        Approved = "approved",
        Paid = "paid",
        Declined = "declined",
        Lapsed = "lapsed",
        Closed = "closed",
    }
}

crate::text_enum! {
    /// A new date one party proposes: pending → accepted | declined | lapsed, or closed when
    /// the task was released or cancelled first.
    pub enum RescheduleStatus {
        Pending = "pending",
        Accepted = "accepted",
        Declined = "declined",
        Lapsed = "lapsed",
        Closed = "closed",
    }
}

crate::text_enum! {
    /// A transfer or refund owed to the payment provider: pending (due, retried with backoff)
    /// → done, or parked for an operator after too many failures or while held.
    pub enum ProviderCallStatus {
        Pending = "pending",
        Done = "done",
        Parked = "parked",
    }
}

crate::text_enum! {
    /// A push owed to one device for one notification (`push_deliveries.status`): pending (due,
    /// retried with backoff) → sent, or parked after too many failures or a gone subscription.
    pub enum PushStatus {
        Pending = "pending",
        Sent = "sent",
        Parked = "parked",
    }
}

crate::text_enum! {
    /// A notification's line in a person's email digest (`email_deliveries.status`): pending →
    /// sent, skipped (read meanwhile, or email turned off for its kind), or parked after too
    /// many failed digests.
    pub enum EmailLineStatus {
        Pending = "pending",
        Sent = "sent",
        Skipped = "skipped",
        Parked = "parked",
    }
}

crate::text_enum! {
    /// What a notification is about; people turn push and email on or off per kind.
    /// Declared in the order the settings page shows them.
    pub enum NotificationKind {
        Offer = "offer",
        Message = "message",
        Payment = "payment",
        Dispute = "dispute",
        Reminder = "reminder",
        Task = "task",
        TaskAlert = "task_alert",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the API sends (serde) and what the database stores (`as_str`) are one text.
    fn assert_json_is_the_stored_text<
        T: Copy + serde::Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
    >(
        all: &[T],
        as_str: fn(T) -> &'static str,
    ) {
        for &value in all {
            assert_eq!(serde_json::to_value(value).unwrap(), as_str(value), "{value:?}");
            assert_eq!(serde_json::from_value::<T>(as_str(value).into()).unwrap(), value);
        }
    }

    #[test]
    fn the_json_and_the_database_text_are_one_text() {
        assert_json_is_the_stored_text(TaskStatus::ALL, TaskStatus::as_str);
        assert_json_is_the_stored_text(OfferStatus::ALL, OfferStatus::as_str);
        assert_json_is_the_stored_text(PaymentStatus::ALL, PaymentStatus::as_str);
        assert_json_is_the_stored_text(PaymentPurpose::ALL, PaymentPurpose::as_str);
        assert_json_is_the_stored_text(ProviderCallKind::ALL, ProviderCallKind::as_str);
        assert_json_is_the_stored_text(LedgerKind::ALL, LedgerKind::as_str);
        assert_json_is_the_stored_text(PushStatus::ALL, PushStatus::as_str);
        assert_json_is_the_stored_text(EmailLineStatus::ALL, EmailLineStatus::as_str);
        assert_json_is_the_stored_text(DisputeReason::ALL, DisputeReason::as_str);
        assert_json_is_the_stored_text(DisputeOutcome::ALL, DisputeOutcome::as_str);
        assert_json_is_the_stored_text(CancellationAttribution::ALL, CancellationAttribution::as_str);
        assert_json_is_the_stored_text(DisputeStatus::ALL, DisputeStatus::as_str);
        assert_json_is_the_stored_text(CancellationStatus::ALL, CancellationStatus::as_str);
        assert_json_is_the_stored_text(NotificationKind::ALL, NotificationKind::as_str);
        assert_json_is_the_stored_text(PriceIncreaseStatus::ALL, PriceIncreaseStatus::as_str);
        assert_json_is_the_stored_text(RescheduleStatus::ALL, RescheduleStatus::as_str);
        assert_json_is_the_stored_text(ProviderCallStatus::ALL, ProviderCallStatus::as_str);
        assert_eq!(TaskStatus::CompletionRequested.as_str(), "completion_requested");
        assert_eq!(NotificationKind::TaskAlert.to_string(), "task_alert");
        assert_eq!(OfferStatus::parse("not_selected"), Some(OfferStatus::NotSelected));
        assert_eq!(OfferStatus::parse("Not_selected"), None);
    }

    #[test]
    fn only_assigned_and_completion_requested_are_under_way() {
        let under_way: Vec<_> = TaskStatus::ALL.iter().filter(|status| status.is_under_way()).collect();
        assert_eq!(under_way, [&TaskStatus::Assigned, &TaskStatus::CompletionRequested]);
    }
}
