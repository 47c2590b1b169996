//! The dev SMS outbox: each text a JSON file under `DATA_DIR/sms/`, shown at `/dev/mailbox`.

use std::path::{Path, PathBuf};

use async_trait::async_trait;
use serde::{Deserialize, Serialize};

use super::{SmsError, SmsProvider, TextMessage};
use crate::db::{Timestamp, new_id};

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
        let write = async {
            tokio::fs::create_dir_all(&self.dir).await?;
            let json = serde_json::to_vec_pretty(&entry)?;
            tokio::fs::write(self.dir.join(format!("{}.json", entry.id)), json).await?;
            anyhow::Ok(())
        };
        write.await.map_err(|error| SmsError::Unavailable(format!("writing to the SMS outbox: {error}")))?;
        tracing::info!("text written to the dev SMS outbox");
        Ok(())
    }
}

/// Outbox entries, newest first.
pub async fn read_outbox(dir: &Path) -> anyhow::Result<Vec<OutboxEntry>> {
    let mut entries = Vec::new();
    let mut listing = match tokio::fs::read_dir(dir).await {
        Ok(listing) => listing,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(entries),
        Err(error) => return Err(error.into()),
    };
    while let Some(file) = listing.next_entry().await? {
        if file.path().extension().is_some_and(|ext| ext == "json") {
            let bytes = tokio::fs::read(file.path()).await?;
            if let Ok(entry) = serde_json::from_slice::<OutboxEntry>(&bytes) {
                entries.push(entry);
            }
        }
    }
    entries.sort_by(|a, b| b.created_at.cmp(&a.created_at).then_with(|| b.id.cmp(&a.id)));
    Ok(entries)
}
