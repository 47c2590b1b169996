//! What the API answers and live events carry: plain structs with pure conversions from store
//! rows. No database, no `AppState`: callers read what a shape needs and pass it in.

pub mod accounts;
pub mod events;
pub mod marketplace;
pub mod moderation;
pub mod notifications;
pub mod paging;
