//! One-time tokens sent by mail: email verification and password reset.

use tracing::instrument;
use uuid::Uuid;

use crate::{
    db::{Db, Timestamp},
    on_pool,
};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    VerifyEmail,
    ResetPassword,
}

impl Purpose {
    fn as_str(self) -> &'static str {
        match self {
            Self::VerifyEmail => "verify_email",
            Self::ResetPassword => "reset_password",
        }
    }
}

#[instrument(skip_all)]
pub async fn insert(
    db: &Db,
    token_hash: &str,
    user_id: Uuid,
    purpose: Purpose,
    now: Timestamp,
    expires_at: Timestamp,
) -> sqlx::Result<()> {
    on_pool!(db, |pool| {
        sqlx::query(
            "insert into email_tokens (token_hash, user_id, purpose, created_at, expires_at) values ($1, $2, $3, $4, $5)",
        )
        .bind(token_hash)
        .bind(user_id)
        .bind(purpose.as_str())
        .bind(now)
        .bind(expires_at)
        .execute(pool)
        .await
        .map(|done| done.rows_affected())
    })?;
    Ok(())
}

/// Marks the token used and returns its user, if it is unused, unexpired and
/// of this purpose. A single conditional update, so a token works exactly once
/// even when two requests race.
#[instrument(skip_all)]
pub async fn consume(db: &Db, token_hash: &str, purpose: Purpose, now: Timestamp) -> sqlx::Result<Option<Uuid>> {
    on_pool!(db, |pool| {
        sqlx::query_scalar::<_, Uuid>(
            "update email_tokens set used_at = $1
             where token_hash = $2 and purpose = $3 and used_at is null and expires_at > $1
             returning user_id",
        )
        .bind(now)
        .bind(token_hash)
        .bind(purpose.as_str())
        .fetch_optional(pool)
        .await
    })
}
