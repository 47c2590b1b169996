//! The status and error body of each domain refusal (`domain::refusal`): the
//! domain says what went wrong, only HTTP says how it is answered.

use domain::{payments::PaymentError, refusal::DomainError, wire::paging::BadPage};
use model::refusal::{Denial, Invalid, RateLimited};

use crate::http::error::ApiError;

impl From<BadPage> for ApiError {
    fn from(bad: BadPage) -> Self {
        match bad {
            BadPage::Limit => ApiError::field("limit", &bad.to_string()),
            BadPage::Cursor => ApiError::BadRequest(bad.to_string()),
        }
    }
}

impl From<Invalid> for ApiError {
    fn from(invalid: Invalid) -> Self {
        ApiError::Validation { message: invalid.message, fields: invalid.fields }
    }
}

impl From<Denial> for ApiError {
    fn from(denial: Denial) -> Self {
        match denial {
            Denial::Forbidden(message) => ApiError::Forbidden(message.into()),
            Denial::Conflict(message) => ApiError::Conflict(message.into()),
        }
    }
}

impl From<RateLimited> for ApiError {
    fn from(limited: RateLimited) -> Self {
        ApiError::RateLimited { retry_after_secs: limited.retry_after_secs }
    }
}

impl From<PaymentError> for ApiError {
    fn from(error: PaymentError) -> Self {
        match error {
            PaymentError::Rejected { message, .. } => ApiError::BadRequest(format!("Payment Error: {message}")),
            PaymentError::Unavailable(reason) => {
                tracing::warn!(reason, "payment provider unavailable");
                ApiError::Unavailable
            }
            other @ PaymentError::Misconfigured(_) => ApiError::Internal(other.into()),
        }
    }
}

impl From<DomainError> for ApiError {
    fn from(error: DomainError) -> Self {
        match error {
            DomainError::Invalid(invalid) => invalid.into(),
            DomainError::Forbidden(message) => ApiError::Forbidden(message),
            DomainError::NotFound(message) => ApiError::NotFound(message),
            DomainError::Conflict(message) => ApiError::Conflict(message),
            DomainError::RateLimited(limited) => limited.into(),
            DomainError::Payment(error) => error.into(),
            DomainError::Database(error) => error.into(),
            DomainError::Internal(error) => ApiError::Internal(error),
        }
    }
}

#[cfg(test)]
mod tests {
    use axum::{http::StatusCode, response::IntoResponse};

    use super::*;

    fn status(error: impl Into<ApiError>) -> StatusCode {
        error.into().into_response().status()
    }

    #[test]
    fn each_refusal_keeps_its_status() {
        assert_eq!(status(Invalid::field("title", "Please enter a title")), StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(status(Denial::Forbidden("no")), StatusCode::FORBIDDEN);
        assert_eq!(status(Denial::Conflict("not now")), StatusCode::CONFLICT);
        assert_eq!(status(RateLimited { retry_after_secs: 3 }), StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(status(DomainError::not_found("Dispute")), StatusCode::NOT_FOUND);
        assert_eq!(status(DomainError::Conflict("moved on".into())), StatusCode::CONFLICT);
        assert_eq!(
            status(DomainError::Payment(PaymentError::Unavailable("down".into()))),
            StatusCode::SERVICE_UNAVAILABLE
        );
        assert_eq!(status(DomainError::Database(sqlx::Error::PoolTimedOut)), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(status(DomainError::Internal(anyhow::anyhow!("boom"))), StatusCode::INTERNAL_SERVER_ERROR);
    }

    #[test]
    fn bad_input_keeps_its_fields_and_summary() {
        let ApiError::Validation { message, fields } = ApiError::from(Invalid::field("title", "Please enter a title"))
        else {
            panic!("not a validation error")
        };
        assert_eq!(message, "Please enter a title");
        assert_eq!(fields.get("title").map(String::as_str), Some("Please enter a title"));
    }
}
