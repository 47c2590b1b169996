//! The email channel's edges on both backends: the unsubscribe form behind the
//! mail's visible link really turns email off, and a digest the mail server
//! keeps refusing is retried with backoff and then parked, never tried forever.

use domain::{
    config::{Config, Secret},
    delivery::digest,
};
use model::states::NotificationKind;
use store::{db::Timestamp, deliveries, notifications::NotificationRow};

use crate::common;

use std::{io::Write, net::TcpListener, time::Duration};

use common::{TestApp, access_token};
use reqwest::StatusCode;
use serde_json::Value;
use uuid::Uuid;

/// Writes a notification the way every cause does: through `insert_notification!` in a transaction.
async fn notify(app: &TestApp, user_id: Uuid, title: &str) -> Uuid {
    let row =
        NotificationRow::new(user_id, NotificationKind::Offer, title, format!("About {title}"), None, Timestamp::now());
    store::on_pool!(&app.server.state.db, |pool| {
        let mut tx = pool.begin().await.unwrap();
        store::insert_notification!(tx, &row).unwrap();
        tx.commit().await.unwrap();
    });
    row.id
}

async fn digest_pass(app: &TestApp, at: Timestamp) -> usize {
    digest::pass(&app.server.state.delivery_handles(), at).await.unwrap()
}

async fn email_line(app: &TestApp, notification: Uuid) -> (String, i32, Option<String>) {
    deliveries::email_for(&app.server.state.db, notification).await.unwrap().expect("an email line")
}

async fn email_settings(app: &TestApp, token: &str) -> Value {
    app.get("/api/me/notification-settings", Some(token)).await.body
}

fn field_after<'a>(text: &'a str, marker: &str, end: char) -> &'a str {
    let start = text.find(marker).unwrap_or_else(|| panic!("{marker:?} in {text}")) + marker.len();
    text[start..].split(end).next().unwrap()
}

async fn the_unsubscribe_form_behind_the_visible_link_turns_email_off(app: TestApp) -> TestApp {
    let session = app.signed_in_user("reader@example.com").await;
    let token = access_token(&session);
    let user: Uuid = session["user"]["id"].as_str().unwrap().parse().unwrap();
    let bystander = access_token(&app.signed_in_user("bystander@example.com").await);
    notify(&app, user, "New offer from Kim").await;
    assert_eq!(digest_pass(&app, Timestamp::now().plus(Duration::from_secs(11 * 60))).await, 1);
    let mail = app
        .mailbox()
        .await
        .into_iter()
        .find(|mail| mail["to"] == "reader@example.com" && mail["subject"] == "Taskhub: New offer from Kim");
    let text = mail.expect("the digest").get("text").unwrap().as_str().unwrap().to_owned();
    let link = field_after(&text, "Unsubscribe from these emails: ", '\n').trim();
    let page_path = link.strip_prefix(&app.server.url()).expect("a link to this server");
    assert!(page_path.starts_with("/unsubscribe?token="), "{page_path}");

    // The page asks first; its form posts where the button sends the browser.
    let page = app.client.get(app.url(page_path)).send().await.unwrap().text().await.unwrap();
    let action = field_after(&page, "<form method=\"post\" action=\"", '"');
    assert_eq!(email_settings(&app, &token).await["email"]["offer"], true, "opening the page changes nothing");

    let forged = app
        .client
        .post(app.url("/unsubscribe?token=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"))
        .header("content-type", "application/x-www-form-urlencoded")
        .send()
        .await
        .unwrap();
    assert!(forged.text().await.unwrap().contains("Link not valid"));
    assert_eq!(email_settings(&app, &token).await["email"]["offer"], true, "a forged token changes nothing");

    let submitted = app
        .client
        .post(app.url(action))
        .header("content-type", "application/x-www-form-urlencoded")
        .send()
        .await
        .unwrap();
    assert_eq!(submitted.status(), StatusCode::OK);
    assert!(submitted.text().await.unwrap().contains("You are unsubscribed"));
    let settings = email_settings(&app, &token).await;
    let email = settings["email"].as_object().unwrap();
    assert!(!email.is_empty() && email.values().all(|on| on == false), "every kind of email is off: {settings:?}");
    assert_eq!(settings["push"]["offer"], true, "push is not touched");
    let others = email_settings(&app, &bystander).await;
    assert_eq!(others["email"]["offer"], true, "only the token's user is unsubscribed");

    // And nothing more is mailed to them: no line is owed, or it is skipped.
    let next = notify(&app, user, "Another offer").await;
    assert_eq!(digest_pass(&app, Timestamp::now().plus(Duration::from_secs(3 * 3600))).await, 0);
    let line = deliveries::email_for(&app.server.state.db, next).await.unwrap();
    assert!(line.as_ref().is_none_or(|(status, ..)| status == "skipped"), "{line:?}");
    app
}

