//! Twilio's Messages API (`POST /2010-04-01/Accounts/{AccountSid}/Messages.json`, form-encoded
//! `To`, `From`, `Body`; HTTP basic auth with the account SID and auth token) over reqwest.
//! The base URL is configurable (`TWILIO_API_BASE`) so tests talk to a local fake held to
//! Twilio's published OpenAPI description.

use std::time::Duration;

use anyhow::Context;
use async_trait::async_trait;
use reqwest::StatusCode;
use serde_json::Value;

use crate::{
    secret::Secret,
    sms::{SmsError, SmsProvider, TextMessage},
};

pub const DEFAULT_API_BASE: &str = "https://api.twilio.com";

pub struct Twilio {
    http: reqwest::Client,
    account_sid: String,
    auth_token: Secret,
    from: String,
    api_base: String,
}

impl Twilio {
    pub fn new(account_sid: String, auth_token: Secret, from: String, api_base: &str) -> anyhow::Result<Self> {
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(15))
            .connect_timeout(Duration::from_secs(5))
            .user_agent("Taskhub/0.1")
            .build()
            .context("building the Twilio HTTP client")?;
        Ok(Self { http, account_sid, auth_token, from, api_base: api_base.trim_end_matches('/').to_owned() })
    }
}

#[async_trait]
impl SmsProvider for Twilio {
    fn name(&self) -> &'static str {
        "twilio"
    }

    /// One attempt: a text that may or may not have gone out is not sent twice (the person asks
    /// for another code instead).
    async fn send(&self, message: &TextMessage) -> Result<(), SmsError> {
        let url = format!("{}/2010-04-01/Accounts/{}/Messages.json", self.api_base, self.account_sid);
        let form = [("To", message.to.as_str()), ("From", self.from.as_str()), ("Body", message.body.as_str())];
        let response = self
            .http
            .post(&url)
            .basic_auth(&self.account_sid, Some(self.auth_token.expose()))
            .form(&form)
            .send()
            .await
            .map_err(|error| SmsError::Unavailable(format!("POST Messages.json: {error}")))?;
        let status = response.status();
        let body: Value = response.json().await.unwrap_or(Value::Null);
        let detail = body["message"].as_str().map_or_else(|| format!("Twilio answered {status}"), str::to_owned);
        match status {
            status if status.is_success() => Ok(()),
            StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN | StatusCode::TOO_MANY_REQUESTS => {
                Err(SmsError::Unavailable(detail))
            }
            status if status.is_server_error() => Err(SmsError::Unavailable(detail)),
            _ => Err(SmsError::Rejected(detail)),
        }
    }
}
