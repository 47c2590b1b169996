use sqlx::FromRow;
use tracing::instrument;
use uuid::Uuid;

use model::states::OfferStatus;

use crate::{
    Position,
    db::{BeginWrite, Db, Timestamp, is_unique_violation, new_id},
    insert_notification,
    notifications::NotificationRow,
    on_pool,
};

#[derive(Clone, Debug, FromRow)]
pub struct OfferRow {
    pub id: Uuid,
    pub task_id: Uuid,
    pub tasker_id: Uuid,
    pub amount_cents: i64,
    pub message: String,
    #[sqlx(try_from = "String")]
    pub status: OfferStatus,
    pub created_at: Timestamp,
    pub updated_at: Timestamp,
    pub tasker_first_name: String,
    pub tasker_last_name: String,
    pub tasker_avatar_url: Option<String>,
    /// The message was removed by a moderator (its text is kept).
    pub message_removed: bool,
}

const OFFER_COLUMNS: &str = "o.id, o.task_id, o.tasker_id, o.amount_cents, o.message, o.status, o.created_at,
    o.updated_at, p.first_name as tasker_first_name, p.last_name as tasker_last_name,
    p.avatar_url as tasker_avatar_url, o.message_removed_at is not null as message_removed";

pub struct NewOffer<'a> {
    pub task_id: Uuid,
    pub tasker_id: Uuid,
    pub amount_cents: i64,
    pub message: &'a str,
    /// The poster's notice of it.
    pub notification: NotificationRow,
    pub created_at: Timestamp,
}

/// What a committed offer changed.
pub struct OfferCreated {
    pub offer_id: Uuid,
    pub offer_count: i64,
    pub notification: NotificationRow,
}

#[derive(Debug, thiserror::Error)]
pub enum CreateOfferError {
    #[error("the task is no longer open")]
    TaskNotOpen,
    #[error("this tasker already has a pending offer on the task")]
    AlreadyOffered,
    #[error("this tasker has made as many offers on the task as allowed")]
    TooManyOffers,
    #[error(transparent)]
    Database(#[from] sqlx::Error),
}

/// Creates a pending offer on an open task, bumps its offer count and
/// notifies the poster, in one transaction. The partial unique index on
/// pending offers makes a second concurrent offer by the same tasker fail;
/// a tasker who already made `max_per_tasker` offers on the task (withdrawn
/// ones count) cannot make another.
#[instrument(skip_all)]
pub async fn create_offer(
    db: &Db,
    offer: &NewOffer<'_>,
    max_per_tasker: i64,
) -> Result<OfferCreated, CreateOfferError> {
    let id = new_id();
    let notification = &offer.notification;
    let result: Result<Result<i64, CreateOfferError>, sqlx::Error> = on_pool!(db, |pool| {
        async {
            let mut tx = pool.begin_write().await?;
            let made: i64 = sqlx::query_scalar("select count(*) from offers where task_id = $1 and tasker_id = $2")
                .bind(offer.task_id)
                .bind(offer.tasker_id)
                .fetch_one(&mut *tx)
                .await?;
            if made >= max_per_tasker {
                return Ok(Err(CreateOfferError::TooManyOffers));
            }
            let count: Option<i64> = sqlx::query_scalar(
                "update tasks set offer_count = offer_count + 1 where id = $1 and status = 'open' returning offer_count",
            )
            .bind(offer.task_id)
            .fetch_optional(&mut *tx)
            .await?;
            let Some(count) = count else { return Ok(Err(CreateOfferError::TaskNotOpen)) };
            sqlx::query(
                "insert into offers (id, task_id, tasker_id, amount_cents, message, status, created_at, updated_at)
                 values ($1, $2, $3, $4, $5, 'pending', $6, $6)",
            )
            .bind(id)
            .bind(offer.task_id)
            .bind(offer.tasker_id)
            .bind(offer.amount_cents)
            .bind(offer.message)
            .bind(offer.created_at)
            .execute(&mut *tx)
            .await?;
            insert_notification!(tx, notification)?;
            tx.commit().await?;
            Ok(Ok(count))
        }
        .await
    });
    match result {
        Ok(Ok(offer_count)) => Ok(OfferCreated { offer_id: id, offer_count, notification: notification.clone() }),
        Ok(Err(refused)) => Err(refused),
        Err(error) if is_unique_violation(&error) => Err(CreateOfferError::AlreadyOffered),
        Err(error) => Err(error.into()),
    }
}

#[instrument(skip_all)]
pub async fn offer(db: &Db, id: Uuid) -> sqlx::Result<Option<OfferRow>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, OfferRow>(sqlx::AssertSqlSafe(format!(
            "select {OFFER_COLUMNS} from offers o join profiles p on p.id = o.tasker_id where o.id = $1"
        )))
        .bind(id)
        .fetch_optional(pool)
        .await
    })
}

