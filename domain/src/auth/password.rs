//! argon2id password hashing, off the async runtime (it is deliberately slow).

use anyhow::Context;
use argon2::{
    Argon2, PasswordHash, PasswordHasher, PasswordVerifier,
    password_hash::{SaltString, rand_core::OsRng},
};

pub async fn hash(password: String) -> anyhow::Result<String> {
    tokio::task::spawn_blocking(move || {
        let salt = SaltString::generate(&mut OsRng);
        Argon2::default()
            .hash_password(password.as_bytes(), &salt)
            .map(|hash| hash.to_string())
            .map_err(|error| anyhow::anyhow!("hashing password: {error}"))
    })
    .await
    .context("password hashing task")?
}

/// Constant-time check of `password` against a stored PHC string.
pub async fn verify(password: String, stored_hash: String) -> anyhow::Result<bool> {
    tokio::task::spawn_blocking(move || {
        let parsed = PasswordHash::new(&stored_hash).map_err(|error| anyhow::anyhow!("stored hash: {error}"))?;
        Ok(Argon2::default().verify_password(password.as_bytes(), &parsed).is_ok())
    })
    .await
    .context("password verification task")?
}

/// A hash of a random password, verified against when the email is unknown so
/// that response times do not reveal which accounts exist.
pub fn decoy_hash() -> &'static str {
    static DECOY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DECOY.get_or_init(|| {
        let salt = SaltString::generate(&mut OsRng);
        Argon2::default().hash_password(b"decoy password", &salt).map(|hash| hash.to_string()).unwrap_or_default()
    })
}

#[cfg(test)]
mod tests {
    #[tokio::test]
    async fn a_hash_verifies_only_its_own_password() {
        let hash = super::hash("correct horse".into()).await.unwrap();
        assert!(hash.starts_with("$argon2id$"));
        assert!(super::verify("correct horse".into(), hash.clone()).await.unwrap());
        assert!(!super::verify("wrong horse".into(), hash).await.unwrap());
    }
}
