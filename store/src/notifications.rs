use sqlx::FromRow;
use tracing::instrument;
use uuid::Uuid;

use model::states::NotificationKind;

use crate::{
    db::{Db, Timestamp, new_id},
    on_pool,
};

/// The channels a notification may reach a user by, beside the in-app list.
pub const PUSH: &str = "push";
pub const EMAIL: &str = "email";
pub const CHANNELS: [&str; 2] = [PUSH, EMAIL];

/// Whether `channel` carries `notification_kind` for someone who never chose.
/// A user's choices are stored only where they differ from these
/// (`store::notification_preferences`), so a kind added later gets its
/// default for everyone without a migration.
///
/// Push is on for every kind (it is the reason to enable a device). Email is
/// on for what concerns money or a conversation someone waits on, and off for
/// `task_alert` and `task`: alerts can come many an hour and are only worth
/// anything while fresh (push carries them), and task updates are mirrored by
/// the offer/payment mail that matters.
pub fn default_enabled(channel: &str, notification_kind: NotificationKind) -> bool {
    match channel {
        EMAIL => !matches!(notification_kind, NotificationKind::TaskAlert | NotificationKind::Task),
        _ => true,
    }
}

#[derive(Clone, Debug, FromRow)]
pub struct NotificationRow {
    pub id: Uuid,
    pub user_id: Uuid,
    #[sqlx(rename = "type")]
    #[sqlx(try_from = "String")]
    pub kind: NotificationKind,
    pub title: String,
    pub message: String,
    pub link: Option<String>,
    pub is_read: bool,
    pub created_at: Timestamp,
}

impl NotificationRow {
    pub fn new(
        user_id: Uuid,
        kind: NotificationKind,
        title: &str,
        message: String,
        link: Option<String>,
        now: Timestamp,
    ) -> Self {
        Self { id: new_id(), user_id, kind, title: title.to_owned(), message, link, is_read: false, created_at: now }
    }
}

/// A notification's text before it has a recipient: for the people a
/// transition finds inside its transaction (the taskers whose offers it
/// closed), stamped there once for each of them.
#[derive(Clone, Debug)]
pub struct Notice {
    pub kind: NotificationKind,
    pub title: &'static str,
    pub message: String,
    pub link: Option<String>,
}

impl Notice {
    pub fn to(&self, user_id: Uuid, now: Timestamp) -> NotificationRow {
        NotificationRow::new(user_id, self.kind, self.title, self.message.clone(), self.link.clone(), now)
    }
}

/// Inserts a [`NotificationRow`] inside the caller's transaction, so the
/// notification commits (or not) with the change that caused it, together
/// with the deliveries it owes (the outbox of `delivery`): one push per device
/// of the user when their push choice for the kind is on, and one email line
/// when their email choice is on. A macro because the transaction's type
/// differs per backend.
///
/// Pushes are rows per device rather than one per notification fanned out at
/// send time, so a device that fails is retried alone and the others are not
/// sent the same push twice.
#[macro_export]
macro_rules! insert_notification {
    ($tx:expr, $row:expr) => {{
        let row: &$crate::notifications::NotificationRow = $row;
        async {
            let inserted = sqlx::query(
                "insert into notifications (id, user_id, type, title, message, link, is_read, created_at)
                 values ($1, $2, $3, $4, $5, $6, $7, $8)",
            )
            .bind(row.id)
            .bind(row.user_id)
            .bind(&row.kind.as_str())
            .bind(&row.title)
            .bind(&row.message)
            .bind(&row.link)
            .bind(row.is_read)
            .bind(row.created_at)
            .execute(&mut *$tx)
            .await?
            .rows_affected();
            sqlx::query($crate::notifications::OWE_PUSHES)
                .bind(row.id)
                .bind(row.user_id)
                .bind(&row.kind.as_str())
                .bind($crate::notifications::default_enabled($crate::notifications::PUSH, row.kind))
                .bind(row.created_at)
                .execute(&mut *$tx)
                .await?;
            sqlx::query($crate::notifications::OWE_EMAIL)
                .bind(row.id)
                .bind(row.user_id)
                .bind(&row.kind.as_str())
                .bind($crate::notifications::default_enabled($crate::notifications::EMAIL, row.kind))
                .bind(row.created_at)
                .execute(&mut *$tx)
                .await?;
            Ok::<u64, sqlx::Error>(inserted)
        }
        .await
    }};
}

/// [`insert_notification!`] for many rows at once (the alert matcher writes hundreds for one
/// popular task): same rows, same outbox, in a few statements instead of three per row. Called on
/// the caller's transaction (`tx.insert_notifications(&rows)`); the statements differ per backend.
pub trait WriteNotifications {
    /// The number of notifications inserted.
    fn insert_notifications(&mut self, rows: &[NotificationRow]) -> impl Future<Output = sqlx::Result<u64>> + Send;
}

