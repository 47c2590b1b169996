//! Verified people (docs/architecture.md, decision 17): phone numbers confirmed by a code sent by
//! SMS ([`phone`]), identities confirmed by a provider ([`identity`]: Stripe Identity, or the local
//! sandbox page). Only outcomes and their dates are stored, never a document.

pub mod identity;
pub mod phone;
pub mod stripe_identity;
