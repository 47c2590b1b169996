//! Taskhub's domain: one service function per transition (load → authorize → rule → store →
//! notify → publish), every notification's wording (`notices`), what the API answers and the live
//! events carry (`wire`, `live`), and the outside providers behind their traits (payments, SMS,
//! identity, sign-in, push, mail, media, geocoding). It knows the model, the store and the hub,
//! never HTTP: the server's handlers call it (docs/architecture.md, "The server's crates").

pub mod accounts;
pub mod alerts;
pub mod auth;
pub mod config;
pub mod delivery;
pub mod dev_outbox;
pub mod geocoding;
pub mod live;
pub mod live_topics;
pub mod mail;
pub mod marketplace;
pub mod media;
pub mod moderation;
pub mod notices;
pub mod payments;
pub mod rate_limit;
pub mod refusal;
pub mod secret;
pub mod services;
pub mod signin;
pub mod sms;
pub mod verification;
pub mod wire;
