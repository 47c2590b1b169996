use sqlx::FromRow;
use tracing::instrument;
use uuid::Uuid;

use crate::{
    db::{BeginWrite, Db, Timestamp, is_unique_violation},
    on_pool,
    refresh_tokens::revoke_every_family,
};

#[derive(Clone, Debug, FromRow)]
pub struct UserRow {
    pub id: Uuid,
    pub email: String,
    pub password_hash: String,
    pub email_verified: bool,
    pub created_at: Timestamp,
}

pub struct NewAccount {
    pub id: Uuid,
    pub email: String,
    pub password_hash: String,
    pub email_verified: bool,
    pub first_name: String,
    pub last_name: String,
    pub company_name: Option<String>,
    pub phone: Option<String>,
    pub location: Option<String>,
    pub bio: Option<String>,
    pub avatar_url: Option<String>,
    pub account_type: &'static str,
    pub is_tasker: bool,
    pub skills_json: String,
    pub created_at: Timestamp,
}

#[derive(Debug, thiserror::Error)]
pub enum CreateAccountError {
    #[error("an account with this email already exists")]
    EmailTaken,
    #[error(transparent)]
    Database(#[from] sqlx::Error),
}

/// Inserts the user and their profile inside `$tx`; answers the user row.
macro_rules! insert_account {
    ($tx:expr, $account:expr) => {
        async {
            let account: &$crate::users::NewAccount = $account;
            let user = sqlx::query_as::<_, $crate::users::UserRow>(
                "insert into users (id, email, password_hash, email_verified, created_at)
                 values ($1, $2, $3, $4, $5)
                 returning id, email, password_hash, email_verified, created_at",
            )
            .bind(account.id)
            .bind(&account.email)
            .bind(&account.password_hash)
            .bind(account.email_verified)
            .bind(account.created_at)
            .fetch_one(&mut *$tx)
            .await?;
            sqlx::query(
                "insert into profiles (id, first_name, last_name, company_name, phone, location, bio, avatar_url,
                                       account_type, is_tasker, skills, updated_at)
                 values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
            )
            .bind(account.id)
            .bind(&account.first_name)
            .bind(&account.last_name)
            .bind(&account.company_name)
            .bind(&account.phone)
            .bind(&account.location)
            .bind(&account.bio)
            .bind(&account.avatar_url)
            .bind(account.account_type)
            .bind(account.is_tasker)
            .bind(&account.skills_json)
            .bind(account.created_at)
            .execute(&mut *$tx)
            .await?;
            Ok::<_, sqlx::Error>(user)
        }
    };
}
pub(crate) use insert_account;

/// Inserts the user and their profile together.
#[instrument(skip_all)]
pub async fn create_account(db: &Db, account: &NewAccount) -> Result<UserRow, CreateAccountError> {
    let result: Result<UserRow, sqlx::Error> = on_pool!(db, |pool| {
        async {
            let mut tx = pool.begin_write().await?;
            let user = insert_account!(tx, account).await?;
            tx.commit().await?;
            Ok(user)
        }
        .await
    });
    result.map_err(|error| if is_unique_violation(&error) { CreateAccountError::EmailTaken } else { error.into() })
}

#[instrument(skip_all)]
pub async fn user_by_email(db: &Db, email: &str) -> sqlx::Result<Option<UserRow>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, UserRow>(
            "select id, email, password_hash, email_verified, created_at from users where email = $1",
        )
        .bind(email)
        .fetch_optional(pool)
        .await
    })
}

#[instrument(skip_all)]
pub async fn user_by_id(db: &Db, id: Uuid) -> sqlx::Result<Option<UserRow>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, UserRow>(
            "select id, email, password_hash, email_verified, created_at from users where id = $1",
        )
        .bind(id)
        .fetch_optional(pool)
        .await
    })
}

#[instrument(skip_all)]
pub async fn mark_email_verified(db: &Db, id: Uuid) -> sqlx::Result<()> {
    on_pool!(db, |pool| {
        sqlx::query("update users set email_verified = true where id = $1")
            .bind(id)
            .execute(pool)
            .await
            .map(|done| done.rows_affected())
    })?;
    Ok(())
}

/// Sets a new password, signs the user out everywhere, removes every push
/// device and voids every other reset link, in one transaction; answers the
/// sessions that ended.
#[instrument(skip_all)]
pub async fn reset_password(db: &Db, id: Uuid, password_hash: &str, now: Timestamp) -> sqlx::Result<Vec<Uuid>> {
    on_pool!(db, |pool| {
        async {
            let mut tx = pool.begin_write().await?;
            // Following the emailed link proves the address, so it counts as verified.
            sqlx::query(
                "update users set password_hash = $1, email_verified = true, password_set = true where id = $2",
            )
            .bind(password_hash)
            .bind(id)
            .execute(&mut *tx)
            .await?;
            let families = revoke_every_family!(tx, id, now).await?;
            // Every other reset link sent to this account stops working too.
            sqlx::query(
                "update email_tokens set used_at = $1
                 where user_id = $2 and purpose = 'reset_password' and used_at is null",
            )
            .bind(now)
            .bind(id)
            .execute(&mut *tx)
            .await?;
            // A provider identity linked while the address was unverified may be whoever first
            // claimed the address: the owner who proves it now keeps none of them.
            sqlx::query("delete from user_identities where user_id = $1 and address_confirmed = false")
                .bind(id)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
            Ok(families)
        }
        .await
    })
}
