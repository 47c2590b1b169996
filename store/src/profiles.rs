use sqlx::FromRow;
use tracing::instrument;
use uuid::Uuid;

use crate::{
    db::{Db, Timestamp},
    on_pool,
};

#[derive(Clone, Debug, FromRow)]
pub struct ProfileRow {
    pub id: Uuid,
    pub email: String,
    pub email_verified: bool,
    pub first_name: String,
    pub last_name: String,
    pub display_name: Option<String>,
    pub company_name: Option<String>,
    pub phone: Option<String>,
    pub location: Option<String>,
    pub bio: Option<String>,
    pub avatar_url: Option<String>,
    pub account_type: String,
    pub is_tasker: bool,
    pub skills: String,
    pub created_at: Timestamp,
    pub phone_verified_at: Option<Timestamp>,
    pub identity_verified_at: Option<Timestamp>,
}

#[instrument(skip_all)]
pub async fn profile(db: &Db, id: Uuid) -> sqlx::Result<Option<ProfileRow>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, ProfileRow>(
            "select p.id, u.email, u.email_verified, p.first_name, p.last_name, p.display_name, p.company_name,
            p.phone, p.location, p.bio, p.avatar_url, p.account_type, p.is_tasker, p.skills, u.created_at,
            p.phone_verified_at, p.identity_verified_at
     from profiles p join users u on u.id = p.id
             where p.id = $1",
        )
        .bind(id)
        .fetch_optional(pool)
        .await
    })
}

/// One settings edit. `Some(None)` clears a field, `None` leaves it alone.
#[derive(Debug, Default)]
pub struct ProfileChanges {
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub display_name: Option<Option<String>>,
    pub phone: Option<Option<String>>,
    pub location: Option<Option<String>>,
    pub bio: Option<Option<String>>,
    pub skills_json: Option<String>,
}

/// Applies only the fields present, in one statement.
#[instrument(skip_all)]
pub async fn update_profile(db: &Db, id: Uuid, changes: &ProfileChanges, now: Timestamp) -> sqlx::Result<()> {
    on_pool!(db, |pool| {
        sqlx::query(
            "update profiles set
                first_name   = case when $2 then $3 else first_name end,
                last_name    = case when $4 then $5 else last_name end,
                display_name = case when $6 then $7 else display_name end,
                phone        = case when $8 then $9 else phone end,
                phone_verified_at = case when $8 and phone is distinct from $9 then null else phone_verified_at end,
                location     = case when $10 then $11 else location end,
                bio          = case when $12 then $13 else bio end,
                skills       = case when $14 then $15 else skills end,
                updated_at   = $16
             where id = $1",
        )
        .bind(id)
        .bind(changes.first_name.is_some())
        .bind(changes.first_name.clone())
        .bind(changes.last_name.is_some())
        .bind(changes.last_name.clone())
        .bind(changes.display_name.is_some())
        .bind(changes.display_name.clone().flatten())
        .bind(changes.phone.is_some())
        .bind(changes.phone.clone().flatten())
        .bind(changes.location.is_some())
        .bind(changes.location.clone().flatten())
        .bind(changes.bio.is_some())
        .bind(changes.bio.clone().flatten())
        .bind(changes.skills_json.is_some())
        .bind(changes.skills_json.clone())
        .bind(now)
        .execute(pool)
        .await
        .map(|done| done.rows_affected())
    })?;
    Ok(())
}

#[instrument(skip_all)]
pub async fn set_avatar_url(db: &Db, id: Uuid, avatar_url: &str, now: Timestamp) -> sqlx::Result<()> {
    on_pool!(db, |pool| {
        sqlx::query("update profiles set avatar_url = $1, updated_at = $2 where id = $3")
            .bind(avatar_url)
            .bind(now)
            .bind(id)
            .execute(pool)
            .await
            .map(|done| done.rows_affected())
    })?;
    Ok(())
}

#[instrument(skip_all)]
pub async fn become_tasker(db: &Db, id: Uuid, now: Timestamp) -> sqlx::Result<()> {
    on_pool!(db, |pool| {
        sqlx::query("update profiles set is_tasker = true, updated_at = $1 where id = $2")
            .bind(now)
            .bind(id)
            .execute(pool)
            .await
            .map(|done| done.rows_affected())
    })?;
    Ok(())
}

/// Figures shown on a profile, computed from real activity.
#[derive(Clone, Debug, Default)]
pub struct ProfileStats {
    pub rating: Option<f64>,
    pub review_count: i64,
    pub tasks_completed: i64,
}

/// Tasks completed as the assigned tasker, and the average and number of
/// reviews about this user that are visible (both sides in, or 14 days passed).
#[instrument(skip_all)]
pub async fn profile_stats(db: &Db, id: Uuid) -> sqlx::Result<ProfileStats> {
    let tasks_completed = crate::tasks::completed_count(db, id).await?;
    let (rating, review_count) = crate::reviews::rating_of(db, id, crate::db::Timestamp::now()).await?;
    Ok(ProfileStats { rating, review_count, tasks_completed })
}
