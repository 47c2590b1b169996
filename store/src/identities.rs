//! Social sign-in: provider identities linked to accounts, sign-ins on their way through a
//! provider (`oidc_logins`, single use) and new people choosing their account type
//! (`oidc_signups`, single use).

use sqlx::FromRow;
use tracing::instrument;
use uuid::Uuid;

use crate::{
    db::{BeginWrite, Db, Timestamp, is_unique_violation},
    on_pool,
    users::{NewAccount, UserRow, insert_account},
};

pub struct NewLogin<'a> {
    pub state_hash: &'a str,
    pub provider: &'a str,
    pub nonce: &'a str,
    pub pkce_verifier: &'a str,
    pub redirect_path: &'a str,
    pub now: Timestamp,
    pub expires_at: Timestamp,
}

#[derive(Debug, FromRow)]
pub struct PendingLogin {
    pub provider: String,
    pub nonce: String,
    pub pkce_verifier: String,
    pub redirect_path: String,
}

/// Stores a sign-in on its way to the provider, and forgets those that expired.
#[instrument(skip_all)]
pub async fn insert_login(db: &Db, login: &NewLogin<'_>) -> sqlx::Result<()> {
    on_pool!(db, |pool| {
        async {
            sqlx::query("delete from oidc_logins where expires_at <= $1").bind(login.now).execute(pool).await?;
            sqlx::query(
                "insert into oidc_logins (state_hash, provider, nonce, pkce_verifier, redirect_path, created_at, expires_at)
                 values ($1, $2, $3, $4, $5, $6, $7)",
            )
            .bind(login.state_hash)
            .bind(login.provider)
            .bind(login.nonce)
            .bind(login.pkce_verifier)
            .bind(login.redirect_path)
            .bind(login.now)
            .bind(login.expires_at)
            .execute(pool)
            .await?;
            Ok(())
        }
        .await
    })
}

/// Takes the unexpired sign-in `state_hash` names for `provider`: a single conditional delete,
/// so a `state` works exactly once even when two callbacks race.
#[instrument(skip_all)]
pub async fn take_login(
    db: &Db,
    state_hash: &str,
    provider: &str,
    now: Timestamp,
) -> sqlx::Result<Option<PendingLogin>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, PendingLogin>(
            "delete from oidc_logins where state_hash = $1 and provider = $2 and expires_at > $3
             returning provider, nonce, pkce_verifier, redirect_path",
        )
        .bind(state_hash)
        .bind(provider)
        .bind(now)
        .fetch_optional(pool)
        .await
    })
}

/// The account a linked provider identity belongs to.
#[derive(Clone, Copy, Debug, FromRow)]
pub struct IdentityOwner {
    pub user_id: Uuid,
    /// False for an identity linked while its address was unverified: it signs nobody in.
    pub address_confirmed: bool,
}

/// The account this provider identity signs in to, if linked.
#[instrument(skip_all)]
pub async fn identity_owner(db: &Db, provider: &str, subject: &str) -> sqlx::Result<Option<IdentityOwner>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, IdentityOwner>(
            "select user_id, address_confirmed from user_identities where provider = $1 and subject = $2",
        )
        .bind(provider)
        .bind(subject)
        .fetch_optional(pool)
        .await
    })
}

/// Links the identity to the account; false when the account already has another identity of
/// this provider, or the identity is someone else's.
#[instrument(skip_all)]
pub async fn link(
    db: &Db,
    user_id: Uuid,
    provider: &str,
    subject: &str,
    email: Option<&str>,
    now: Timestamp,
) -> sqlx::Result<bool> {
    let inserted = on_pool!(db, |pool| {
        sqlx::query(
            "insert into user_identities (provider, subject, user_id, email, created_at) values ($1, $2, $3, $4, $5)
             on conflict do nothing",
        )
        .bind(provider)
        .bind(subject)
        .bind(user_id)
        .bind(email)
        .bind(now)
        .execute(pool)
        .await
        .map(|done| done.rows_affected())
    })?;
    Ok(inserted == 1)
}

pub struct NewSignup<'a> {
    pub token_hash: &'a str,
    pub provider: &'a str,
    pub subject: &'a str,
    pub email: &'a str,
    pub email_verified: bool,
    pub first_name: &'a str,
    pub last_name: &'a str,
    pub redirect_path: &'a str,
    pub now: Timestamp,
    pub expires_at: Timestamp,
}

#[derive(Debug, FromRow)]
pub struct PendingSignup {
    pub provider: String,
    pub subject: String,
    pub email: String,
    pub email_verified: bool,
    pub first_name: String,
    pub last_name: String,
    pub redirect_path: String,
}

