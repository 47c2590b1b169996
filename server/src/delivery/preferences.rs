//! Which channels carry which notification kinds. A user's choices are stored
//! only where they differ from the defaults here, so a kind added later gets
//! its default for everyone without a migration.
//!
//! Defaults: push is on for every kind (it is the reason to enable a device).
//! Email is on for what concerns money or a conversation someone waits on, and
//! off for `task_alert` and `task`: alerts can come many an hour and are only
//! worth anything while fresh (push carries them), and task updates are
//! mirrored by the offer/payment mail that matters.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::store::notifications::kind;

pub const PUSH: &str = "push";
pub const EMAIL: &str = "email";
pub const CHANNELS: [&str; 2] = [PUSH, EMAIL];

/// Every notification kind of the contract (docs/architecture.md), in the order the settings page shows them.
pub const KINDS: [&str; 7] =
    [kind::OFFER, kind::MESSAGE, kind::PAYMENT, kind::DISPUTE, kind::REMINDER, kind::TASK, kind::TASK_ALERT];

pub fn default_enabled(channel: &str, notification_kind: &str) -> bool {
    match channel {
        EMAIL => !matches!(notification_kind, kind::TASK_ALERT | kind::TASK),
        _ => true,
    }
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
            KINDS
                .iter()
                .map(|kind| {
                    let stored = overrides.iter().find(|(c, k, _)| c == name && k == kind).map(|(_, _, on)| *on);
                    (kind.to_string(), stored.unwrap_or_else(|| default_enabled(name, kind)))
                })
                .collect()
        };
        Self { email: channel(EMAIL), push: channel(PUSH) }
    }

    pub fn allows(&self, channel: &str, notification_kind: &str) -> bool {
        let map = if channel == EMAIL { &self.email } else { &self.push };
        map.get(notification_kind).copied().unwrap_or_else(|| default_enabled(channel, notification_kind))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alerts_are_pushed_but_not_mailed_by_default() {
        let settings = NotificationSettings::from_overrides(&[]);
        assert!(settings.allows(PUSH, kind::TASK_ALERT));
        assert!(!settings.allows(EMAIL, kind::TASK_ALERT));
        assert!(settings.allows(EMAIL, kind::OFFER));
        assert_eq!(settings.email.len(), KINDS.len());
    }

    #[test]
    fn stored_choices_override_the_defaults() {
        let settings = NotificationSettings::from_overrides(&[("email".into(), "offer".into(), false)]);
        assert!(!settings.allows(EMAIL, kind::OFFER));
        assert!(settings.allows(PUSH, kind::OFFER));
    }
}
