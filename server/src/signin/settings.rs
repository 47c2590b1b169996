//! The providers' settings from the environment. A provider whose settings are all absent is
//! not offered; one half set stops the server with a message naming what is missing.

use anyhow::bail;

use crate::config::Secret;

#[derive(Clone, Debug, Default)]
pub struct SignInSettings {
    pub google: Option<ClientCredentials>,
    pub facebook: Option<ClientCredentials>,
    pub apple: Option<AppleCredentials>,
}

#[derive(Clone, Debug)]
pub struct ClientCredentials {
    pub client_id: String,
    pub client_secret: Secret,
}

/// Apple has no static client secret: each token request carries a JWT signed with the
/// team's private key (ES256, PEM in `APPLE_PRIVATE_KEY`).
#[derive(Clone, Debug)]
pub struct AppleCredentials {
    /// The Services ID.
    pub client_id: String,
    pub team_id: String,
    pub key_id: String,
    pub private_key: Secret,
}

impl SignInSettings {
    pub fn from_env() -> anyhow::Result<Self> {
        Ok(Self { google: credentials("GOOGLE")?, facebook: credentials("FACEBOOK")?, apple: apple()? })
    }
}

fn credentials(prefix: &str) -> anyhow::Result<Option<ClientCredentials>> {
    let id = var(&format!("{prefix}_CLIENT_ID"));
    let secret = var(&format!("{prefix}_CLIENT_SECRET"));
    match (id, secret) {
        (None, None) => Ok(None),
        (Some(client_id), Some(secret)) => {
            Ok(Some(ClientCredentials { client_id, client_secret: Secret::new(secret) }))
        }
        _ => bail!("{prefix}_CLIENT_ID and {prefix}_CLIENT_SECRET must be set together"),
    }
}

fn apple() -> anyhow::Result<Option<AppleCredentials>> {
    let names = ["APPLE_CLIENT_ID", "APPLE_TEAM_ID", "APPLE_KEY_ID", "APPLE_PRIVATE_KEY"];
    let values: Vec<Option<String>> = names.iter().map(|name| var(name)).collect();
    if values.iter().all(Option::is_none) {
        return Ok(None);
    }
    if values.iter().any(Option::is_none) {
        bail!("Apple sign-in needs all of {}", names.join(", "));
    }
    let mut values = values.into_iter().flatten();
    let mut next = || values.next().unwrap_or_default();
    Ok(Some(AppleCredentials {
        client_id: next(),
        team_id: next(),
        key_id: next(),
        // A PEM in one environment line usually arrives with literal "\n"s.
        private_key: Secret::new(next().replace("\\n", "\n")),
    }))
}

fn var(name: &str) -> Option<String> {
    std::env::var(name).ok().map(|value| value.trim().to_owned()).filter(|value| !value.is_empty())
}