/// Keeps a new person's verified identity until they choose their account type; forgets
/// those long gone.
#[instrument(skip_all)]
pub async fn insert_signup(db: &Db, signup: &NewSignup<'_>) -> sqlx::Result<()> {
    on_pool!(db, |pool| {
        async {
            sqlx::query("delete from oidc_signups where expires_at <= $1").bind(signup.now).execute(pool).await?;
            sqlx::query(
                "insert into oidc_signups (token_hash, provider, subject, email, email_verified, first_name, last_name,
                                           redirect_path, created_at, expires_at)
                 values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
            )
            .bind(signup.token_hash)
            .bind(signup.provider)
            .bind(signup.subject)
            .bind(signup.email)
            .bind(signup.email_verified)
            .bind(signup.first_name)
            .bind(signup.last_name)
            .bind(signup.redirect_path)
            .bind(signup.now)
            .bind(signup.expires_at)
            .execute(pool)
            .await?;
            Ok(())
        }
        .await
    })
}

/// The unused, unexpired sign-up `token_hash` names, without using it.
#[instrument(skip_all)]
pub async fn pending_signup(db: &Db, token_hash: &str, now: Timestamp) -> sqlx::Result<Option<PendingSignup>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, PendingSignup>(
            "select provider, subject, email, email_verified, first_name, last_name, redirect_path from oidc_signups
             where token_hash = $1 and used_at is null and expires_at > $2",
        )
        .bind(token_hash)
        .bind(now)
        .fetch_optional(pool)
        .await
    })
}

/// A sign-up whose address the provider did not verify waits for our own mail: keeps the
/// person's choice and the hash of the mailed token, until `expires_at`. False when the sign-up
/// token is unknown, used or expired, or its address was verified (it needs no mail).
#[instrument(skip_all)]
pub async fn await_confirmation(
    db: &Db,
    token_hash: &str,
    confirm_hash: &str,
    account_type: &str,
    skills_json: &str,
    now: Timestamp,
    expires_at: Timestamp,
) -> sqlx::Result<bool> {
    let updated = on_pool!(db, |pool| {
        sqlx::query(
            "update oidc_signups set confirm_hash = $2, account_type = $3, skills_json = $4, expires_at = $6
             where token_hash = $1 and used_at is null and expires_at > $5 and email_verified = false",
        )
        .bind(token_hash)
        .bind(confirm_hash)
        .bind(account_type)
        .bind(skills_json)
        .bind(now)
        .bind(expires_at)
        .execute(pool)
        .await
        .map(|done| done.rows_affected())
    })?;
    Ok(updated == 1)
}

/// A sign-up waiting for its mail, as the confirmation finds it.
#[derive(Debug, FromRow)]
pub struct AwaitingSignup {
    pub provider: String,
    pub subject: String,
    pub email: String,
    pub first_name: String,
    pub last_name: String,
    pub account_type: String,
    pub skills_json: String,
}

/// The sign-up that both the browser's sign-up token and the mailed token name, unused and
/// unexpired.
#[instrument(skip_all)]
pub async fn awaiting_signup(
    db: &Db,
    token_hash: &str,
    confirm_hash: &str,
    now: Timestamp,
) -> sqlx::Result<Option<AwaitingSignup>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, AwaitingSignup>(
            "select provider, subject, email, first_name, last_name, account_type, skills_json from oidc_signups
             where token_hash = $1 and confirm_hash = $2 and used_at is null and expires_at > $3
               and account_type is not null and skills_json is not null",
        )
        .bind(token_hash)
        .bind(confirm_hash)
        .bind(now)
        .fetch_optional(pool)
        .await
    })
}

