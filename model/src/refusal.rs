//! The rules' refusals, independent of HTTP: bad input ([`Invalid`], with a message per
//! field), a refused actor or state ([`Denial`]) and too many attempts ([`RateLimited`]).
//! The server maps each to its status and the contract's error body; no rule names a status.

use std::collections::BTreeMap;

/// Field name → what is wrong with it, in the words the form shows.
pub type FieldErrors = BTreeMap<String, String>;

/// Bad input: a summary (the first field's message, unless the check gives
/// its own) and the message of each bad field.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Invalid {
    pub message: String,
    pub fields: FieldErrors,
}

impl Invalid {
    /// One bad field; its message doubles as the summary.
    pub fn field(field: &str, message: &str) -> Self {
        Self { message: message.to_owned(), fields: FieldErrors::from([(field.to_owned(), message.to_owned())]) }
    }

    /// Bad input that is no single field's fault ("Please fill in all required fields").
    pub fn summary(message: &str) -> Self {
        Self { message: message.to_owned(), fields: FieldErrors::new() }
    }

    /// Ok when no field is bad; otherwise the first field's message is the summary.
    pub fn check(fields: FieldErrors) -> Result<(), Self> {
        match fields.values().next() {
            None => Ok(()),
            Some(first) => Err(Self { message: first.clone(), fields }),
        }
    }
}

/// A rule's refusal: the wrong actor (checked first) or the wrong state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Denial {
    #[error("{0}")]
    Forbidden(&'static str),
    #[error("{0}")]
    Conflict(&'static str),
}

/// Too many attempts: try again after this many seconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("Too many requests. Please wait a moment and try again.")]
pub struct RateLimited {
    pub retry_after_secs: u64,
}
