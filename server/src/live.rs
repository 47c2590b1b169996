//! What the server tells open browsers, and on which topic. Every domain change
//! is published here, after its transaction commits; nothing private goes on a
//! public topic (`task:{id}`, `tasks`), private data only on `user:{id}`.

use serde::Serialize;
use uuid::Uuid;

use crate::state::AppState;

pub const TASKS_TOPIC: &str = "tasks";

pub fn task_topic(task_id: Uuid) -> String {
    format!("task:{task_id}")
}

pub fn user_topic(user_id: Uuid) -> String {
    format!("user:{user_id}")
}

/// Serializes `data` once and hands it to the hub (which never blocks on slow sockets).
pub async fn publish(state: &AppState, topic: &str, event: &str, data: &impl Serialize) {
    match serde_json::to_value(data) {
        Ok(value) => state.hub.publish(topic, event, &value).await,
        Err(error) => tracing::error!(error = ?error, event, "could not serialize a live event"),
    }
}
