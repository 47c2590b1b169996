//! The email channel: notifications still unread `EMAIL_DELAY` after they
//! were made are mailed, together, at most one mail per user an hour, each
//! with a one-click unsubscribe (RFC 8058) that needs no sign-in.

use std::time::Duration;

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use hmac::{Hmac, Mac};
use sha2::Sha256;
use uuid::Uuid;

use model::states::EmailLineStatus;
use store::{
    db::Timestamp,
    deliveries::{self, DueEmailLine},
    profiles, users,
};

use crate::{
    delivery::{
        Handles,
        preferences::{self, EMAIL},
        retry_delay,
    },
    mail::Email,
};

pub const DIGEST_EVERY: Duration = Duration::from_secs(3600);
/// How long a node may take to compose and send one digest before another may.
const LEASE: Duration = Duration::from_secs(120);
const USERS_PER_PASS: i64 = 50;
/// Attempts before a line is given up on (about a day of trying with [`retry_delay`]).
pub const MAX_ATTEMPTS: i32 = 10;

/// How long an unsubscribe link works: a mailed link is a bearer token, so it does not stay one
/// forever (the digest of each hour carries a fresh one).
pub const UNSUBSCRIBE_LINK_TTL: Duration = Duration::from_secs(60 * 24 * 3600);
/// The version of the signing key; tokens of another version are refused (bump it to void every
/// link out there).
const UNSUBSCRIBE_KEY_VERSION: u8 = 1;
/// Version, issue time (unix seconds, big-endian), user id, then the truncated MAC of those.
const UNSUBSCRIBE_SIGNED_LEN: usize = 1 + 8 + 16;
const UNSUBSCRIBE_MAC_LEN: usize = 16;

/// Unsubscribe links: the user id and the issue time signed with a key derived from the
/// server's secret, so they work without a sign-in and without a table of tokens, for
/// [`UNSUBSCRIBE_LINK_TTL`].
#[derive(Clone)]
pub struct UnsubscribeTokens {
    key: Vec<u8>,
}

impl UnsubscribeTokens {
    pub fn new(server_secret: &str) -> Self {
        let mut mac = Hmac::<Sha256>::new_from_slice(server_secret.as_bytes()).expect("any key length");
        mac.update(b"taskhub email unsubscribe");
        mac.update(&[UNSUBSCRIBE_KEY_VERSION]);
        Self { key: mac.finalize().into_bytes().to_vec() }
    }

    fn mac(&self, signed: &[u8]) -> Hmac<Sha256> {
        let mut mac = Hmac::<Sha256>::new_from_slice(&self.key).expect("any key length");
        mac.update(signed);
        mac
    }

    /// A token for `user_id` issued at `issued_at`.
    pub fn token(&self, user_id: Uuid, issued_at: Timestamp) -> String {
        let mut bytes = Vec::with_capacity(UNSUBSCRIBE_SIGNED_LEN + UNSUBSCRIBE_MAC_LEN);
        bytes.push(UNSUBSCRIBE_KEY_VERSION);
        bytes.extend_from_slice(&(issued_at.0 / 1000).to_be_bytes());
        bytes.extend_from_slice(user_id.as_bytes());
        let mac = self.mac(&bytes).finalize().into_bytes();
        bytes.extend_from_slice(&mac[..UNSUBSCRIBE_MAC_LEN]);
        URL_SAFE_NO_PAD.encode(bytes)
    }

    /// The user a token was made for, if it is genuine, of the current key and not expired at `now`.
    pub fn verify(&self, token: &str, now: Timestamp) -> Option<Uuid> {
        let bytes = URL_SAFE_NO_PAD.decode(token.trim()).ok()?;
        if bytes.len() != UNSUBSCRIBE_SIGNED_LEN + UNSUBSCRIBE_MAC_LEN || bytes[0] != UNSUBSCRIBE_KEY_VERSION {
            return None;
        }
        let (signed, tag) = bytes.split_at(UNSUBSCRIBE_SIGNED_LEN);
        self.mac(signed).verify_truncated_left(tag).ok()?;
        let issued_at = Timestamp(i64::from_be_bytes(signed[1..9].try_into().ok()?).checked_mul(1000)?);
        (now < issued_at.plus(UNSUBSCRIBE_LINK_TTL)).then(|| Uuid::from_slice(&signed[9..]).ok()).flatten()
    }
}

/// One pass as of `now`: mails every user who is due a digest. Returns the number of mails sent.
pub async fn pass(state: &Handles, now: Timestamp) -> anyhow::Result<usize> {
    let created_before = now.minus(state.config.email_delay);
    let last_digest_before = now.minus(DIGEST_EVERY);
    let mut sent = 0;
    for user_id in
        deliveries::users_with_due_email(&state.db, created_before, last_digest_before, now, USERS_PER_PASS).await?
    {
        if !deliveries::claim_digest(&state.db, user_id, last_digest_before, now, now.plus(LEASE)).await? {
            continue; // another node has it, or just mailed them
        }
        if mail_user(state, user_id, created_before, now).await? {
            sent += 1;
        }
    }
    Ok(sent)
}

