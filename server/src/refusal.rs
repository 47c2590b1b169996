//! The domain's refusals, independent of HTTP: bad input ([`Invalid`], with
//! a message per field), a refused actor or state ([`Denial`]), too many
//! attempts ([`RateLimited`]), and [`DomainError`] for a transition that can
//! also fail below the rules (the database, a payment provider). `http`
//! maps each to its status and the contract's error body
//! (`http/error_statuses.rs`); the domain never names a status code.

use std::collections::BTreeMap;

use crate::payments::PaymentError;

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

/// Why a transition did not happen.
#[derive(Debug, thiserror::Error)]
pub enum DomainError {
    #[error(transparent)]
    Invalid(#[from] Invalid),
    /// Not this caller's to do.
    #[error("{0}")]
    Forbidden(String),
    #[error("{0}")]
    NotFound(String),
    /// Not in this state (or it changed meanwhile).
    #[error("{0}")]
    Conflict(String),
    #[error(transparent)]
    RateLimited(#[from] RateLimited),
    /// The payment provider refused, or could not be reached.
    #[error(transparent)]
    Payment(#[from] PaymentError),
    #[error(transparent)]
    Database(#[from] sqlx::Error),
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

impl DomainError {
    pub fn not_found(what: &str) -> Self {
        Self::NotFound(format!("{what} not found"))
    }
}

impl From<Denial> for DomainError {
    fn from(denial: Denial) -> Self {
        match denial {
            Denial::Forbidden(message) => Self::Forbidden(message.into()),
            Denial::Conflict(message) => Self::Conflict(message.into()),
        }
    }
}

pub type DomainResult<T> = Result<T, DomainError>;
