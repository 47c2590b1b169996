//! Phone codes, identity verification sessions and the verification outcomes on profiles.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use sqlx::FromRow;
use tracing::instrument;
use uuid::Uuid;

use model::verification::{MAX_ATTEMPTS, SendCounts};

use crate::{
    db::{BeginWrite, Db, Timestamp},
    on_pool,
};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, sqlx::Type, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
#[sqlx(type_name = "text", rename_all = "snake_case")]
pub enum IdentityStatus {
    Pending,
    Verified,
    Failed,
}

#[derive(Clone, Debug, FromRow)]
pub struct PhoneCodeRow {
    pub id: Uuid,
    pub user_id: Uuid,
    pub phone: String,
    pub country: String,
    pub code_hash: String,
    pub created_at: Timestamp,
    pub expires_at: Timestamp,
    pub attempts: i32,
    pub used_at: Option<Timestamp>,
}

#[derive(Clone, Debug, FromRow)]
pub struct IdentitySessionRow {
    pub id: Uuid,
    pub user_id: Uuid,
    pub provider: String,
    pub provider_ref: String,
    pub status: IdentityStatus,
    pub created_at: Timestamp,
    pub decided_at: Option<Timestamp>,
}

/// The verification facts of one person.
#[derive(Clone, Debug, Default, FromRow)]
pub struct VerificationRow {
    pub email_verified: bool,
    pub phone: Option<String>,
    pub phone_verified_at: Option<Timestamp>,
    pub identity_verified_at: Option<Timestamp>,
}

const MINUTE: Duration = Duration::from_secs(60);
const HOUR: Duration = Duration::from_secs(3600);
const DAY: Duration = Duration::from_secs(24 * 3600);

/// Codes sent in the last minute, hour and day to the account and to the number, and in the
/// last day to the number's country.
#[instrument(skip_all)]
pub async fn send_counts(
    db: &Db,
    user_id: Uuid,
    phone: &str,
    country: &str,
    now: Timestamp,
) -> sqlx::Result<SendCounts> {
    let counts: (i64, i64, i64, i64, i64, i64, i64) = on_pool!(db, |pool| {
        sqlx::query_as(
            "select
                (select count(*) from phone_codes where user_id = $1 and created_at > $4) as account_minute,
                (select count(*) from phone_codes where user_id = $1 and created_at > $5) as account_hour,
                (select count(*) from phone_codes where user_id = $1 and created_at > $6) as account_day,
                (select count(*) from phone_codes where phone = $2 and created_at > $4) as phone_minute,
                (select count(*) from phone_codes where phone = $2 and created_at > $5) as phone_hour,
                (select count(*) from phone_codes where phone = $2 and created_at > $6) as phone_day,
                (select count(*) from phone_codes where country = $3 and created_at > $6) as country_day",
        )
        .bind(user_id)
        .bind(phone)
        .bind(country)
        .bind(now.minus(MINUTE))
        .bind(now.minus(HOUR))
        .bind(now.minus(DAY))
        .fetch_one(pool)
        .await
    })?;
    let (account_minute, account_hour, account_day, phone_minute, phone_hour, phone_day, country_day) = counts;
    Ok(SendCounts { account_minute, account_hour, account_day, phone_minute, phone_hour, phone_day, country_day })
}

#[instrument(skip_all)]
pub async fn insert_phone_code(db: &Db, row: &PhoneCodeRow) -> sqlx::Result<()> {
    on_pool!(db, |pool| {
        sqlx::query(
            "insert into phone_codes (id, user_id, phone, country, code_hash, created_at, expires_at, attempts)
             values ($1, $2, $3, $4, $5, $6, $7, 0)",
        )
        .bind(row.id)
        .bind(row.user_id)
        .bind(&row.phone)
        .bind(&row.country)
        .bind(&row.code_hash)
        .bind(row.created_at)
        .bind(row.expires_at)
        .execute(pool)
        .await
        .map(|_| ())
    })
}

/// A code that could not be sent is not counted against anyone.
#[instrument(skip_all)]
pub async fn delete_phone_code(db: &Db, id: Uuid) -> sqlx::Result<()> {
    on_pool!(db, |pool| {
        sqlx::query("delete from phone_codes where id = $1").bind(id).execute(pool).await.map(|_| ())
    })
}

/// The account's newest code: only it can be used.
#[instrument(skip_all)]
pub async fn latest_phone_code(db: &Db, user_id: Uuid) -> sqlx::Result<Option<PhoneCodeRow>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, PhoneCodeRow>(
            "select id, user_id, phone, country, code_hash, created_at, expires_at, attempts, used_at
             from phone_codes where user_id = $1 order by created_at desc, id desc limit 1",
        )
        .bind(user_id)
        .fetch_optional(pool)
        .await
    })
}