async fn a_digest_the_mail_server_keeps_refusing_is_parked(app: TestApp) -> TestApp {
    let signup = common::signup_body("unlucky@example.com", "customer");
    let created = app.post("/api/auth/signup", None, signup).await;
    assert_eq!(created.status, StatusCode::CREATED, "{:?}", created.body);
    let user: Uuid = created.body["user"]["id"].as_str().unwrap().parse().unwrap();
    let line = notify(&app, user, "New offer from Kim").await;

    // Each pass well after the last one's backoff, so every pass tries again.
    let mut at = Timestamp::now().plus(Duration::from_secs(11 * 60));
    for attempt in 1..digest::MAX_ATTEMPTS {
        assert_eq!(digest_pass(&app, at).await, 0, "attempt {attempt} is refused");
        let (status, attempts, error) = email_line(&app, line).await;
        assert_eq!((status.as_str(), attempts), ("pending", attempt), "retried after attempt {attempt}");
        assert!(error.unwrap_or_default().contains("SMTP"), "the SMTP error is kept");
        at = at.plus(Duration::from_secs(7 * 86_400));
    }
    assert_eq!(digest_pass(&app, at).await, 0);
    let (status, attempts, _) = email_line(&app, line).await;
    assert_eq!((status.as_str(), attempts), ("parked", digest::MAX_ATTEMPTS), "given up after the last attempt");

    let much_later = at.plus(Duration::from_secs(30 * 86_400));
    assert_eq!(digest_pass(&app, much_later).await, 0);
    assert_eq!(email_line(&app, line).await.1, digest::MAX_ATTEMPTS, "a parked line is never tried again");
    let due = deliveries::users_with_due_email(&app.server.state.db, much_later, much_later, much_later, 10).await;
    assert_eq!(due.unwrap(), Vec::<Uuid>::new(), "nobody is due mail");
    app
}

/// A mail server that answers every connection with a permanent failure, for the rest of the
/// test process; its `smtp://` URL.
fn refusing_smtp_server() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for mut socket in listener.incoming().flatten() {
            let _ = socket.write_all(b"554 5.3.2 not accepting mail\r\n");
        }
    });
    format!("smtp://{address}")
}

fn with_refusing_smtp(config: &mut Config) {
    config.smtp_url = Some(Secret::new(refusing_smtp_server()));
    config.require_email_verification = false;
}

mod sqlite {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_unsubscribe_form_behind_the_visible_link_turns_email_off() {
        crate::common::run(
            crate::common::Backend::Sqlite,
            |_| {},
            super::the_unsubscribe_form_behind_the_visible_link_turns_email_off,
        )
        .await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_digest_the_mail_server_keeps_refusing_is_parked() {
        crate::common::run(
            crate::common::Backend::Sqlite,
            super::with_refusing_smtp,
            super::a_digest_the_mail_server_keeps_refusing_is_parked,
        )
        .await;
    }
}

mod postgres {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    #[cfg_attr(taskhub_skip_postgres, ignore = "TASKHUB_SKIP_POSTGRES is set")]
    async fn the_unsubscribe_form_behind_the_visible_link_turns_email_off() {
        crate::common::run(
            crate::common::Backend::Postgres,
            |_| {},
            super::the_unsubscribe_form_behind_the_visible_link_turns_email_off,
        )
        .await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    #[cfg_attr(taskhub_skip_postgres, ignore = "TASKHUB_SKIP_POSTGRES is set")]
    async fn a_digest_the_mail_server_keeps_refusing_is_parked() {
        crate::common::run(
            crate::common::Backend::Postgres,
            super::with_refusing_smtp,
            super::a_digest_the_mail_server_keeps_refusing_is_parked,
        )
        .await;
    }
}
