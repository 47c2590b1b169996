//! Account rules: what a valid sign-up, profile and skill look like, and how a
//! person's name is shown. Plain functions, unit-tested, no I/O.

pub mod names;
pub mod validation;
