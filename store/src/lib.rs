//! All of Taskhub's SQL: one function per query, named for what it answers, each running the same
//! SQL text on SQLite and PostgreSQL (`db.rs`). It knows the model and nothing above it.

pub mod added_charges;
pub mod alerts;
pub mod audit_log;
pub mod backfills;
pub mod browse;
pub mod cancellations;
pub mod contact;
pub mod db;
pub mod deliveries;
pub mod disputes;
pub mod earnings;
pub mod email_tokens;
pub mod escrow;
pub mod identities;
pub mod invitations;
pub mod last_seen;
pub mod ledger;
pub mod ledger_audit;
pub mod match_rank;
pub mod messages;
pub mod moderation;
pub mod notification_preferences;
pub mod notifications;
pub mod offers;
pub mod open_tasks;
pub mod payments;
pub mod portfolio;
pub mod price_increases;
pub mod profile_facts;
pub mod profiles;
pub mod provider_calls;
pub mod push_subscriptions;
pub mod questions;
pub mod realtime_tickets;
pub mod receipts;
pub mod refresh_tokens;
pub mod release;
pub mod reports;
pub mod reschedules;
pub mod reviews;
pub mod sandbox_sessions;
pub mod search;
pub mod task_photos;
pub mod tasks;
pub mod tips;
pub mod track_record;
pub mod user_record;
pub mod users;
pub mod verification;

/// Where a page ended: the last item's time and id. Ordered as the lists are, by time, then id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Position {
    pub created_at: crate::db::Timestamp,
    pub id: uuid::Uuid,
}
