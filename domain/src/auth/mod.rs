//! Authentication: password hashing, access tokens (JWT), opaque one-time
//! tokens, and the extractors handlers use to learn who is calling.

pub mod access;
pub mod password;
pub mod revocation;
pub mod secrets;
