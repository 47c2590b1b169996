//! Task alerts: matching newly posted tasks against the saved searches (their rules and
//! drafts are `model::alerts`).

pub mod matching;
