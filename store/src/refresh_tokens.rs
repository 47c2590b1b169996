//! Rotating refresh tokens grouped in families (one family per sign-in).
//! Presenting an already-rotated token means it leaked: the family is revoked.

use tracing::instrument;
use uuid::Uuid;

use crate::{
    db::{BeginWrite, Db, Timestamp, new_id},
    on_pool,
};

/// Ends a session inside `$tx`: its refresh tokens stop working and the push devices it added
/// are removed.
macro_rules! revoke_family {
    ($tx:expr, $family_id:expr, $now:expr) => {
        async {
            sqlx::query("update refresh_tokens set revoked_at = $1 where revoked_at is null and family_id = $2")
                .bind($now)
                .bind($family_id)
                .execute(&mut *$tx)
                .await?;
            sqlx::query("delete from push_subscriptions where session_id = $1")
                .bind($family_id)
                .execute(&mut *$tx)
                .await
                .map(|_| ())
        }
    };
}

/// Ends every session of the account `$user_id` inside `$tx` (a password reset, a suspension):
/// its refresh tokens stop working and all its push devices go, whichever session added them
/// (an attacker's among them). Answers the sessions that ended, each once.
macro_rules! revoke_every_family {
    ($tx:expr, $user_id:expr, $now:expr) => {
        async {
            let mut families: Vec<uuid::Uuid> = sqlx::query_scalar(
                "update refresh_tokens set revoked_at = $1 where user_id = $2 and revoked_at is null
                 returning family_id",
            )
            .bind($now)
            .bind($user_id)
            .fetch_all(&mut *$tx)
            .await?;
            sqlx::query("delete from push_subscriptions where user_id = $1").bind($user_id).execute(&mut *$tx).await?;
            families.sort_unstable();
            families.dedup();
            Ok::<_, sqlx::Error>(families)
        }
    };
}
pub(crate) use revoke_every_family;

pub struct NewRefreshToken<'a> {
    pub user_id: Uuid,
    pub family_id: Uuid,
    pub token_hash: &'a str,
    pub now: Timestamp,
    pub expires_at: Timestamp,
}

#[derive(Debug, PartialEq, Eq)]
pub enum Rotation {
    /// The presented token was current; a new one was stored in its place.
    Rotated { user_id: Uuid, family_id: Uuid },
    /// The token was already used: its whole family (session) is now revoked.
    ReuseDetected { family_id: Uuid },
    /// Unknown or expired.
    Invalid,
}

#[instrument(skip_all)]
pub async fn insert(db: &Db, token: &NewRefreshToken<'_>) -> sqlx::Result<()> {
    on_pool!(db, |pool| {
        sqlx::query(
            "insert into refresh_tokens (id, user_id, family_id, token_hash, created_at, expires_at)
             values ($1, $2, $3, $4, $5, $6)",
        )
        .bind(new_id())
        .bind(token.user_id)
        .bind(token.family_id)
        .bind(token.token_hash)
        .bind(token.now)
        .bind(token.expires_at)
        .execute(pool)
        .await
        .map(|done| done.rows_affected())
    })?;
    Ok(())
}

/// Uses up `old_hash` and stores `new_hash` in the same family, atomically.
#[instrument(skip_all)]
pub async fn rotate(
    db: &Db,
    old_hash: &str,
    new_hash: &str,
    now: Timestamp,
    expires_at: Timestamp,
) -> sqlx::Result<Rotation> {
    on_pool!(db, |pool| {
        async {
            let mut tx = pool.begin_write().await?;
            let current: Option<(Uuid, Uuid)> = sqlx::query_as(
                "update refresh_tokens set used_at = $1
                 where token_hash = $2 and used_at is null and revoked_at is null and expires_at > $1
                 returning user_id, family_id",
            )
            .bind(now)
            .bind(old_hash)
            .fetch_optional(&mut *tx)
            .await?;
            let outcome = match current {
                Some((user_id, family_id)) => {
                    sqlx::query(
                        "insert into refresh_tokens (id, user_id, family_id, token_hash, created_at, expires_at)
                         values ($1, $2, $3, $4, $5, $6)",
                    )
                    .bind(new_id())
                    .bind(user_id)
                    .bind(family_id)
                    .bind(new_hash)
                    .bind(now)
                    .bind(expires_at)
                    .execute(&mut *tx)
                    .await?;
                    Rotation::Rotated { user_id, family_id }
                }
                None => {
                    let reused: Option<Uuid> = sqlx::query_scalar(
                        "select family_id from refresh_tokens where token_hash = $1 and used_at is not null",
                    )
                    .bind(old_hash)
                    .fetch_optional(&mut *tx)
                    .await?;
                    match reused {
                        Some(family_id) => {
                            revoke_family!(tx, family_id, now).await?;
                            Rotation::ReuseDetected { family_id }
                        }
                        None => Rotation::Invalid,
                    }
                }
            };
            tx.commit().await?;
            Ok(outcome)
        }
        .await
    })
}

/// Revokes the family the token belongs to (sign-out of that session); the family, if the token was known.
#[instrument(skip_all)]
pub async fn revoke_family_of(db: &Db, token_hash: &str, now: Timestamp) -> sqlx::Result<Option<Uuid>> {
    on_pool!(db, |pool| {
        async {
            let mut tx = pool.begin_write().await?;
            let family: Option<Uuid> = sqlx::query_scalar("select family_id from refresh_tokens where token_hash = $1")
                .bind(token_hash)
                .fetch_optional(&mut *tx)
                .await?;
            if let Some(family) = family {
                revoke_family!(tx, family, now).await?;
            }
            tx.commit().await?;
            Ok(family)
        }
        .await
    })
}

/// Whether the session (family) has ended: signed out, reset, or revoked on reuse.
#[instrument(skip_all)]
pub async fn family_revoked(db: &Db, family_id: Uuid) -> sqlx::Result<bool> {
    on_pool!(db, |pool| {
        sqlx::query_scalar::<_, bool>(
            "select exists (select 1 from refresh_tokens where family_id = $1 and revoked_at is not null)",
        )
        .bind(family_id)
        .fetch_one(pool)
        .await
    })
}
