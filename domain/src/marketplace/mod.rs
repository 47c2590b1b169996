//! Marketplace domain: the category catalogue, the rules of who may do
//! what to a task or an offer, in plain functions, and one service function
//! per transition (load → authorize → change → notify → publish) the handlers call.

pub mod invitations;
pub mod messages;
pub mod offers;
pub mod questions;
pub mod reschedules;
pub mod responsiveness;
pub mod reviews;
pub mod task_photos;
pub mod tasks;
