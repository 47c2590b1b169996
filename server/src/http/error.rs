//! The one API error type: every non-2xx answer has the contract's shape
//! `{"error": {"code", "message", "fields"?}}`.

use axum::{
    Json,
    extract::{
        multipart::MultipartRejection,
        rejection::{BytesRejection, JsonRejection, PathRejection, QueryRejection},
    },
    http::{HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};
use serde::Serialize;

pub use model::refusal::FieldErrors;

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("{message}")]
    Validation { message: String, fields: FieldErrors },
    #[error("{0}")]
    BadRequest(String),
    #[error("{0}")]
    Unauthorized(String),
    #[error("Please verify your email address before signing in.")]
    EmailNotConfirmed,
    #[error("{0}")]
    Forbidden(String),
    /// A suspended account signing in: the message is what the login form shows.
    #[error("{0}")]
    AccountSuspended(String),
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    MethodNotAllowed(String),
    #[error("{0}")]
    Conflict(String),
    #[error("{0}")]
    PayloadTooLarge(String),
    #[error("Too many requests. Please wait a moment and try again.")]
    RateLimited { retry_after_secs: u64 },
    #[error("Service temporarily unavailable")]
    Unavailable,
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

impl ApiError {
    /// A validation error on one field; its message doubles as the summary.
    pub fn field(field: &str, message: &str) -> Self {
        Self::Validation {
            message: message.to_owned(),
            fields: FieldErrors::from([(field.to_owned(), message.to_owned())]),
        }
    }

    /// A validation error without a specific field (e.g. the spec's "Please fill in all required fields").
    pub fn invalid(message: &str) -> Self {
        Self::Validation { message: message.to_owned(), fields: FieldErrors::new() }
    }

    /// Ok when there are no field errors; otherwise the first field's message is the summary.
    pub fn check_fields(fields: FieldErrors) -> Result<(), Self> {
        match fields.values().next() {
            None => Ok(()),
            Some(first) => Err(Self::Validation { message: first.clone(), fields }),
        }
    }

    pub fn not_found(what: &str) -> Self {
        Self::NotFound(format!("{what} not found"))
    }

    fn status_and_code(&self) -> (StatusCode, &'static str) {
        match self {
            Self::Validation { .. } => (StatusCode::UNPROCESSABLE_ENTITY, "validation_failed"),
            Self::BadRequest(_) => (StatusCode::BAD_REQUEST, "bad_request"),
            Self::Unauthorized(_) => (StatusCode::UNAUTHORIZED, "unauthorized"),
            Self::EmailNotConfirmed => (StatusCode::FORBIDDEN, "email_not_confirmed"),
            Self::Forbidden(_) => (StatusCode::FORBIDDEN, "forbidden"),
            Self::AccountSuspended(_) => (StatusCode::FORBIDDEN, "account_suspended"),
            Self::NotFound(_) => (StatusCode::NOT_FOUND, "not_found"),
            Self::MethodNotAllowed(_) => (StatusCode::METHOD_NOT_ALLOWED, "method_not_allowed"),
            Self::Conflict(_) => (StatusCode::CONFLICT, "conflict"),
            Self::PayloadTooLarge(_) => (StatusCode::PAYLOAD_TOO_LARGE, "payload_too_large"),
            Self::RateLimited { .. } => (StatusCode::TOO_MANY_REQUESTS, "rate_limited"),
            Self::Unavailable => (StatusCode::SERVICE_UNAVAILABLE, "unavailable"),
            Self::Internal(_) => (StatusCode::INTERNAL_SERVER_ERROR, "internal"),
        }
    }
}

/// The body of every non-2xx answer (named `ErrorBody` in the OpenAPI document).
#[derive(Serialize, utoipa::ToSchema)]
pub struct ErrorBody<'a> {
    error: ErrorDetail<'a>,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct ErrorDetail<'a> {
    /// `validation_failed`, `bad_request`, `unauthorized`, `email_not_confirmed`, `forbidden`, `account_suspended`,
    /// `not_found`, `method_not_allowed`, `conflict`, `payload_too_large`, `rate_limited`,
    /// `unavailable` or `internal`.
    #[schema(value_type = String)]
    code: &'a str,
    message: String,
    /// Field name → message; only on `validation_failed`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<BTreeMap<String, String>>)]
    fields: Option<&'a FieldErrors>,
}

