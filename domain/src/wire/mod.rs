//! What the API answers and live events carry: plain structs with pure conversions from store
//! rows. No database, no `Services`: callers read what a shape needs and pass it in.

pub mod accounts;
pub mod alerts;
pub mod assigned_tasks;
pub mod dispute_cases;
pub mod earnings;
pub mod escrow;
pub mod events;
pub mod marketplace;
pub mod messages;
pub mod moderation;
pub mod notifications;
pub mod paging;
pub mod payments;
pub mod push;
pub mod reviews;
pub mod sessions;
pub mod signin;
pub mod site;
pub mod user_record;
pub mod verification;
