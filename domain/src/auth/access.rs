//! Short-lived JWT access tokens (HS256). Each names its session (`sid`, the
//! refresh-token family), so signing out or resetting the password ends it
//! within seconds (see `auth::revocation`) rather than at expiry.

use std::{path::Path, time::Duration};

use anyhow::Context;
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation, decode, encode};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use store::db::Timestamp;

use crate::secret::Secret;

pub const ACCESS_TOKEN_TTL: Duration = Duration::from_secs(15 * 60);
/// HS256 needs a key at least as long as its hash (256 bits).
pub const MIN_SECRET_BYTES: usize = 32;

#[derive(Debug, Serialize, Deserialize)]
struct Claims {
    sub: Uuid,
    /// The session (refresh-token family); absent in tokens issued before sessions were named.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    sid: Option<Uuid>,
    iat: i64,
    exp: i64,
}

/// Who a valid token speaks for, and in which session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verified {
    pub user_id: Uuid,
    pub session_id: Option<Uuid>,
}

pub struct AccessTokens {
    encoding: EncodingKey,
    decoding: DecodingKey,
    validation: Validation,
}

pub struct IssuedAccessToken {
    pub token: String,
    pub expires_at: Timestamp,
}

impl AccessTokens {
    pub fn new(secret: &Secret) -> Self {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.leeway = 5;
        validation.set_required_spec_claims(&["exp", "sub"]);
        Self {
            encoding: EncodingKey::from_secret(secret.expose().as_bytes()),
            decoding: DecodingKey::from_secret(secret.expose().as_bytes()),
            validation,
        }
    }

    /// `JWT_SECRET` when set; otherwise a random secret generated once and kept
    /// in `DATA_DIR/jwt_secret`, so tokens survive restarts.
    pub fn load_or_create_secret(configured: Option<&Secret>, data_dir: &Path) -> anyhow::Result<Secret> {
        if let Some(secret) = configured {
            anyhow::ensure!(
                secret.expose().len() >= MIN_SECRET_BYTES,
                "JWT_SECRET must be at least {MIN_SECRET_BYTES} bytes long (it is {}); \
                 generate one with e.g. `openssl rand -hex 32`, or unset it to have one generated",
                secret.expose().len()
            );
            return Ok(secret.clone());
        }
        let path = data_dir.join("jwt_secret");
        if let Ok(existing) = std::fs::read_to_string(&path)
            && existing.trim().len() >= 32
        {
            return Ok(Secret::new(existing.trim()));
        }
        let secret = crate::auth::secrets::new_token() + &crate::auth::secrets::new_token();
        std::fs::create_dir_all(data_dir).with_context(|| format!("creating {}", data_dir.display()))?;
        write_private_file(&path, &secret).with_context(|| format!("writing {}", path.display()))?;
        Ok(Secret::new(secret))
    }

    pub fn issue(&self, user_id: Uuid, session_id: Uuid) -> anyhow::Result<IssuedAccessToken> {
        let now = Timestamp::now();
        let expires_at = now.plus(ACCESS_TOKEN_TTL);
        let claims = Claims { sub: user_id, sid: Some(session_id), iat: now.0 / 1000, exp: expires_at.0 / 1000 };
        let token = encode(&Header::new(Algorithm::HS256), &claims, &self.encoding).context("signing access token")?;
        Ok(IssuedAccessToken { token, expires_at: Timestamp(claims.exp * 1000) })
    }

    /// The user and session of a valid, unexpired token (whether the session
    /// still stands is for `auth::revocation` to say).
    pub fn verify(&self, token: &str) -> Option<Verified> {
        decode::<Claims>(token, &self.decoding, &self.validation)
            .ok()
            .map(|data| Verified { user_id: data.claims.sub, session_id: data.claims.sid })
    }
}

fn write_private_file(path: &Path, contents: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)?.write_all(contents.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_verify_with_their_own_secret_only() {
        let keys = AccessTokens::new(&Secret::new("a".repeat(64)));
        let other = AccessTokens::new(&Secret::new("b".repeat(64)));
        let (user, session) = (Uuid::now_v7(), Uuid::now_v7());
        let issued = keys.issue(user, session).unwrap();
        assert_eq!(keys.verify(&issued.token), Some(Verified { user_id: user, session_id: Some(session) }));
        assert_eq!(other.verify(&issued.token), None);
        assert_eq!(keys.verify("not.a.token"), None);
    }

    #[test]
    fn configured_secrets_shorter_than_32_bytes_are_refused_at_start() {
        let dir = std::env::temp_dir();
        let error = AccessTokens::load_or_create_secret(Some(&Secret::new("too-short")), &dir).unwrap_err();
        assert!(error.to_string().contains("JWT_SECRET must be at least 32 bytes"), "{error}");
        assert!(AccessTokens::load_or_create_secret(Some(&Secret::new("x".repeat(32))), &dir).is_ok());
    }

    #[test]
    fn generated_secret_is_kept_in_the_data_dir() {
        let dir = std::env::temp_dir().join(format!("taskhub-jwt-{}", Uuid::now_v7()));
        let first = AccessTokens::load_or_create_secret(None, &dir).unwrap();
        let second = AccessTokens::load_or_create_secret(None, &dir).unwrap();
        assert_eq!(first.expose(), second.expose());
        std::fs::remove_dir_all(dir).ok();
    }
}
