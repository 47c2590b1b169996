//! Outgoing mail: SMTP through lettre when `SMTP_URL` is set, otherwise a dev
//! mailbox of `.eml` files (plus a JSON summary each) under `DATA_DIR/mail/`.

use std::path::{Path, PathBuf};

use anyhow::Context;
use lettre::{
    AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor,
    message::{
        Mailbox,
        header::{ContentType, Header, HeaderName, HeaderValue},
    },
};
use serde::{Deserialize, Serialize};

use store::db::{Timestamp, new_id};

use crate::{
    config::Config,
    dev_outbox::{self, OutboxItem},
};

#[derive(Clone)]
pub enum Mailer {
    Smtp { transport: AsyncSmtpTransport<Tokio1Executor>, from: Mailbox },
    Mailbox { dir: PathBuf, from: Mailbox },
}

/// What the dev mailbox keeps about each message, for `/dev/mailbox`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct MailboxEntry {
    pub id: String,
    pub to: String,
    pub subject: String,
    pub created_at: Timestamp,
    pub text: String,
}

impl OutboxItem for MailboxEntry {
    fn id(&self) -> &str {
        &self.id
    }

    fn created_at(&self) -> Timestamp {
        self.created_at
    }
}

pub struct Email<'a> {
    pub to: &'a str,
    pub subject: &'a str,
    pub text: String,
    pub reply_to: Option<&'a str>,
}

impl Mailer {
    pub fn from_config(config: &Config) -> anyhow::Result<Self> {
        let from: Mailbox = config.mail_from.parse().context("MAIL_FROM is not a valid mailbox")?;
        match &config.smtp_url {
            Some(url) => {
                let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(url.expose())
                    .context("SMTP_URL is not a valid smtp:// or smtps:// URL")?
                    .build();
                Ok(Self::Smtp { transport, from })
            }
            None => Ok(Self::Mailbox { dir: mailbox_dir(&config.data_dir), from }),
        }
    }

    pub async fn send(&self, email: Email<'_>) -> anyhow::Result<()> {
        self.deliver(email, None).await
    }

    /// Mail the recipient can stop with one click (RFC 8058): `unsubscribe_url`
    /// is announced in `List-Unsubscribe` and accepts a bodiless POST.
    pub async fn send_with_unsubscribe(&self, email: Email<'_>, unsubscribe_url: &str) -> anyhow::Result<()> {
        self.deliver(email, Some(unsubscribe_url)).await
    }

    async fn deliver(&self, email: Email<'_>, unsubscribe_url: Option<&str>) -> anyhow::Result<()> {
        let from = match self {
            Self::Smtp { from, .. } | Self::Mailbox { from, .. } => from.clone(),
        };
        let mut builder = Message::builder()
            .from(from)
            .to(email.to.parse().context("recipient address")?)
            .subject(email.subject)
            .header(ContentType::TEXT_PLAIN);
        if let Some(reply_to) = email.reply_to {
            builder = builder.reply_to(reply_to.parse().context("reply-to address")?);
        }
        if let Some(url) = unsubscribe_url {
            builder = builder
                .header(ListUnsubscribe(format!("<{url}>")))
                .header(ListUnsubscribePost("List-Unsubscribe=One-Click".into()));
        }
        let message = builder.body(email.text.clone()).context("building email")?;
        match self {
            Self::Smtp { transport, .. } => {
                transport.send(message).await.context("sending email over SMTP")?;
            }
            Self::Mailbox { dir, .. } => {
                let id = new_id().to_string();
                tokio::fs::create_dir_all(dir).await.with_context(|| format!("creating {}", dir.display()))?;
                tokio::fs::write(dir.join(format!("{id}.eml")), message.formatted()).await.context("writing .eml")?;
                let entry = MailboxEntry {
                    id: id.clone(),
                    to: email.to.to_owned(),
                    subject: email.subject.to_owned(),
                    created_at: Timestamp::now(),
                    text: email.text,
                };
                dev_outbox::write(dir, &entry).await.context("writing mailbox entry")?;
                tracing::info!(to = email.to, subject = email.subject, "mail written to the dev mailbox");
            }
        }
        Ok(())
    }
}

/// `List-Unsubscribe` (RFC 2369).
#[derive(Clone, Debug)]
struct ListUnsubscribe(String);

/// `List-Unsubscribe-Post` (RFC 8058).
#[derive(Clone, Debug)]
struct ListUnsubscribePost(String);

macro_rules! text_header {
    ($type:ident, $name:literal) => {
        impl Header for $type {
            fn name() -> HeaderName {
                HeaderName::new_from_ascii_str($name)
            }

            fn parse(text: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
                Ok(Self(text.to_owned()))
            }

            fn display(&self) -> HeaderValue {
                HeaderValue::new(Self::name(), self.0.clone())
            }
        }
    };
}
text_header!(ListUnsubscribe, "List-Unsubscribe");
text_header!(ListUnsubscribePost, "List-Unsubscribe-Post");

pub fn mailbox_dir(data_dir: &Path) -> PathBuf {
    data_dir.join("mail")
}

/// Dev mailbox entries, newest first.
pub async fn read_mailbox(dir: &Path) -> anyhow::Result<Vec<MailboxEntry>> {
    dev_outbox::read(dir).await
}
