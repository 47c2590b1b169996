//! Web Push subscriptions: one row per device (browser profile) a user enabled,
//! owned by the session that added it (removed when that session ends).

use sqlx::FromRow;
use tracing::instrument;
use uuid::Uuid;

use crate::{
    db::{Db, Timestamp, new_id},
    on_pool,
};

/// The most devices one user may register; the oldest beyond it are dropped.
pub const MAX_PER_USER: i64 = 20;

#[derive(Clone, Debug, FromRow)]
pub struct PushSubscriptionRow {
    pub id: Uuid,
    pub user_id: Uuid,
    pub endpoint: String,
    pub p256dh: String,
    pub auth: String,
    pub label: Option<String>,
    pub created_at: Timestamp,
    pub last_success_at: Option<Timestamp>,
}

pub struct NewSubscription<'a> {
    pub user_id: Uuid,
    /// The session adding the device; None for an access token that names none.
    pub session_id: Option<Uuid>,
    pub endpoint: &'a str,
    pub p256dh: &'a str,
    pub auth: &'a str,
    pub label: Option<&'a str>,
}

const COLUMNS: &str = "id, user_id, endpoint, p256dh, auth, label, created_at, last_success_at";

#[derive(Debug)]
pub enum Saved {
    /// A device new to the user.
    Added(PushSubscriptionRow),
    /// The user's device, its keys and session refreshed.
    Refreshed(PushSubscriptionRow),
    /// The endpoint is another user's device; nothing changed.
    TakenByAnotherUser,
}

/// Saves a device, or refreshes it when the user already has its endpoint. An
/// endpoint another user registered is left alone: moving it would hand a
/// device to whoever learns its endpoint.
#[instrument(skip_all)]
pub async fn upsert(db: &Db, new: &NewSubscription<'_>, now: Timestamp) -> sqlx::Result<Saved> {
    let id = new_id();
    let row = on_pool!(db, |pool| {
        sqlx::query_as::<_, PushSubscriptionRow>(sqlx::AssertSqlSafe(format!(
            "insert into push_subscriptions (id, user_id, session_id, endpoint, p256dh, auth, label, created_at)
             values ($1, $2, $3, $4, $5, $6, $7, $8)
             on conflict (endpoint) do update
               set session_id = excluded.session_id, p256dh = excluded.p256dh, auth = excluded.auth,
                   label = coalesce(excluded.label, push_subscriptions.label)
               where push_subscriptions.user_id = excluded.user_id
             returning {COLUMNS}"
        )))
        .bind(id)
        .bind(new.user_id)
        .bind(new.session_id)
        .bind(new.endpoint)
        .bind(new.p256dh)
        .bind(new.auth)
        .bind(new.label)
        .bind(now)
        .fetch_optional(pool)
        .await
    })?;
    let Some(row) = row else { return Ok(Saved::TakenByAnotherUser) };
    on_pool!(db, |pool| {
        sqlx::query(
            "delete from push_subscriptions where user_id = $1 and id not in
               (select id from push_subscriptions where user_id = $1 order by created_at desc, id desc limit $2)",
        )
        .bind(new.user_id)
        .bind(MAX_PER_USER)
        .execute(pool)
        .await
        .map(|_| ())
    })?;
    Ok(if row.id == id { Saved::Added(row) } else { Saved::Refreshed(row) })
}

/// The user's devices, newest first.
#[instrument(skip_all)]
pub async fn for_user(db: &Db, user_id: Uuid) -> sqlx::Result<Vec<PushSubscriptionRow>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, PushSubscriptionRow>(sqlx::AssertSqlSafe(format!(
            "select {COLUMNS} from push_subscriptions where user_id = $1 order by created_at desc, id desc"
        )))
        .bind(user_id)
        .fetch_all(pool)
        .await
    })
}

/// Removes one of the user's devices by endpoint; false when it is not theirs.
#[instrument(skip_all)]
pub async fn delete_for_user(db: &Db, user_id: Uuid, endpoint: &str) -> sqlx::Result<bool> {
    on_pool!(db, |pool| {
        sqlx::query("delete from push_subscriptions where user_id = $1 and endpoint = $2")
            .bind(user_id)
            .bind(endpoint)
            .execute(pool)
            .await
            .map(|done| done.rows_affected() == 1)
    })
}

/// The push service says the subscription is gone (404/410): forget it and what it was owed.
#[instrument(skip_all)]
pub async fn delete(db: &Db, id: Uuid) -> sqlx::Result<()> {
    on_pool!(db, |pool| {
        sqlx::query("delete from push_subscriptions where id = $1").bind(id).execute(pool).await.map(|_| ())
    })
}

#[instrument(skip_all)]
pub async fn mark_success(db: &Db, id: Uuid, now: Timestamp) -> sqlx::Result<()> {
    on_pool!(db, |pool| {
        sqlx::query("update push_subscriptions set last_success_at = $2 where id = $1")
            .bind(id)
            .bind(now)
            .execute(pool)
            .await
            .map(|_| ())
    })
}
