//! Trust and safety: the contact guard, reports and what operators do about them.
//! Knows nothing of HTTP: it refuses with `refusal`'s refusals, which `http` maps.

pub mod actions;
pub mod guard;
pub mod reports;
