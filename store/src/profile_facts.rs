//! The facts a public profile states about someone, read from what they did:
//! when they were last active, how they answer the people who write to them,
//! and whether a payment method backs them.

use std::collections::HashMap;

use tracing::instrument;
use uuid::Uuid;

use crate::{
    db::{Db, Timestamp},
    on_pool, reviews,
};

/// How many of the latest conversations the response figures look at.
pub const RECENT_CONVERSATIONS: i64 = 200;

/// The latest thing the user did that others see: an offer, a message, a task posted, a question
/// asked (never a sign-in or a token refresh).
#[instrument(skip_all)]
pub async fn last_active(db: &Db, user_id: Uuid) -> sqlx::Result<Option<Timestamp>> {
    on_pool!(db, |pool| {
        sqlx::query_scalar::<_, Option<Timestamp>>(
            "select max(at) from (
                 select max(created_at) as at from offers where tasker_id = $1
                 union all select max(created_at) from messages where sender_id = $1
                 union all select max(created_at) from tasks where poster_id = $1
                 union all select max(created_at) from questions where asker_id = $1
             ) activity",
        )
        .bind(user_id)
        .fetch_one(pool)
        .await
    })
}

/// Someone wrote to the user, and when (if ever) the user answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct Conversation {
    pub received_at: Timestamp,
    pub answered_at: Option<Timestamp>,
}

/// The latest conversations opened with the user: per task thread, the first
/// message they received and their first message after it (after in time, then in id: a
/// message of theirs sent in the same millisecond before it is no answer); per question on a
/// task they posted, when it was asked and answered.
#[instrument(skip_all)]
pub async fn conversations_with(db: &Db, user_id: Uuid) -> sqlx::Result<Vec<Conversation>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, Conversation>(
            "select received_at, answered_at from (
                 select opened.received_at,
                        (select min(reply.created_at) from messages reply
                         where reply.task_id = opened.task_id and reply.sender_id = $1
                           and (reply.created_at, reply.id) > (opened.received_at, opened.first_id)) as answered_at
                 from (select m.task_id, m.created_at as received_at, m.id as first_id from messages m
                       where m.recipient_id = $1
                         and m.id = (select f.id from messages f where f.recipient_id = $1 and f.task_id = m.task_id
                                     order by f.created_at, f.id limit 1)) opened
                 union all
                 select q.created_at as received_at, q.answered_at from questions q
                 join tasks t on t.id = q.task_id
                 where t.poster_id = $1 and q.asker_id <> $1
             ) conversations
             order by received_at desc
             limit $2",
        )
        .bind(user_id)
        .bind(RECENT_CONVERSATIONS)
        .fetch_all(pool)
        .await
    })
}

/// A payment method backs the user: a payout account that can receive
/// transfers, or a task they paid for.
#[instrument(skip_all)]
pub async fn has_payment_method(db: &Db, user_id: Uuid) -> sqlx::Result<bool> {
    on_pool!(db, |pool| {
        sqlx::query_scalar::<_, i64>(
            "select (select count(*) from payout_accounts where user_id = $1 and ready = true)
                  + (select count(*) from payments where poster_id = $1 and held_at is not null)",
        )
        .bind(user_id)
        .fetch_one(pool)
        .await
        .map(|count| count > 0)
    })
}

/// What a person card shows beside the name, for everyone a list shows.
#[derive(Debug, Default)]
pub struct CardFacts {
    /// The average of the visible reviews; absent while there are none.
    pub ratings: HashMap<Uuid, f64>,
    /// `(identity, phone)` verified.
    pub badges: HashMap<Uuid, (bool, bool)>,
}

/// The ratings and verification badges of `user_ids`, in one query for the whole list (every
/// browse page reads it: a second round trip cost more than either query). Read from `profiles`,
/// which every user has from sign-up to deletion.
#[instrument(skip_all)]
pub async fn card_facts(db: &Db, user_ids: impl IntoIterator<Item = Uuid>) -> sqlx::Result<CardFacts> {
    let mut ids: Vec<Uuid> = user_ids.into_iter().collect();
    ids.sort_unstable();
    ids.dedup();
    let Some((first, rest)) = ids.split_first() else {
        return Ok(CardFacts::default());
    };
    // $1 is the first id and $2 the reviews' visibility cutoff (`reviews::VISIBLE`); the other ids follow.
    let placeholders: Vec<String> =
        std::iter::once("$1".to_owned()).chain((0..rest.len()).map(|n| format!("${}", n + 3))).collect();
    let sql = format!(
        "select p.id, p.identity_verified_at is not null, p.phone_verified_at is not null,
                (select cast(avg(r.rating) as double precision) from reviews r
                 where r.reviewee_id = p.id and {})
         from profiles p where p.id in ({})",
        reviews::VISIBLE,
        placeholders.join(", ")
    );
    let rows = on_pool!(db, |pool| {
        let mut query = sqlx::query_as::<_, (Uuid, bool, bool, Option<f64>)>(sqlx::AssertSqlSafe(sql.clone()))
            .bind(*first)
            .bind(Timestamp::now().minus(reviews::HIDDEN_FOR));
        for id in rest {
            query = query.bind(*id);
        }
        query.fetch_all(pool).await
    })?;
    let mut facts = CardFacts::default();
    for (id, identity, phone, rating) in rows {
        facts.badges.insert(id, (identity, phone));
        if let Some(rating) = rating {
            facts.ratings.insert(id, rating);
        }
    }
    Ok(facts)
}
