//! What a task, an offer and a cancellation must be: categories, input rules and the
//! cancellation reasons with their attribution.

pub mod cancellations;
pub mod categories;
pub mod rules;
