//! Taskhub's model: the states things move through and every other vocabulary as enums, the
//! validated inputs ("drafts") and the rules that make them, the rules' refusals, fee and money
//! arithmetic, and the rules' constants. It does no I/O: no database, no network, no clock of
//! its own (a rule is handed "now"). Every other crate of the server builds on it
//! (docs/architecture.md, "The server's crates").

pub mod text_enum;

pub mod alerts;
pub mod gazetteer;
pub mod geo;
pub mod marketplace;
pub mod moderation;
pub mod payments;
pub mod refusal;
pub mod states;
pub mod text;
pub mod verification;
