//! Text messages behind a trait (docs/architecture.md, decision 17): Twilio's Messages API when
//! `TWILIO_ACCOUNT_SID`, `TWILIO_AUTH_TOKEN` and `TWILIO_FROM` are set, otherwise a dev outbox of
//! files under `DATA_DIR/sms/` (listed at `/dev/mailbox` in dev mode), so the whole phone
//! verification flow works offline.

pub mod outbox;
pub mod twilio;

use std::sync::Arc;

use anyhow::Context;
use async_trait::async_trait;

use crate::config::Config;

/// One text to one number.
#[derive(Clone, Debug)]
pub struct TextMessage {
    /// E.164.
    pub to: String,
    pub body: String,
}

#[derive(Debug, thiserror::Error)]
pub enum SmsError {
    /// The provider refused this message (e.g. a number it cannot reach).
    #[error("the SMS provider refused the message: {0}")]
    Rejected(String),
    /// The provider is unreachable or failing, or our set-up is wrong.
    #[error("the SMS provider is unavailable: {0}")]
    Unavailable(String),
}

#[async_trait]
pub trait SmsProvider: Send + Sync {
    /// `outbox` or `twilio`.
    fn name(&self) -> &'static str;
    async fn send(&self, message: &TextMessage) -> Result<(), SmsError>;
}

/// Twilio when configured, else the dev outbox.
pub fn from_config(config: &Config) -> anyhow::Result<Arc<dyn SmsProvider>> {
    match (&config.twilio_account_sid, &config.twilio_auth_token, &config.twilio_from) {
        (Some(sid), Some(token), Some(from)) => {
            Ok(Arc::new(twilio::Twilio::new(sid.clone(), token.clone(), from.clone(), &config.twilio_api_base)?))
        }
        (None, None, None) => Ok(Arc::new(outbox::Outbox::new(outbox::outbox_dir(&config.data_dir)))),
        _ => anyhow::bail!("TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM must be set together"),
    }
}

/// `SMS_ALLOWED_COUNTRIES`: ISO 3166-1 alpha-2 codes separated by commas.
pub fn parse_countries(text: &str) -> anyhow::Result<Vec<String>> {
    let countries: Vec<String> =
        text.split(',').map(|code| code.trim().to_ascii_uppercase()).filter(|code| !code.is_empty()).collect();
    anyhow::ensure!(!countries.is_empty(), "SMS_ALLOWED_COUNTRIES needs at least one country code, e.g. AU");
    for code in &countries {
        code.parse::<phonenumber::country::Id>()
            .ok()
            .with_context(|| format!("SMS_ALLOWED_COUNTRIES: {code:?} is not a country code (e.g. AU, NZ)"))?;
    }
    Ok(countries)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allowed_countries_are_region_codes() {
        assert_eq!(parse_countries(" au, nz ,").unwrap(), vec!["AU".to_owned(), "NZ".to_owned()]);
        assert!(parse_countries("Australia").is_err());
        assert!(parse_countries(" , ").is_err());
    }
}
