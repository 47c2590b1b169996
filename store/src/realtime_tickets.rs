use tracing::instrument;
use uuid::Uuid;

use crate::{
    db::{Db, Timestamp},
    on_pool,
};

/// Whom a redeemed ticket was issued to, and in which session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TicketHolder {
    pub user_id: Uuid,
    pub session_id: Option<Uuid>,
}

#[instrument(skip_all)]
pub async fn insert(db: &Db, ticket_hash: &str, holder: TicketHolder, expires_at: Timestamp) -> sqlx::Result<()> {
    on_pool!(db, |pool| {
        sqlx::query(
            "insert into realtime_tickets (ticket_hash, user_id, session_id, expires_at) values ($1, $2, $3, $4)",
        )
        .bind(ticket_hash)
        .bind(holder.user_id)
        .bind(holder.session_id)
        .bind(expires_at)
        .execute(pool)
        .await
        .map(|done| done.rows_affected())
    })?;
    Ok(())
}

/// Deletes the ticket and returns its holder if it was still valid: a ticket works once.
#[instrument(skip_all)]
pub async fn redeem(db: &Db, ticket_hash: &str, now: Timestamp) -> sqlx::Result<Option<TicketHolder>> {
    let row = on_pool!(db, |pool| {
        sqlx::query_as::<_, (Uuid, Option<Uuid>, Timestamp)>(
            "delete from realtime_tickets where ticket_hash = $1 returning user_id, session_id, expires_at",
        )
        .bind(ticket_hash)
        .fetch_optional(pool)
        .await
    })?;
    Ok(row
        .filter(|(_, _, expires_at)| *expires_at > now)
        .map(|(user_id, session_id, _)| TicketHolder { user_id, session_id }))
}

/// Drops expired tickets that were never used.
#[instrument(skip_all)]
pub async fn delete_expired(db: &Db, now: Timestamp) -> sqlx::Result<u64> {
    on_pool!(db, |pool| {
        sqlx::query("delete from realtime_tickets where expires_at <= $1")
            .bind(now)
            .execute(pool)
            .await
            .map(|done| done.rows_affected())
    })
}
