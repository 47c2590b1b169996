//! The dev outboxes: what would have been sent by mail or by text, kept as one
//! JSON file per item in a folder under `DATA_DIR` (`mail/`, `sms/`) and read
//! back, newest first, for `/dev/mailbox`.

use std::path::Path;

use anyhow::Context;
use serde::{Serialize, de::DeserializeOwned};

use store::db::Timestamp;

/// An item of a dev outbox, named by its id and ordered by when it was made.
pub trait OutboxItem: Serialize + DeserializeOwned {
    fn id(&self) -> &str;
    fn created_at(&self) -> Timestamp;
}

/// Writes `item` as `{id}.json` in `dir`, creating the folder first.
pub async fn write<T: OutboxItem>(dir: &Path, item: &T) -> anyhow::Result<()> {
    tokio::fs::create_dir_all(dir).await.with_context(|| format!("creating {}", dir.display()))?;
    let json = serde_json::to_vec_pretty(item)?;
    let file = dir.join(format!("{}.json", item.id()));
    tokio::fs::write(&file, json).await.with_context(|| format!("writing {}", file.display()))
}

/// The items in `dir`, newest first: none while it does not exist, and a file
/// that is not such an item is passed over.
pub async fn read<T: OutboxItem>(dir: &Path) -> anyhow::Result<Vec<T>> {
    let mut items = Vec::new();
    let mut listing = match tokio::fs::read_dir(dir).await {
        Ok(listing) => listing,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(items),
        Err(error) => return Err(error.into()),
    };
    while let Some(file) = listing.next_entry().await? {
        if file.path().extension().is_some_and(|ext| ext == "json") {
            let bytes = tokio::fs::read(file.path()).await?;
            if let Ok(item) = serde_json::from_slice::<T>(&bytes) {
                items.push(item);
            }
        }
    }
    items.sort_by(|a, b| b.created_at().cmp(&a.created_at()).then_with(|| b.id().cmp(a.id())));
    Ok(items)
}