/// A page of a task's offers (withdrawn ones included, marked so), oldest
/// first, after `after` when given; at most `limit`.
#[instrument(skip_all)]
pub async fn offers_page(db: &Db, task_id: Uuid, after: Option<Position>, limit: i64) -> sqlx::Result<Vec<OfferRow>> {
    let (after_time, after_id) = after.map_or((Timestamp(i64::MIN), Uuid::nil()), |at| (at.created_at, at.id));
    on_pool!(db, |pool| {
        sqlx::query_as::<_, OfferRow>(sqlx::AssertSqlSafe(format!(
            "select {OFFER_COLUMNS} from offers o join profiles p on p.id = o.tasker_id
             where o.task_id = $1 and (o.created_at > $2 or (o.created_at = $2 and o.id > $3))
             order by o.created_at, o.id
             limit $4"
        )))
        .bind(task_id)
        .bind(after_time)
        .bind(after_id)
        .bind(limit)
        .fetch_all(pool)
        .await
    })
}

/// My Tasks, "Tasks I'm Offering On": newest first.
#[instrument(skip_all)]
pub async fn offers_by_tasker(db: &Db, tasker_id: Uuid, limit: i64) -> sqlx::Result<Vec<OfferRow>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, OfferRow>(sqlx::AssertSqlSafe(format!(
            "select {OFFER_COLUMNS} from offers o join profiles p on p.id = o.tasker_id
             where o.tasker_id = $1
             order by o.created_at desc, o.id desc
             limit $2"
        )))
        .bind(tasker_id)
        .bind(limit)
        .fetch_all(pool)
        .await
    })
}

/// Changes a pending offer of this tasker on an open task, unless a checkout
/// of it is open (frozen); false otherwise.
#[instrument(skip_all)]
pub async fn update_pending_offer(
    db: &Db,
    id: Uuid,
    tasker_id: Uuid,
    amount_cents: i64,
    message: &str,
    now: Timestamp,
) -> sqlx::Result<bool> {
    let affected = on_pool!(db, |pool| {
        sqlx::query(
            "update offers set amount_cents = $3, message = $4, updated_at = $5
             where id = $1 and tasker_id = $2 and status = 'pending' and frozen_at is null
               and task_id in (select id from tasks where status = 'open')",
        )
        .bind(id)
        .bind(tasker_id)
        .bind(amount_cents)
        .bind(message)
        .bind(now)
        .execute(pool)
        .await
        .map(|done| done.rows_affected())
    })?;
    Ok(affected == 1)
}

/// Withdraws a pending offer on an open task and lowers the task's offer
/// count, in one transaction; the new count, or `None` when it was not pending
/// (or a checkout of it is open). The task row is locked first, like every
/// transition that touches a task and its offers, so this cannot deadlock
/// with a checkout.
#[instrument(skip_all)]
pub async fn withdraw_offer(db: &Db, id: Uuid, tasker_id: Uuid, now: Timestamp) -> sqlx::Result<Option<i64>> {
    on_pool!(db, |pool| {
        async {
            let mut tx = pool.begin_write().await?;
            let count: Option<i64> = sqlx::query_scalar(
                "update tasks set offer_count = offer_count - 1
                 where id = (select task_id from offers where id = $1) and status = 'open'
                 returning offer_count",
            )
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?;
            let Some(count) = count else { return Ok(None) };
            let withdrawn = sqlx::query(
                "update offers set status = 'withdrawn', updated_at = $3
                 where id = $1 and tasker_id = $2 and status = 'pending' and frozen_at is null",
            )
            .bind(id)
            .bind(tasker_id)
            .bind(now)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if withdrawn == 0 {
                return Ok(None);
            }
            tx.commit().await?;
            Ok(Some(count))
        }
        .await
    })
}
