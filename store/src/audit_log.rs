//! The operators' audit log: one row per action, written in the action's own transaction
//! (so an action without its row cannot commit), never updated or deleted (the schema's
//! triggers refuse both).

use sqlx::FromRow;
use tracing::instrument;
use uuid::Uuid;

use model::moderation::{AuditAction, AuditTarget};

use crate::{
    db::{BeginWrite, Db, Timestamp, new_id},
    on_pool,
};

/// What an operator did, to what, and why.
#[derive(Clone, Debug)]
pub struct AuditEntry<'a> {
    pub id: Uuid,
    pub operator_id: Uuid,
    pub action: AuditAction,
    pub target_type: AuditTarget,
    pub target_id: Uuid,
    pub note: &'a str,
    pub created_at: Timestamp,
    /// The operator tried this and was refused (they are part of the case): nothing happened.
    pub refused: bool,
}

impl<'a> AuditEntry<'a> {
    pub fn new(operator_id: Uuid, action: AuditAction, target: (AuditTarget, Uuid), note: &'a str) -> Self {
        Self {
            id: new_id(),
            operator_id,
            action,
            target_type: target.0,
            target_id: target.1,
            note,
            created_at: Timestamp::now(),
            refused: false,
        }
    }

    /// The same attempt, recorded as refused.
    pub fn refused(self) -> Self {
        Self { refused: true, ..self }
    }
}

#[derive(Clone, Debug, FromRow)]
pub struct AuditRow {
    pub id: Uuid,
    pub operator_id: Uuid,
    pub operator_email: String,
    #[sqlx(try_from = "String")]
    pub action: AuditAction,
    #[sqlx(try_from = "String")]
    pub target_type: AuditTarget,
    pub target_id: Uuid,
    pub note: String,
    pub created_at: Timestamp,
    pub refused: bool,
}

/// Writes an [`AuditEntry`] inside the caller's transaction (a macro because the
/// transaction's type differs per backend).
#[macro_export]
macro_rules! insert_audit_entry {
    ($tx:expr, $entry:expr) => {{
        let entry: &$crate::audit_log::AuditEntry = $entry;
        sqlx::query(
            "insert into audit_log (id, operator_id, action, target_type, target_id, note, created_at, refused)
             values ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(entry.id)
        .bind(entry.operator_id)
        .bind(entry.action.as_str())
        .bind(entry.target_type.as_str())
        .bind(entry.target_id)
        .bind(entry.note)
        .bind(entry.created_at)
        .bind(entry.refused)
        .execute(&mut *$tx)
        .await
    }};
}

/// Writes one entry on its own: an attempt that was refused, so no change carries it.
#[instrument(skip_all)]
pub async fn record(db: &Db, entry: &AuditEntry<'_>) -> sqlx::Result<()> {
    on_pool!(db, |pool| {
        async {
            let mut tx = pool.begin_write().await?;
            crate::insert_audit_entry!(tx, entry)?;
            tx.commit().await
        }
        .await
    })
}

/// Newest first (ids are UUIDv7, so by time), those older than `before` when given.
#[instrument(skip_all)]
pub async fn audit_page(db: &Db, before: Option<Uuid>, limit: i64) -> sqlx::Result<Vec<AuditRow>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, AuditRow>(
            "select a.id, a.operator_id, u.email as operator_email, a.action, a.target_type, a.target_id, a.note,
                    a.created_at, a.refused
             from audit_log a join users u on u.id = a.operator_id
             where ($1 = false or a.id < $2)
             order by a.id desc
             limit $3",
        )
        .bind(before.is_some())
        .bind(before.unwrap_or_default())
        .bind(limit)
        .fetch_all(pool)
        .await
    })
}

/// The actions taken on `target_id` (e.g. a user's suspensions) and, for a user, on the content
/// of theirs that was reported (a removal, a warning), newest first.
#[instrument(skip_all)]
pub async fn actions_on(db: &Db, target_id: Uuid, limit: i64) -> sqlx::Result<Vec<AuditRow>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, AuditRow>(
            "select a.id, a.operator_id, u.email as operator_email, a.action, a.target_type, a.target_id, a.note,
                    a.created_at, a.refused
             from audit_log a join users u on u.id = a.operator_id
             where a.target_id = $1
                or exists (select 1 from reports r
                           where r.author_id = $1 and r.target_id = a.target_id and r.target_type = a.target_type)
             order by a.id desc
             limit $2",
        )
        .bind(target_id)
        .bind(limit)
        .fetch_all(pool)
        .await
    })
}
