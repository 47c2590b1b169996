//! Which channels carry which notification kinds for a user: the defaults
//! (`store::notifications::default_enabled`, beside the outbox that applies
//! them) overridden by the choices they stored.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use model::states::NotificationKind;
pub use store::notifications::{CHANNELS, EMAIL, PUSH, default_enabled};
use store::{db::Db, notification_preferences};

/// A user's choices over the defaults.
pub async fn settings(db: &Db, user_id: Uuid) -> sqlx::Result<NotificationSettings> {
    Ok(NotificationSettings::from_overrides(&notification_preferences::overrides(db, user_id).await?))
}

/// `{email: {kind: bool}, push: {kind: bool}}`, every kind present.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct NotificationSettings {
    pub email: BTreeMap<String, bool>,
    pub push: BTreeMap<String, bool>,
}

impl NotificationSettings {
    /// The defaults overridden by stored `(channel, kind, enabled)` rows.
    pub fn from_overrides(overrides: &[(String, String, bool)]) -> Self {
        let channel = |name: &str| {
            NotificationKind::ALL
                .iter()
                .map(|&kind| {
                    let stored =
                        overrides.iter().find(|(c, k, _)| c == name && k == kind.as_str()).map(|(_, _, on)| *on);
                    (kind.to_string(), stored.unwrap_or_else(|| default_enabled(name, kind)))
                })
                .collect()
        };
        Self { email: channel(EMAIL), push: channel(PUSH) }
    }

    pub fn allows(&self, channel: &str, notification_kind: NotificationKind) -> bool {
        let map = if channel == EMAIL { &self.email } else { &self.push };
        map.get(notification_kind.as_str()).copied().unwrap_or_else(|| default_enabled(channel, notification_kind))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alerts_are_pushed_but_not_mailed_by_default() {
        let settings = NotificationSettings::from_overrides(&[]);
        assert!(settings.allows(PUSH, NotificationKind::TaskAlert));
        assert!(!settings.allows(EMAIL, NotificationKind::TaskAlert));
        assert!(settings.allows(EMAIL, NotificationKind::Offer));
        assert_eq!(settings.email.len(), NotificationKind::ALL.len());
    }

    #[test]
    fn stored_choices_override_the_defaults() {
        let settings = NotificationSettings::from_overrides(&[("email".into(), "offer".into(), false)]);
        assert!(!settings.allows(EMAIL, NotificationKind::Offer));
        assert!(settings.allows(PUSH, NotificationKind::Offer));
    }
}
