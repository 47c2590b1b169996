//! The contact form: stored, then mailed to the support address.

use axum::{Router, extract::State, http::StatusCode, routing::post};
use serde::Deserialize;

use domain::{accounts::validation, mail::Email, wire::site::ContactAccepted};
use store::{
    contact::{self, ContactMessage},
    db::Timestamp,
};

use crate::http::{
    error::{ApiError, ApiResult, FieldErrors},
    extract::{ApiJson, AuthUser, ClientIp},
    state::AppState,
};

const MAX_SHORT_CHARS: usize = 200;
const MAX_MESSAGE_CHARS: usize = 5000;

pub fn router() -> Router<AppState> {
    Router::new().route("/contact", post(send_contact_message))
}

#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(default)]
pub struct ContactInput {
    name: Option<String>,
    email: Option<String>,
    subject: Option<String>,
    message: Option<String>,
}

fn required(fields: &mut FieldErrors, field: &str, value: Option<&str>, missing: &str, max: usize) -> String {
    let text = value.unwrap_or("").trim().to_owned();
    if text.is_empty() {
        fields.insert(field.into(), missing.into());
    } else if text.chars().count() > max {
        fields.insert(field.into(), format!("Must be at most {max} characters"));
    }
    text
}

/// All four fields are required; answers 202 once the message is stored.
#[utoipa::path(post, path = "/api/contact", tag = "other", security((), ("bearer" = [])), request_body = ContactInput,
    responses((status = 202, body = ContactAccepted), (status = 422), (status = 429)))]
pub async fn send_contact_message(
    State(state): State<AppState>,
    caller: Option<AuthUser>,
    ClientIp(ip): ClientIp,
    ApiJson(input): ApiJson<ContactInput>,
) -> ApiResult<(StatusCode, ApiJson<ContactAccepted>)> {
    let mut fields = FieldErrors::new();
    let name = required(&mut fields, "name", input.name.as_deref(), "Name is required", MAX_SHORT_CHARS);
    let email = match validation::normalize_email(input.email.as_deref().unwrap_or("")) {
        Ok(email) => email,
        Err(message) => {
            fields.insert("email".into(), message.into());
            String::new()
        }
    };
    let subject = required(&mut fields, "subject", input.subject.as_deref(), "Subject is required", MAX_SHORT_CHARS);
    let message = required(&mut fields, "message", input.message.as_deref(), "Message is required", MAX_MESSAGE_CHARS);
    ApiError::check_fields(fields)?;
    state.auth_limits.check("contact", ip, Some(&email)).await?;
    let stored = ContactMessage { user_id: caller.map(|caller| caller.id), name, email, subject, message };
    contact::insert_contact_message(&state.db, &stored, Timestamp::now()).await?;
    // Stored first, so a slow or failing mail server never loses the message.
    let mailer = state.mailer.clone();
    let support = state.config.support_email.clone();
    state.background.spawn(async move {
        let text = format!("From: {} <{}>\n\n{}", stored.name, stored.email, stored.message);
        let subject = format!("Contact form: {}", stored.subject);
        let email = Email { to: &support, subject: &subject, text, reply_to: Some(&stored.email) };
        if let Err(error) = mailer.send(email).await {
            tracing::warn!(error = ?error, "could not mail a contact message to support");
        }
    });
    Ok((
        StatusCode::ACCEPTED,
        ApiJson(ContactAccepted { message: "Message sent. We'll get back to you as soon as possible.".into() }),
    ))
}
