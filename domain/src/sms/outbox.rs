//! The dev SMS outbox: each text a JSON file under `DATA_DIR/sms/`, shown at `/dev/mailbox`.

use std::path::{Path, PathBuf};

use async_trait::async_trait;
use serde::{Deserialize, Serialize};

use store::db::{Timestamp, new_id};

use crate::{
    dev_outbox::{self, OutboxItem},
    sms::{SmsError, SmsProvider, TextMessage},
};

pub struct Outbox {
    dir: PathBuf,
}

/// What the outbox keeps about each text.
#[derive(Clone, Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct OutboxEntry {
    pub id: String,
    pub to: String,
    pub body: String,
    pub created_at: Timestamp,
}

impl OutboxItem for OutboxEntry {
    fn id(&self) -> &str {
        &self.id
    }

    fn created_at(&self) -> Timestamp {
        self.created_at
    }
}

impl Outbox {
    pub fn new(dir: PathBuf) -> Self {
        Self { dir }
    }
}

pub fn outbox_dir(data_dir: &Path) -> PathBuf {
    data_dir.join("sms")
}

#[async_trait]
impl SmsProvider for Outbox {
    fn name(&self) -> &'static str {
        "outbox"
    }

    async fn send(&self, message: &TextMessage) -> Result<(), SmsError> {
        let entry = OutboxEntry {
            id: new_id().to_string(),
            to: message.to.clone(),
            body: message.body.clone(),
            created_at: Timestamp::now(),
        };
        dev_outbox::write(&self.dir, &entry)
            .await
            .map_err(|error| SmsError::Unavailable(format!("writing to the SMS outbox: {error:#}")))?;
        tracing::info!("text written to the dev SMS outbox");
        Ok(())
    }
}

/// Outbox entries, newest first.
pub async fn read_outbox(dir: &Path) -> anyhow::Result<Vec<OutboxEntry>> {
    dev_outbox::read(dir).await
}
