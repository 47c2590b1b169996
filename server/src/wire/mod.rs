//! What the API answers and live events carry: plain structs with pure conversions from store rows.

pub mod accounts;
pub mod marketplace;
pub mod paging;