/// Spends one of the code's attempts; false when none is left (or it was used).
#[instrument(skip_all)]
pub async fn spend_attempt(db: &Db, id: Uuid) -> sqlx::Result<bool> {
    on_pool!(db, |pool| {
        sqlx::query(
            "update phone_codes set attempts = attempts + 1 where id = $1 and used_at is null and attempts < $2",
        )
        .bind(id)
        .bind(MAX_ATTEMPTS)
        .execute(pool)
        .await
        .map(|done| done.rows_affected() == 1)
    })
}

/// Uses the code and marks its number verified on the profile, in one transaction. False when
/// the code was used meanwhile.
#[instrument(skip_all)]
pub async fn confirm_phone(db: &Db, code: &PhoneCodeRow, now: Timestamp) -> sqlx::Result<bool> {
    on_pool!(db, |pool| {
        let mut tx = pool.begin_write().await?;
        let used = sqlx::query("update phone_codes set used_at = $2 where id = $1 and used_at is null")
            .bind(code.id)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        if used.rows_affected() != 1 {
            return Ok(false);
        }
        sqlx::query("update profiles set phone = $2, phone_verified_at = $3, updated_at = $3 where id = $1")
            .bind(code.user_id)
            .bind(&code.phone)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(true)
    })
}

#[instrument(skip_all)]
pub async fn verification(db: &Db, user_id: Uuid) -> sqlx::Result<Option<VerificationRow>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, VerificationRow>(
            "select u.email_verified, p.phone, p.phone_verified_at, p.identity_verified_at
             from profiles p join users u on u.id = p.id where p.id = $1",
        )
        .bind(user_id)
        .fetch_optional(pool)
        .await
    })
}

const SESSION_COLUMNS: &str = "id, user_id, provider, provider_ref, status, created_at, decided_at";

#[instrument(skip_all)]
pub async fn insert_identity_session(db: &Db, row: &IdentitySessionRow) -> sqlx::Result<()> {
    on_pool!(db, |pool| {
        sqlx::query(
            "insert into identity_sessions (id, user_id, provider, provider_ref, status, created_at)
             values ($1, $2, $3, $4, $5, $6)",
        )
        .bind(row.id)
        .bind(row.user_id)
        .bind(&row.provider)
        .bind(&row.provider_ref)
        .bind(row.status)
        .bind(row.created_at)
        .execute(pool)
        .await
        .map(|_| ())
    })
}

#[instrument(skip_all)]
pub async fn identity_session_by_ref(db: &Db, provider_ref: &str) -> sqlx::Result<Option<IdentitySessionRow>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, IdentitySessionRow>(sqlx::AssertSqlSafe(format!(
            "select {SESSION_COLUMNS} from identity_sessions where provider_ref = $1"
        )))
        .bind(provider_ref)
        .fetch_optional(pool)
        .await
    })
}

/// The account's sessions still waiting for a decision, newest first.
#[instrument(skip_all)]
pub async fn pending_identity_sessions(db: &Db, user_id: Uuid) -> sqlx::Result<Vec<IdentitySessionRow>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, IdentitySessionRow>(sqlx::AssertSqlSafe(format!(
            "select {SESSION_COLUMNS} from identity_sessions
             where user_id = $1 and status = 'pending' order by created_at desc, id desc limit 5"
        )))
        .bind(user_id)
        .fetch_all(pool)
        .await
    })
}

/// Decides a pending session; a verified one marks the profile (first verification's date
/// kept). False when it was decided before.
#[instrument(skip_all)]
pub async fn decide_identity_session(db: &Db, id: Uuid, status: IdentityStatus, now: Timestamp) -> sqlx::Result<bool> {
    on_pool!(db, |pool| {
        let mut tx = pool.begin_write().await?;
        let decided = sqlx::query(
            "update identity_sessions set status = $2, decided_at = $3 where id = $1 and status = 'pending'",
        )
        .bind(id)
        .bind(status)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        if decided.rows_affected() != 1 {
            return Ok(false);
        }
        if status == IdentityStatus::Verified {
            sqlx::query(
                "update profiles set identity_verified_at = $2
                 where id = (select user_id from identity_sessions where id = $1) and identity_verified_at is null",
            )
            .bind(id)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(true)
    })
}

/// The account's newest identity session, whatever its status.
#[instrument(skip_all)]
pub async fn latest_identity_session(db: &Db, user_id: Uuid) -> sqlx::Result<Option<IdentitySessionRow>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, IdentitySessionRow>(sqlx::AssertSqlSafe(format!(
            "select {SESSION_COLUMNS} from identity_sessions where user_id = $1 order by created_at desc, id desc limit 1"
        )))
        .bind(user_id)
        .fetch_optional(pool)
        .await
    })
}