/// PostgreSQL takes each column as one array (`unnest`), so the statements' text never changes
/// with the number of rows: each is prepared once per connection and bound with a handful of
/// parameters. Multi-row `values` made a new statement for every batch size, with eight binds per
/// row, and the client's work on those (1,352 parameters for 169 rows) was most of a match's time.
impl WriteNotifications for sqlx::PgConnection {
    async fn insert_notifications(&mut self, rows: &[NotificationRow]) -> sqlx::Result<u64> {
        if rows.is_empty() {
            return Ok(0);
        }
        let inserted = sqlx::query(
            "insert into notifications (id, user_id, type, title, message, link, is_read, created_at)
                 select * from unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[],
                                      $7::boolean[], $8::bigint[])",
        )
        .bind(rows.iter().map(|row| row.id).collect::<Vec<_>>())
        .bind(rows.iter().map(|row| row.user_id).collect::<Vec<_>>())
        .bind(rows.iter().map(|row| row.kind.as_str()).collect::<Vec<_>>())
        .bind(rows.iter().map(|row| row.title.as_str()).collect::<Vec<_>>())
        .bind(rows.iter().map(|row| row.message.as_str()).collect::<Vec<_>>())
        .bind(rows.iter().map(|row| row.link.as_deref()).collect::<Vec<_>>())
        .bind(rows.iter().map(|row| row.is_read).collect::<Vec<_>>())
        .bind(rows.iter().map(|row| row.created_at.0).collect::<Vec<_>>())
        .execute(&mut *self)
        .await?
        .rows_affected();
        // The outbox rows, per kind: the default of a kind's choice differs per channel.
        for (kind, ids) in ids_by_kind(rows) {
            for (sql, channel) in [(PG_OWE_PUSHES_MANY, PUSH), (PG_OWE_EMAIL_MANY, EMAIL)] {
                sqlx::query(sql)
                    .bind(kind.as_str())
                    .bind(default_enabled(channel, kind))
                    .bind(&ids)
                    .execute(&mut *self)
                    .await?;
            }
        }
        Ok(inserted)
    }
}

/// SQLite has no arrays: multi-row `values`, a statement per chunk of rows.
impl WriteNotifications for sqlx::SqliteConnection {
    async fn insert_notifications(&mut self, rows: &[NotificationRow]) -> sqlx::Result<u64> {
        let mut inserted = 0;
        for chunk in rows.chunks(NOTIFICATIONS_PER_STATEMENT) {
            let mut query = sqlx::query(sqlx::AssertSqlSafe(insert_many_sql(chunk.len())));
            for row in chunk {
                query = query
                    .bind(row.id)
                    .bind(row.user_id)
                    .bind(row.kind.as_str())
                    .bind(&row.title)
                    .bind(&row.message)
                    .bind(&row.link)
                    .bind(row.is_read)
                    .bind(row.created_at);
            }
            inserted += query.execute(&mut *self).await?.rows_affected();
            for (kind, ids) in ids_by_kind(chunk) {
                for (sql, channel) in [(owe_pushes_many_sql(ids.len()), PUSH), (owe_email_many_sql(ids.len()), EMAIL)] {
                    let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
                    for id in &ids {
                        query = query.bind(*id);
                    }
                    query.bind(kind.as_str()).bind(default_enabled(channel, kind)).execute(&mut *self).await?;
                }
            }
        }
        Ok(inserted)
    }
}

/// Rows per multi-row insert on SQLite: 8 parameters each, well inside its limit.
const NOTIFICATIONS_PER_STATEMENT: usize = 200;

fn insert_many_sql(rows: usize) -> String {
    format!(
        "insert into notifications (id, user_id, type, title, message, link, is_read, created_at) values {}",
        crate::db::sqlite_rows(rows, 8)
    )
}

fn ids_by_kind(rows: &[NotificationRow]) -> Vec<(NotificationKind, Vec<Uuid>)> {
    let mut groups: Vec<(NotificationKind, Vec<Uuid>)> = Vec::new();
    for row in rows {
        match groups.iter_mut().find(|(kind, _)| *kind == row.kind) {
            Some((_, ids)) => ids.push(row.id),
            None => groups.push((row.kind, vec![row.id])),
        }
    }
    groups
}

/// `$1` the kind, `$2` the push default for it, `$3` the notifications' ids.
const PG_OWE_PUSHES_MANY: &str =
    "insert into push_deliveries (notification_id, subscription_id, next_attempt_at, created_at, updated_at)
     select n.id, s.id, n.created_at, n.created_at, n.created_at
     from notifications n join push_subscriptions s on s.user_id = n.user_id
     where n.id = any($3)
       and coalesce((select p.enabled from notification_preferences p
                     where p.user_id = n.user_id and p.channel = 'push' and p.kind = $1), $2)";

