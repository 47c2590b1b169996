//! The domain's refusals, independent of HTTP: bad input ([`Invalid`], with
//! a message per field), a refused actor or state ([`Denial`]), too many
//! attempts ([`RateLimited`]), and [`DomainError`] for a transition that can
//! also fail below the rules (the database, a payment provider). `http`
//! maps each to its status and the contract's error body
//! (`http/error_statuses.rs`); the domain never names a status code.

use model::refusal::{Denial, Invalid, RateLimited};

use crate::payments::PaymentError;

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
