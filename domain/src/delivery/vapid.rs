//! The VAPID key (RFC 8292) that identifies this server to push services:
//! `VAPID_PRIVATE_KEY` when set, otherwise generated once and kept in
//! `DATA_DIR/vapid_private_key` (like the JWT secret), so subscriptions made
//! against its public key keep working across restarts and nodes sharing it.

use std::{collections::HashMap, path::Path, sync::Mutex, time::Duration};

use anyhow::Context;
use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use p256::{SecretKey, elliptic_curve::sec1::ToEncodedPoint, pkcs8::EncodePrivateKey};
use serde::Serialize;

use store::db::Timestamp;

use crate::secret::Secret;

/// How long one VAPID token is valid (RFC 8292 allows at most 24 h; push services ask for ≤ 12 h).
pub const TOKEN_LIFETIME: Duration = Duration::from_secs(12 * 3600);

/// A signed token is reused for this long (per push service origin), so a burst of pushes
/// costs one signature, while its `exp` stays at most [`TOKEN_LIFETIME`] away.
const TOKEN_REUSE: Duration = Duration::from_secs(3600);

pub struct VapidKey {
    signing: EncodingKey,
    /// The uncompressed public point, URL-safe base64: the browser's `applicationServerKey`.
    public_key: String,
    /// Per audience: the `Authorization` value and when it was signed.
    recent: Mutex<HashMap<String, (String, Timestamp)>>,
}

#[derive(Serialize)]
struct Claims<'a> {
    aud: &'a str,
    exp: i64,
    sub: &'a str,
}

impl VapidKey {
    pub fn load_or_create(configured: Option<&Secret>, data_dir: &Path) -> anyhow::Result<Self> {
        if let Some(key) = configured {
            return Self::from_base64(key.expose())
                .context("VAPID_PRIVATE_KEY must be a P-256 private key (32 bytes, URL-safe base64)");
        }
        let path = data_dir.join("vapid_private_key");
        if path.exists() {
            let text = std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
            return Self::from_base64(text.trim()).with_context(|| format!("{} holds no VAPID key", path.display()));
        }
        let key = SecretKey::random(&mut rand::rngs::OsRng);
        std::fs::create_dir_all(data_dir).with_context(|| format!("creating {}", data_dir.display()))?;
        write_private_file(&path, &URL_SAFE_NO_PAD.encode(key.to_bytes()))
            .with_context(|| format!("writing {}", path.display()))?;
        Self::from_secret_key(&key)
    }

    pub fn from_base64(text: &str) -> anyhow::Result<Self> {
        let bytes = URL_SAFE_NO_PAD.decode(text.trim().trim_end_matches('='))?;
        Self::from_secret_key(&SecretKey::from_slice(&bytes)?)
    }

    fn from_secret_key(key: &SecretKey) -> anyhow::Result<Self> {
        let der = key.to_pkcs8_der().context("encoding the VAPID key")?;
        let public_key = URL_SAFE_NO_PAD.encode(key.public_key().to_encoded_point(false).as_bytes());
        Ok(Self { signing: EncodingKey::from_ec_der(der.as_bytes()), public_key, recent: Default::default() })
    }

    pub fn public_key(&self) -> &str {
        &self.public_key
    }

    /// The `Authorization` header for a push to `audience` (the push service's origin).
    pub fn authorization(&self, audience: &str, subject: &str, now: Timestamp) -> anyhow::Result<String> {
        let mut recent = self.recent.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some((value, signed_at)) = recent.get(audience)
            && now.minus(TOKEN_REUSE) < *signed_at
        {
            return Ok(value.clone());
        }
        let value = self.sign(audience, subject, now)?;
        if recent.len() > 1000 {
            recent.clear(); // a handful of push services in practice; never let it grow
        }
        recent.insert(audience.to_owned(), (value.clone(), now));
        Ok(value)
    }

    fn sign(&self, audience: &str, subject: &str, now: Timestamp) -> anyhow::Result<String> {
        let claims = Claims { aud: audience, exp: now.plus(TOKEN_LIFETIME).0 / 1000, sub: subject };
        let token = jsonwebtoken::encode(&Header::new(Algorithm::ES256), &claims, &self.signing)?;
        Ok(format!("vapid t={token}, k={}", self.public_key))
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
    fn generated_key_is_kept_in_the_data_dir() {
        let dir = std::env::temp_dir().join(format!("taskhub-vapid-{}", uuid::Uuid::now_v7().simple()));
        let first = VapidKey::load_or_create(None, &dir).unwrap();
        let second = VapidKey::load_or_create(None, &dir).unwrap();
        assert_eq!(first.public_key(), second.public_key());
        assert_eq!(URL_SAFE_NO_PAD.decode(first.public_key()).unwrap().len(), 65);
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn a_configured_key_that_is_not_a_p256_scalar_is_refused() {
        let dir = std::env::temp_dir();
        assert!(VapidKey::load_or_create(Some(&Secret::new("not-a-key")), &dir).is_err());
    }
}