/// As [`PG_OWE_PUSHES_MANY`], one email line per notification.
const PG_OWE_EMAIL_MANY: &str =
    "insert into email_deliveries (notification_id, user_id, next_attempt_at, created_at, updated_at)
     select n.id, n.user_id, n.created_at, n.created_at, n.created_at
     from notifications n
     where n.id = any($3)
       and coalesce((select p.enabled from notification_preferences p
                     where p.user_id = n.user_id and p.channel = 'email' and p.kind = $1), $2)";

/// The notifications' ids, then the kind and the push default for it (anonymous placeholders, in
/// that order).
fn owe_pushes_many_sql(ids: usize) -> String {
    format!(
        "insert into push_deliveries (notification_id, subscription_id, next_attempt_at, created_at, updated_at)
         select n.id, s.id, n.created_at, n.created_at, n.created_at
         from notifications n join push_subscriptions s on s.user_id = n.user_id
         where n.id in ({})
           and coalesce((select p.enabled from notification_preferences p
                         where p.user_id = n.user_id and p.channel = 'push' and p.kind = ?), ?)",
        crate::db::sqlite_list(ids)
    )
}

/// As [`owe_pushes_many_sql`], one email line per notification.
fn owe_email_many_sql(ids: usize) -> String {
    format!(
        "insert into email_deliveries (notification_id, user_id, next_attempt_at, created_at, updated_at)
         select n.id, n.user_id, n.created_at, n.created_at, n.created_at
         from notifications n
         where n.id in ({})
           and coalesce((select p.enabled from notification_preferences p
                         where p.user_id = n.user_id and p.channel = 'email' and p.kind = ?), ?)",
        crate::db::sqlite_list(ids)
    )
}

/// For [`insert_notification!`]: $1 notification, $2 user, $3 kind, $4 the push default for the kind, $5 now.
#[doc(hidden)]
pub const OWE_PUSHES: &str =
    "insert into push_deliveries (notification_id, subscription_id, next_attempt_at, created_at, updated_at)
     select $1, s.id, $5, $5, $5 from push_subscriptions s
     where s.user_id = $2
       and coalesce((select p.enabled from notification_preferences p
                     where p.user_id = $2 and p.channel = 'push' and p.kind = $3), $4)";

/// For [`insert_notification!`]: as [`OWE_PUSHES`], one email line.
#[doc(hidden)]
pub const OWE_EMAIL: &str =
    "insert into email_deliveries (notification_id, user_id, next_attempt_at, created_at, updated_at)
     select $1, $2, $5, $5, $5
     where coalesce((select p.enabled from notification_preferences p
                     where p.user_id = $2 and p.channel = 'email' and p.kind = $3), $4)";

/// Newest first; `before` is the last id of the previous page (ids are time-ordered).
#[instrument(skip_all)]
pub async fn notifications_page(
    db: &Db,
    user_id: Uuid,
    unread_only: bool,
    before: Option<Uuid>,
    limit: i64,
) -> sqlx::Result<Vec<NotificationRow>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, NotificationRow>(
            "select id, user_id, type, title, message, link, is_read, created_at
             from notifications
             where user_id = $1 and ($2 = false or is_read = false) and ($3 = false or id < $4)
             order by id desc
             limit $5",
        )
        .bind(user_id)
        .bind(unread_only)
        .bind(before.is_some())
        .bind(before.unwrap_or_default())
        .bind(limit)
        .fetch_all(pool)
        .await
    })
}

#[instrument(skip_all)]
pub async fn unread_count(db: &Db, user_id: Uuid) -> sqlx::Result<i64> {
    on_pool!(db, |pool| {
        sqlx::query_scalar::<_, i64>("select count(*) from notifications where user_id = $1 and is_read = false")
            .bind(user_id)
            .fetch_one(pool)
            .await
    })
}

/// Marks one of the user's notifications read; false when it is not theirs or does not exist.
#[instrument(skip_all)]
pub async fn mark_read(db: &Db, user_id: Uuid, id: Uuid) -> sqlx::Result<bool> {
    let affected = on_pool!(db, |pool| {
        sqlx::query("update notifications set is_read = true where id = $1 and user_id = $2")
            .bind(id)
            .bind(user_id)
            .execute(pool)
            .await
            .map(|done| done.rows_affected())
    })?;
    Ok(affected == 1)
}

#[instrument(skip_all)]
pub async fn mark_all_read(db: &Db, user_id: Uuid) -> sqlx::Result<u64> {
    on_pool!(db, |pool| {
        sqlx::query("update notifications set is_read = true where user_id = $1 and is_read = false")
            .bind(user_id)
            .execute(pool)
            .await
            .map(|done| done.rows_affected())
    })
}
