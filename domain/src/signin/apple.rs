//! Apple's client secret: not a fixed string but a JWT the team signs with its private key
//! (ES256), naming the team (`iss`), the Services ID (`sub`) and Apple (`aud`), valid for at
//! most six months. A fresh one is signed for each token request.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::Context;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use p256::pkcs8::{DecodePrivateKey, EncodePrivateKey};
use serde::Serialize;

use crate::signin::settings::AppleCredentials;

const AUDIENCE: &str = "https://appleid.apple.com";
const LIFETIME: Duration = Duration::from_secs(10 * 60);

pub struct AppleClientSecret {
    team_id: String,
    client_id: String,
    key_id: String,
    key: EncodingKey,
}

#[derive(Serialize)]
struct Claims<'a> {
    iss: &'a str,
    sub: &'a str,
    aud: &'a str,
    iat: u64,
    exp: u64,
}

impl AppleClientSecret {
    pub fn new(credentials: &AppleCredentials) -> anyhow::Result<Self> {
        let key = p256::SecretKey::from_pkcs8_pem(credentials.private_key.expose())
            .map_err(|_| anyhow::anyhow!("APPLE_PRIVATE_KEY must be the .p8 key Apple issued (PEM, ES256)"))?;
        let key = EncodingKey::from_ec_der(key.to_pkcs8_der().context("encoding Apple's key")?.as_bytes());
        Ok(Self {
            team_id: credentials.team_id.clone(),
            client_id: credentials.client_id.clone(),
            key_id: credentials.key_id.clone(),
            key,
        })
    }

    pub fn sign(&self) -> anyhow::Result<String> {
        let now = SystemTime::now().duration_since(UNIX_EPOCH).context("clock before 1970")?.as_secs();
        let claims =
            Claims { iss: &self.team_id, sub: &self.client_id, aud: AUDIENCE, iat: now, exp: now + LIFETIME.as_secs() };
        let mut header = Header::new(Algorithm::ES256);
        header.kid = Some(self.key_id.clone());
        jsonwebtoken::encode(&header, &claims, &self.key).context("signing Apple's client secret")
    }
}

#[cfg(test)]
mod tests {
    use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
    use jsonwebtoken::{DecodingKey, Validation};
    use p256::SecretKey;

    use super::*;
    use crate::secret::Secret;

    #[test]
    fn the_client_secret_is_an_es256_jwt_apple_can_check() {
        let key = SecretKey::random(&mut rand::rngs::OsRng);
        let pem = key.to_pkcs8_pem(Default::default()).unwrap();
        let credentials = AppleCredentials {
            client_id: "com.example.web".into(),
            team_id: "TEAM123456".into(),
            key_id: "KEY1234567".into(),
            private_key: Secret::new(pem.as_str()),
        };
        let token = AppleClientSecret::new(&credentials).unwrap().sign().unwrap();
        let header = jsonwebtoken::decode_header(&token).unwrap();
        assert_eq!(header.alg, Algorithm::ES256);
        assert_eq!(header.kid.as_deref(), Some("KEY1234567"));
        let point = p256::EncodedPoint::from(key.public_key());
        let public = DecodingKey::from_ec_components(
            &URL_SAFE_NO_PAD.encode(point.x().unwrap()),
            &URL_SAFE_NO_PAD.encode(point.y().unwrap()),
        )
        .unwrap();
        let mut validation = Validation::new(Algorithm::ES256);
        validation.set_audience(&[AUDIENCE]);
        validation.set_issuer(&["TEAM123456"]);
        let decoded = jsonwebtoken::decode::<serde_json::Value>(&token, &public, &validation).unwrap();
        assert_eq!(decoded.claims["sub"], "com.example.web");
    }
}