#[derive(Debug, thiserror::Error)]
pub enum SignupError {
    #[error("the sign-up link is unknown, used or expired")]
    InvalidToken,
    #[error("an account with this email already exists")]
    EmailTaken,
    #[error(transparent)]
    Database(#[from] sqlx::Error),
}

/// In one transaction: uses the sign-up token, creates the account (without a password) and
/// links the identity. A refusal leaves all three as they were.
#[instrument(skip_all)]
pub async fn complete_signup(
    db: &Db,
    token_hash: &str,
    now: Timestamp,
    account: &NewAccount,
    provider: &str,
    subject: &str,
) -> Result<UserRow, SignupError> {
    let result: Result<Option<UserRow>, sqlx::Error> = on_pool!(db, |pool| {
        async {
            let mut tx = pool.begin_write().await?;
            let used = sqlx::query(
                "update oidc_signups set used_at = $1
                 where token_hash = $2 and used_at is null and expires_at > $1 and provider = $3 and subject = $4",
            )
            .bind(now)
            .bind(token_hash)
            .bind(provider)
            .bind(subject)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if used != 1 {
                return Ok(None);
            }
            let user = insert_account!(tx, account).await?;
            sqlx::query("update users set password_set = false where id = $1").bind(user.id).execute(&mut *tx).await?;
            sqlx::query(
                "insert into user_identities (provider, subject, user_id, email, created_at) values ($1, $2, $3, $4, $5)",
            )
            .bind(provider)
            .bind(subject)
            .bind(user.id)
            .bind(&user.email)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok(Some(user))
        }
        .await
    });
    match result {
        Ok(Some(user)) => Ok(user),
        Ok(None) => Err(SignupError::InvalidToken),
        Err(error) if is_unique_violation(&error) => Err(SignupError::EmailTaken),
        Err(error) => Err(error.into()),
    }
}

#[derive(Debug, FromRow)]
pub struct IdentityRow {
    pub provider: String,
    pub email: Option<String>,
    pub created_at: Timestamp,
}

/// The account's linked identities, oldest first, and whether it has a password.
#[instrument(skip_all)]
pub async fn identities_of(db: &Db, user_id: Uuid) -> sqlx::Result<(Vec<IdentityRow>, bool)> {
    on_pool!(db, |pool| {
        async {
            let identities = sqlx::query_as::<_, IdentityRow>(
                "select provider, email, created_at from user_identities where user_id = $1 order by created_at, provider",
            )
            .bind(user_id)
            .fetch_all(pool)
            .await?;
            let password_set = sqlx::query_scalar::<_, bool>("select password_set from users where id = $1")
                .bind(user_id)
                .fetch_optional(pool)
                .await?
                .unwrap_or(false);
            Ok((identities, password_set))
        }
        .await
    })
}

#[derive(Debug, PartialEq, Eq)]
pub enum Unlink {
    Removed,
    NotLinked,
    /// It is the account's only way to sign in.
    LastWay,
}

/// Unlinks the provider from the account unless nothing else would sign in to it: a password
/// or another identity. Decided and done in one write transaction, so two unlinks racing
/// cannot leave an account nobody can open.
#[instrument(skip_all)]
pub async fn unlink(db: &Db, user_id: Uuid, provider: &str) -> sqlx::Result<Unlink> {
    on_pool!(db, |pool| {
        async {
            let mut tx = pool.begin_write().await?;
            // Postgres: lock the account's row so concurrent unlinks queue (SQLite's write
            // transaction already does).
            let password_set = sqlx::query_scalar::<_, bool>(
                "update users set password_set = password_set where id = $1 returning password_set",
            )
            .bind(user_id)
            .fetch_optional(&mut *tx)
            .await?
            .unwrap_or(false);
            let providers: Vec<String> = sqlx::query_scalar("select provider from user_identities where user_id = $1")
                .bind(user_id)
                .fetch_all(&mut *tx)
                .await?;
            if !providers.iter().any(|linked| linked == provider) {
                return Ok(Unlink::NotLinked);
            }
            if !password_set && providers.len() == 1 {
                return Ok(Unlink::LastWay);
            }
            sqlx::query("delete from user_identities where user_id = $1 and provider = $2")
                .bind(user_id)
                .bind(provider)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
            Ok(Unlink::Removed)
        }
        .await
    })
}

/// The newest accounts' addresses: the sandbox provider's page offers them to pick (dev mode).
#[instrument(skip_all)]
pub async fn recent_emails(db: &Db, limit: i64) -> sqlx::Result<Vec<String>> {
    on_pool!(db, |pool| {
        sqlx::query_scalar::<_, String>("select email from users order by created_at desc limit $1")
            .bind(limit)
            .fetch_all(pool)
            .await
    })
}

/// Keeps a sign-in's one-time handoff until `expires_at`: the code the app's callback page
/// redeems, and the binding cookie of the browser that signed in (both hashed). Forgets those
/// long gone.
#[instrument(skip_all)]
pub async fn insert_handoff(
    db: &Db,
    code_hash: &str,
    binding_hash: &str,
    user_id: Uuid,
    now: Timestamp,
    expires_at: Timestamp,
) -> sqlx::Result<()> {
    on_pool!(db, |pool| {
        async {
            sqlx::query("delete from oidc_handoffs where expires_at <= $1").bind(now).execute(pool).await?;
            sqlx::query(
                "insert into oidc_handoffs (code_hash, binding_hash, user_id, created_at, expires_at)
                 values ($1, $2, $3, $4, $5)",
            )
            .bind(code_hash)
            .bind(binding_hash)
            .bind(user_id)
            .bind(now)
            .bind(expires_at)
            .execute(pool)
            .await?;
            Ok(())
        }
        .await
    })
}

/// Uses the handoff named by `code_hash` if `binding_hash` is its browser's, unused and
/// unexpired: the account it signs in to. A wrong browser uses nothing.
#[instrument(skip_all)]
pub async fn take_handoff(db: &Db, code_hash: &str, binding_hash: &str, now: Timestamp) -> sqlx::Result<Option<Uuid>> {
    on_pool!(db, |pool| {
        sqlx::query_scalar::<_, Uuid>(
            "update oidc_handoffs set used_at = $3
             where code_hash = $1 and binding_hash = $2 and used_at is null and expires_at > $3
             returning user_id",
        )
        .bind(code_hash)
        .bind(binding_hash)
        .bind(now)
        .fetch_optional(pool)
        .await
    })
}