/// What a 503 tells clients to wait: about how long a database restart or failover takes.
const UNAVAILABLE_RETRY_AFTER_SECS: u64 = 2;

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, code) = self.status_and_code();
        let message = match &self {
            Self::Internal(error) => {
                tracing::error!(error = ?error, "internal error");
                "Something went wrong. Please try again.".to_owned()
            }
            other => other.to_string(),
        };
        let fields = match &self {
            Self::Validation { fields, .. } if !fields.is_empty() => Some(fields),
            _ => None,
        };
        let mut response = (status, Json(ErrorBody { error: ErrorDetail { code, message, fields } })).into_response();
        match self {
            Self::RateLimited { retry_after_secs } => {
                response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(retry_after_secs.max(1)));
            }
            Self::Unavailable => {
                response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(UNAVAILABLE_RETRY_AFTER_SECS));
            }
            _ => {}
        }
        response
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(error: sqlx::Error) -> Self {
        if database_went_away(&error) {
            tracing::warn!(%error, "database unreachable; answering 503");
            return Self::Unavailable;
        }
        Self::Internal(error.into())
    }
}

/// The database restarted, failed over or is out of connections: the same request may well
/// succeed in a moment, so the client gets 503 with Retry-After rather than an internal error
/// (found by bench/soak restarting PostgreSQL under load).
fn database_went_away(error: &sqlx::Error) -> bool {
    match error {
        sqlx::Error::Io(_) | sqlx::Error::PoolTimedOut | sqlx::Error::PoolClosed | sqlx::Error::WorkerCrashed => true,
        // SQLSTATE class 08 (connection exception), 57P01..57P03 (shutting down, cannot connect now).
        sqlx::Error::Database(error) => {
            error.code().is_some_and(|code| code.starts_with("08") || matches!(&*code, "57P01" | "57P02" | "57P03"))
        }
        _ => false,
    }
}

pub const MISSING_JSON_CONTENT_TYPE: &str = "Expected a JSON body with Content-Type: application/json";

impl From<JsonRejection> for ApiError {
    fn from(rejection: JsonRejection) -> Self {
        match rejection {
            JsonRejection::JsonDataError(error) => {
                Self::Validation { message: error.body_text(), fields: FieldErrors::new() }
            }
            JsonRejection::MissingJsonContentType(_) => Self::BadRequest(MISSING_JSON_CONTENT_TYPE.into()),
            JsonRejection::BytesRejection(error) if error.status() == StatusCode::PAYLOAD_TOO_LARGE => {
                Self::PayloadTooLarge("The request body is too large".into())
            }
            other => Self::BadRequest(format!("Malformed JSON body: {}", other.body_text())),
        }
    }
}

impl From<QueryRejection> for ApiError {
    fn from(rejection: QueryRejection) -> Self {
        Self::BadRequest(rejection.body_text())
    }
}

impl From<BytesRejection> for ApiError {
    fn from(rejection: BytesRejection) -> Self {
        if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            Self::PayloadTooLarge("The request body is too large".into())
        } else {
            Self::BadRequest(rejection.body_text())
        }
    }
}

impl From<MultipartRejection> for ApiError {
    fn from(rejection: MultipartRejection) -> Self {
        Self::BadRequest(rejection.body_text())
    }
}

impl From<PathRejection> for ApiError {
    fn from(_: PathRejection) -> Self {
        // Unparseable ids (not a UUID) name nothing that exists.
        Self::NotFound("Not found".into())
    }
}

pub type ApiResult<T> = Result<T, ApiError>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_database_that_went_away_is_unavailable_with_retry_after_not_an_internal_error() {
        let connection_reset = std::io::Error::from(std::io::ErrorKind::ConnectionReset);
        for error in [sqlx::Error::Io(connection_reset), sqlx::Error::PoolTimedOut, sqlx::Error::PoolClosed] {
            let response = ApiError::from(error).into_response();
            assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
            assert!(response.headers().contains_key(header::RETRY_AFTER), "clients are told when to retry");
        }
    }

    #[test]
    fn other_database_errors_stay_internal() {
        let response = ApiError::from(sqlx::Error::RowNotFound).into_response();
        assert_eq!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
    }
}
