use tracing::instrument;
use uuid::Uuid;

use crate::{
    db::{Db, Timestamp, new_id},
    on_pool,
};

pub struct ContactMessage {
    pub user_id: Option<Uuid>,
    pub name: String,
    pub email: String,
    pub subject: String,
    pub message: String,
}

#[instrument(skip_all)]
pub async fn insert_contact_message(db: &Db, message: &ContactMessage, now: Timestamp) -> sqlx::Result<Uuid> {
    let id = new_id();
    on_pool!(db, |pool| {
        sqlx::query(
            "insert into contact_messages (id, user_id, name, email, subject, message, created_at)
             values ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(id)
        .bind(message.user_id)
        .bind(&message.name)
        .bind(&message.email)
        .bind(&message.subject)
        .bind(&message.message)
        .bind(now)
        .execute(pool)
        .await
        .map(|done| done.rows_affected())
    })?;
    Ok(id)
}
