//! The providers' settings from the environment. A provider whose settings are all absent is
//! not offered; one half set stops the server with a message naming what is missing.

use anyhow::bail;

use crate::secret::Secret;

#[derive(Clone, Debug, Default)]
pub struct SignInSettings {
    pub google: Option<ClientCredentials>,
    pub facebook: Option<ClientCredentials>,
    pub apple: Option<AppleCredentials>,
    pub endpoints: ProviderEndpoints,
}

/// Where each provider lives: the real providers by default; tests point them at local fakes.
/// Google's and Apple's other endpoints (authorization, token, keys) come from their discovery
/// documents under the issuer.
#[derive(Clone, Debug)]
pub struct ProviderEndpoints {
    /// `GOOGLE_ISSUER_URL`.
    pub google_issuer: String,
    /// `APPLE_ISSUER_URL`.
    pub apple_issuer: String,
    /// Facebook's login dialog (`FACEBOOK_DIALOG_URL`).
    pub facebook_dialog: String,
    /// Facebook's Graph API with its version, holding `oauth/access_token` and `me` (`FACEBOOK_GRAPH_URL`).
    pub facebook_graph: String,
}

pub const GOOGLE_ISSUER: &str = "https://accounts.google.com";
pub const APPLE_ISSUER: &str = "https://appleid.apple.com";
pub const FACEBOOK_DIALOG: &str = "https://www.facebook.com/v21.0/dialog/oauth";
pub const FACEBOOK_GRAPH: &str = "https://graph.facebook.com/v21.0";

impl Default for ProviderEndpoints {
    fn default() -> Self {
        Self {
            google_issuer: GOOGLE_ISSUER.into(),
            apple_issuer: APPLE_ISSUER.into(),
            facebook_dialog: FACEBOOK_DIALOG.into(),
            facebook_graph: FACEBOOK_GRAPH.into(),
        }
    }
}

impl ProviderEndpoints {
    fn from_env() -> Self {
        let defaults = Self::default();
        // An issuer is compared exactly with the `iss` of each ID token, so it is taken as given.
        Self {
            google_issuer: var("GOOGLE_ISSUER_URL").unwrap_or(defaults.google_issuer),
            apple_issuer: var("APPLE_ISSUER_URL").unwrap_or(defaults.apple_issuer),
            facebook_dialog: var("FACEBOOK_DIALOG_URL").unwrap_or(defaults.facebook_dialog),
            facebook_graph: var("FACEBOOK_GRAPH_URL")
                .map(|url| url.trim_end_matches('/').to_owned())
                .unwrap_or(defaults.facebook_graph),
        }
    }
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
        Ok(Self {
            google: credentials("GOOGLE")?,
            facebook: credentials("FACEBOOK")?,
            apple: apple()?,
            endpoints: ProviderEndpoints::from_env(),
        })
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
