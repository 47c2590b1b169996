//! Whether the session an access token names has ended (signed out, password
//! reset, refresh token reuse). The answer comes from the shared database, so
//! it holds on every node; each node remembers it for a few seconds so a busy
//! client costs one query per session per `CACHE_FOR`, not one per request.

use std::{
    sync::Arc,
    time::{Duration, Instant},
};

use dashmap::DashMap;
use uuid::Uuid;

use store::{db::Db, refresh_tokens};

/// The longest an ended session's access token keeps working on another node.
pub const CACHE_FOR: Duration = Duration::from_secs(5);
/// Beyond this many remembered sessions, forget them all (they are cheap to ask again).
const MAX_REMEMBERED: usize = 100_000;

#[derive(Clone, Default)]
pub struct SessionRevocations {
    remembered: Arc<DashMap<Uuid, (Instant, bool)>>,
}

impl SessionRevocations {
    pub async fn is_revoked(&self, db: &Db, session_id: Uuid) -> sqlx::Result<bool> {
        let now = Instant::now();
        if let Some(entry) = self.remembered.get(&session_id)
            && now.duration_since(entry.0) < CACHE_FOR
        {
            return Ok(entry.1);
        }
        let revoked = refresh_tokens::family_revoked(db, session_id).await?;
        if self.remembered.len() >= MAX_REMEMBERED {
            self.remembered.retain(|_, (at, _)| now.duration_since(*at) < CACHE_FOR);
            if self.remembered.len() >= MAX_REMEMBERED {
                self.remembered.clear();
            }
        }
        self.remembered.insert(session_id, (now, revoked));
        Ok(revoked)
    }

    /// Ends these sessions on this node at once (other nodes follow within `CACHE_FOR`).
    pub fn mark_revoked(&self, session_ids: &[Uuid]) {
        // Far enough in the future to outlive any access token of the session.
        let until = Instant::now() + Duration::from_secs(3600);
        for id in session_ids {
            self.remembered.insert(*id, (until, true));
        }
    }
}
