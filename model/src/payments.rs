//! Money arithmetic (the service fee) and who may move a task's money in which state.

pub mod fees;
pub mod process;
pub mod rules;