/// Mails one claimed user's due lines; always ends the claim.
async fn mail_user(state: &Handles, user_id: Uuid, created_before: Timestamp, now: Timestamp) -> anyhow::Result<bool> {
    let lines = deliveries::due_email_lines(&state.db, user_id, created_before, now).await?;
    let settings = preferences::settings(&state.db, user_id).await?;
    let (wanted, unwanted): (Vec<_>, Vec<_>) =
        lines.into_iter().partition(|line| !line.is_read && settings.allows(EMAIL, line.kind));
    let mut outcome: Vec<(Uuid, EmailLineStatus)> =
        unwanted.iter().map(|line| (line.notification_id, EmailLineStatus::Skipped)).collect();
    let user = users::user_by_id(&state.db, user_id).await?;
    let Some(user) = user.filter(|_| !wanted.is_empty()) else {
        outcome.extend(wanted.iter().map(|line| (line.notification_id, EmailLineStatus::Skipped)));
        deliveries::finish_digest(&state.db, user_id, &outcome, now, None, None, now).await?;
        return Ok(false);
    };
    let first_name = profiles::profile(&state.db, user_id).await?.map(|profile| profile.first_name).unwrap_or_default();
    let token = state.delivery.unsubscribe.token(user_id, now);
    let unsubscribe_url = state.link(&format!("/api/unsubscribe?token={token}"));
    let unsubscribe_page = state.link(&format!("/unsubscribe?token={token}"));
    let subject = subject(&wanted);
    let text = body(state, &first_name, &wanted, &unsubscribe_page);
    let email = Email { to: &user.email, subject: &subject, text, reply_to: None };
    let attempts = wanted.iter().map(|line| line.attempts).max().unwrap_or(0) + 1;
    match state.mailer.send_with_unsubscribe(email, &unsubscribe_url).await {
        Ok(()) => {
            metrics::counter!("notification_deliveries_total", "channel" => "email", "outcome" => "sent").increment(1);
            outcome.extend(wanted.iter().map(|line| (line.notification_id, EmailLineStatus::Sent)));
            deliveries::finish_digest(&state.db, user_id, &outcome, now, None, Some(now), now).await?;
            Ok(true)
        }
        Err(error) => {
            let error = format!("{error:#}");
            let (status, result) = if attempts >= MAX_ATTEMPTS {
                (EmailLineStatus::Parked, "failed")
            } else {
                (EmailLineStatus::Pending, "retried")
            };
            tracing::warn!(%user_id, attempts, %error, "could not send a notification digest");
            metrics::counter!("notification_deliveries_total", "channel" => "email", "outcome" => result).increment(1);
            outcome.extend(wanted.iter().map(|line| (line.notification_id, status)));
            let retry_at = now.plus(retry_delay(attempts, None));
            deliveries::finish_digest(&state.db, user_id, &outcome, retry_at, Some(&error), None, now).await?;
            Ok(false)
        }
    }
}

fn subject(lines: &[DueEmailLine]) -> String {
    match lines {
        [only] => format!("Taskhub: {}", only.title),
        many => format!("Taskhub: {} new notifications", many.len()),
    }
}

fn body(state: &Handles, first_name: &str, lines: &[DueEmailLine], unsubscribe_page: &str) -> String {
    let greeting = if first_name.trim().is_empty() { "Hi,".to_owned() } else { format!("Hi {},", first_name.trim()) };
    let mut text = format!("{greeting}\n\nHere is what is new on Taskhub since you last looked:\n\n");
    for line in lines {
        text.push_str(&format!("- {}: {}\n", line.title, line.message));
        if let Some(link) = &line.link {
            text.push_str(&format!("  {}\n", state.link(link)));
        }
    }
    text.push_str(&format!(
        "\nAll your notifications: {}\n\n\
         You get this email because email is on for these notifications. Choose which ones at {}\n\
         Unsubscribe from these emails: {}\n",
        state.link("/notifications"),
        state.link("/settings/notifications"),
        unsubscribe_page,
    ));
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsubscribe_tokens_name_their_user_and_cannot_be_forged() {
        let tokens = UnsubscribeTokens::new("a server secret");
        let (user, now) = (Uuid::now_v7(), Timestamp::now());
        let token = tokens.token(user, now);
        assert_eq!(tokens.verify(&token, now), Some(user));
        assert_eq!(UnsubscribeTokens::new("another secret").verify(&token, now), None);
        let mut forged = URL_SAFE_NO_PAD.decode(&token).unwrap();
        forged[9..25].copy_from_slice(Uuid::now_v7().as_bytes());
        assert_eq!(tokens.verify(&URL_SAFE_NO_PAD.encode(&forged), now), None);
        let mut backdated = URL_SAFE_NO_PAD.decode(&token).unwrap();
        backdated[8] ^= 1;
        assert_eq!(tokens.verify(&URL_SAFE_NO_PAD.encode(&backdated), now), None, "the issue time is signed");
        assert_eq!(tokens.verify("junk", now), None);
    }

    #[test]
    fn unsubscribe_tokens_expire_after_sixty_days_and_name_their_key_version() {
        let tokens = UnsubscribeTokens::new("a server secret");
        let (user, issued) = (Uuid::now_v7(), Timestamp::now());
        let token = tokens.token(user, issued);
        assert_eq!(tokens.verify(&token, issued.plus(Duration::from_secs(59 * 24 * 3600))), Some(user));
        assert_eq!(tokens.verify(&token, issued.plus(UNSUBSCRIBE_LINK_TTL)), None, "expired");
        let mut other_version = URL_SAFE_NO_PAD.decode(&token).unwrap();
        other_version[0] = UNSUBSCRIBE_KEY_VERSION + 1;
        assert_eq!(tokens.verify(&URL_SAFE_NO_PAD.encode(&other_version), issued), None);
        // The permanent tokens of before (user id and MAC only) no longer work.
        let mut legacy = user.as_bytes().to_vec();
        legacy.extend_from_slice(&[0; 16]);
        assert_eq!(tokens.verify(&URL_SAFE_NO_PAD.encode(&legacy), issued), None);
    }
}
