//! Marketplace domain: the category catalogue and the rules of who may do
//! what to a task or an offer, in plain functions the handlers call.

pub mod cancellations;
pub mod categories;
pub mod reschedules;
pub mod responsiveness;
pub mod rules;
