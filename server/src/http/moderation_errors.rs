//! How the moderation domain's refusals read in the API.

use crate::{error::ApiError, moderation::guard::ContactDetailsFound};

/// The field message the forms show under a text that carries contact details.
pub const KEEP_IT_ON_TASKHUB: &str = "Please keep contact details and payments on Taskhub until the task is assigned.";

impl From<ContactDetailsFound> for ApiError {
    fn from(found: ContactDetailsFound) -> Self {
        ApiError::Validation {
            message: KEEP_IT_ON_TASKHUB.to_owned(),
            fields: found.fields.into_iter().map(|field| (field, KEEP_IT_ON_TASKHUB.to_owned())).collect(),
        }
    }
}
