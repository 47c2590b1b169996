//! After the run, the database is the judge: every acknowledged write exists exactly once,
//! every notification reached its user (and by which path), no payment is stuck, the escrow
//! ledger balances, no task was assigned twice, and no poster stayed stale for longer than the
//! poll interval.

use std::{collections::HashMap, sync::atomic::Ordering::Relaxed, time::Duration};

use sqlx::PgPool;
use store::{db::Db, ledger};

use crate::world::{Path, World, WriteKind};

/// Allowed on top of the poll interval before a poster counts as stale: a REST round trip under
/// load and a reconnect through nginx.
const STALENESS_ALLOWANCE: Duration = Duration::from_secs(3);

pub async fn run(world: &World, database_url: &str) -> anyhow::Result<bool> {
    let pool = PgPool::connect(database_url).await?;
    let like = format!("Soak {} %", world.run);
    let mut passed = true;
    let mut fail = |what: String| {
        println!("AUDIT FAILED: {what}");
        passed = false;
    };

    // Writes: acknowledged → exactly once; not acknowledged → at most once.
    let mut counts: HashMap<(WriteKind, String), i64> = HashMap::new();
    for (kind, sql) in [
        (WriteKind::Task, "select title, count(*) from tasks where title like $1 group by title"),
        (WriteKind::Offer, "select message, count(*) from offers where message like $1 group by message"),
        (WriteKind::Message, "select body, count(*) from messages where body like $1 group by body"),
    ] {
        for (key, count) in sqlx::query_as::<_, (String, i64)>(sql).bind(&like).fetch_all(&pool).await? {
            counts.insert((kind, key), count);
        }
    }
    let writes = world.writes.lock().unwrap().clone();
    let (mut lost, mut duplicated, mut unacknowledged_applied, mut unacknowledged) = (0, 0, 0, 0);
    for (kind, key, acknowledged) in &writes {
        let count = counts.remove(&(*kind, key.clone())).unwrap_or(0);
        if count > 1 {
            duplicated += 1;
        }
        if *acknowledged && count == 0 {
            lost += 1;
        }
        if !acknowledged {
            unacknowledged += 1;
            unacknowledged_applied += usize::from(count == 1);
        }
    }
    let phantom = counts.len();
    println!(
        "writes: {} ({} acknowledged); lost: {lost}, duplicated: {duplicated}; not acknowledged: {unacknowledged} \
         (of which applied: {unacknowledged_applied}); rows nobody wrote: {phantom}",
        writes.len(),
        writes.len() - unacknowledged
    );
    if lost + duplicated + phantom > 0 {
        fail(format!("{lost} lost, {duplicated} duplicated, {phantom} unexplained rows"));
    }

    // Notifications: each row reached its user live, by recovery, by refetch or by polling.
    let seen = world.notifications.lock().unwrap().clone();
    let users: Vec<String> = sqlx::query_scalar("select id::text from users where email like $1")
        .bind(format!("soak-{}-%", world.run))
        .fetch_all(&pool)
        .await?;
    let mut by_path: HashMap<Path, usize> = HashMap::new();
    let (mut rows, mut missed) = (0, 0);
    // (seconds into the run it was made, its type, its user, its id) of each notification that
    // never arrived
    let mut missed_at: Vec<(f64, String, String, String)> = Vec::new();
    for user in &users {
        let notifications: Vec<(String, String, i64)> =
            sqlx::query_as("select id::text, type, created_at from notifications where user_id = $1::uuid")
                .bind(user)
                .fetch_all(&pool)
                .await?;
        for (id, kind, created_at) in notifications {
            rows += 1;
            match seen.get(user).and_then(|paths| paths.get(&id)) {
                Some(path) => *by_path.entry(*path).or_default() += 1,
                None => {
                    missed += 1;
                    let at = (created_at - world.metrics.start_epoch_ms) as f64 / 1000.0;
                    missed_at.push((at, kind, user.clone(), id));
                }
            }
        }
    }
    missed_at.sort_by(|a, b| a.0.total_cmp(&b.0));
    for (at, kind, user, id) in missed_at.iter().take(20) {
        println!("  never reached its user: a {kind} notification made at {at:.1} s ({id} for user {user})");
    }
    // What the first few users' sockets saw of their own topic around it.
    for (at, _, user, _) in missed_at.iter().take(3) {
        println!("  user {user}'s socket, on their own topic, from 5 s before to 5 s after:");
        for line in world.metrics.user_topic_log(user, at - 5.0, at + 5.0) {
            println!("    {line}");
        }
    }
    let count = |path| by_path.get(&path).copied().unwrap_or(0);
    println!(
        "notifications: {rows} rows; reached live {}, by recovery {}, by refetch {}, by polling while degraded {}; lost: {missed}",
        count(Path::Live),
        count(Path::Recovery),
        count(Path::Refetch),
        count(Path::Poll)
    );
    if missed > 0 {
        fail(format!("{missed} notifications never reached their user"));
    }

    // Payments: nothing pending past its next check, every charged checkout ended up in escrow.
    let now_ms = time::OffsetDateTime::now_utc().unix_timestamp() * 1000;
    let overdue: i64 = sqlx::query_scalar(
        "select count(*) from payments where status in ('pending', 'processing') and next_check_at < $1",
    )
    .bind(now_ms - 30_000)
    .fetch_one(&pool)
    .await?;
    let mut not_held = 0;
    let paid_tasks = world.paid_tasks.lock().unwrap().clone();
    for task in paid_tasks {
        let kept: i64 = sqlx::query_scalar(
            "select count(*) from payments where task_id = $1::uuid and status in ('held', 'released')",
        )
        .bind(&task)
        .fetch_one(&pool)
        .await?;
        not_held += usize::from(kept != 1);
    }
    println!(
        "payments: {overdue} pending/processing past their next check; {not_held} charged checkouts not in escrow"
    );
    if overdue > 0 || not_held > 0 {
        fail(format!("{overdue} stuck payments, {not_held} charged checkouts not held"));
    }

    // Escrow ledger and assignments.
    let db = Db::connect_with(database_url, 2, std::time::Duration::from_secs(10)).await?;
    let mismatches = ledger::audit(&db).await?;
    let escrow = ledger::escrow_check(&db).await?;
    let double_assigned: i64 = sqlx::query_scalar(
        "select count(*) from (select task_id from offers where status = 'accepted' group by task_id having count(*) > 1) t",
    )
    .fetch_one(&pool)
    .await?;
    println!(
        "ledger: {} payments whose ledger rows, provider calls or sandbox records do not match, escrow {} (ledger {} ¢, held {} ¢); tasks assigned twice: {double_assigned}",
        mismatches.len(),
        if escrow.balances() { "balances" } else { "DOES NOT BALANCE" },
        escrow.ledger_balance_cents,
        escrow.held_payments_cents
    );
    if !mismatches.is_empty() || !escrow.balances() || double_assigned > 0 {
        fail(format!("ledger mismatches {mismatches:?}, escrow {escrow:?}, double assignments {double_assigned}"));
    }

    // Outboxes: work owed after a commit was done, through node kills and database restarts.
    outboxes(world, &pool, now_ms, &mut fail).await?;

    // Staleness: from the tasker's 201 to the poster knowing of the offer.
    let acked = world.offers_acked.lock().unwrap().clone();
    let known = world.offers_known.lock().unwrap().clone();
    let mut delays: Vec<Duration> = Vec::new();
    let mut known_by: HashMap<Path, usize> = HashMap::new();
    for (offer, acked_at) in &acked {
        if let Some((known_at, path)) = known.get(offer) {
            delays.push(known_at.saturating_sub(*acked_at));
            *known_by.entry(*path).or_default() += 1;
        }
    }
    delays.sort();
    let worst = delays.last().copied().unwrap_or_default();
    let limit = world.poll_interval + STALENESS_ALLOWANCE;
    let stale = delays.iter().filter(|d| **d > limit).count();
    for (offer, acked_at) in &acked {
        if let Some((known_at, path)) = known.get(offer)
            && known_at.saturating_sub(*acked_at) > limit
        {
            println!(
                "  stale: offer {offer} acknowledged at {:.1} s, its poster knew at {:.1} s ({path:?})",
                acked_at.as_secs_f64(),
                known_at.as_secs_f64()
            );
        }
    }
    println!(
        "posters learning of offers: {} of {} offers; live {}, recovery {}, refetch {}, polling {}; \
         longest {:.1} s (limit: poll interval {:.0} s + {:.0} s); stale longer: {stale}",
        delays.len(),
        acked.len(),
        known_by.get(&Path::Live).unwrap_or(&0),
        known_by.get(&Path::Recovery).unwrap_or(&0),
        known_by.get(&Path::Refetch).unwrap_or(&0),
        known_by.get(&Path::Poll).unwrap_or(&0),
        worst.as_secs_f64(),
        world.poll_interval.as_secs_f64(),
        STALENESS_ALLOWANCE.as_secs_f64()
    );
    if stale > 0 {
        fail(format!("{stale} offers reached their poster later than the poll interval allows"));
    }
    println!("lost: {}, duplicated: {duplicated}", lost + missed);
    Ok(passed)
}

/// How late outbox work may be before it counts as stalled: several sweep and poll periods.
const OUTBOX_GRACE_MS: i64 = 30_000;

/// The outboxes written in the same transaction as what owes them: alert matching
/// (`task_alert_jobs`), payment provider calls, and the email digests of unread notifications.
async fn outboxes(world: &World, pool: &PgPool, now_ms: i64, fail: &mut impl FnMut(String)) -> anyhow::Result<()> {
    let like = format!("Soak {} %", world.run);
    let jobs_left: i64 = sqlx::query_scalar(
        "select count(*) from task_alert_jobs j join tasks t on t.id = j.task_id where t.title like $1",
    )
    .bind(&like)
    .fetch_one(pool)
    .await?;
    let alerting = world.alerting_taskers.load(Relaxed) as i64;
    // Per soak task posted once every alert existed: how many alerting taskers it matched (all
    // of them, or none when the task was taken before its turn; never some). An alert's
    // created_at is stamped before its commit, so tasks within a margin after it are left out.
    let matches: Vec<i64> = sqlx::query_scalar(
        "select count(distinct a.user_id) from tasks t
         left join task_alert_matches m on m.task_id = t.id
         left join task_alerts a on a.id = m.alert_id and a.name like $1
         where t.title like $1
           and t.created_at > (select coalesce(max(created_at), 0) + 5000 from task_alerts where name like $1)
         group by t.id",
    )
    .bind(&like)
    .fetch_all(pool)
    .await?;
    let matched = matches.iter().filter(|n| **n == alerting && alerting > 0).count();
    let partial = matches.iter().filter(|n| **n > 0 && **n != alerting).count();
    println!(
        "alert matching: {} soak tasks posted after the alerts, {matched} matched to all {alerting} alerting taskers, {partial} to only some; \
         jobs left: {jobs_left}",
        matches.len()
    );
    if jobs_left > 0 || partial > 0 {
        fail(format!("alert matching: {jobs_left} jobs left, {partial} tasks matched to only some alerts"));
    }

    // A transfer held by an operator or waiting for its tasker's identity check is not owed yet:
    // counted apart, never as overdue (the soak's taskers pass the check when they sign up).
    let held = format!(
        "({} or {})",
        store::provider_calls::transfer_on_hold_of("c", "$3"),
        store::provider_calls::transfer_awaiting_identity_of("c", "true")
    );
    let calls: Vec<(String, i64, i64, i64)> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select c.status, count(*),
                count(*) filter (where c.status = 'pending' and c.next_attempt_at < $2 and not {held}),
                count(*) filter (where c.status = 'pending' and {held})
         from provider_calls c join payments p on p.id = c.payment_id join tasks t on t.id = p.task_id
         where t.title like $1 group by c.status order by c.status"
    )))
    .bind(&like)
    .bind(now_ms - OUTBOX_GRACE_MS)
    .bind(now_ms)
    .fetch_all(pool)
    .await?;
    let overdue_calls: i64 = calls.iter().map(|(_, _, overdue, _)| overdue).sum();
    let held_calls: i64 = calls.iter().map(|(.., held)| held).sum();
    let parked_calls: i64 = calls.iter().filter(|(status, ..)| status == "parked").map(|(_, n, ..)| n).sum();
    let by_status: Vec<String> = calls.iter().map(|(status, n, ..)| format!("{status} {n}")).collect();
    println!(
        "provider calls: {} ({}); held (operator or identity check): {held_calls}; overdue by more than {} s: {overdue_calls}",
        calls.iter().map(|(_, n, ..)| n).sum::<i64>(),
        if by_status.is_empty() { "none".to_owned() } else { by_status.join(", ") },
        OUTBOX_GRACE_MS / 1000
    );
    if overdue_calls > 0 || parked_calls > 0 {
        fail(format!("provider calls: {overdue_calls} overdue, {parked_calls} parked"));
    }

    // A user is owed a digest once a line is older than EMAIL_DELAY and their last digest is
    // older than an hour (the worker's own rule, with the grace on top).
    let email_delay_ms = world.email_delay.as_millis() as i64;
    let (owed, mailed, lines_sent): (i64, i64, i64) = sqlx::query_as(
        "select
           (select count(distinct e.user_id) from email_deliveries e join users u on u.id = e.user_id
             left join email_digests g on g.user_id = e.user_id
             where u.email like $1 and e.status = 'pending' and e.created_at < $2 and e.next_attempt_at < $3
               and (g.last_sent_at is null or g.last_sent_at < $4)),
           (select count(*) from email_digests g join users u on u.id = g.user_id
             where u.email like $1 and g.last_sent_at is not null),
           (select count(*) from email_deliveries e join users u on u.id = e.user_id
             where u.email like $1 and e.status = 'sent')",
    )
    .bind(format!("soak-{}-%", world.run))
    .bind(now_ms - email_delay_ms - OUTBOX_GRACE_MS)
    .bind(now_ms - OUTBOX_GRACE_MS)
    .bind(now_ms - 3_600_000 - OUTBOX_GRACE_MS)
    .fetch_one(pool)
    .await?;
    println!(
        "email digests: {mailed} users mailed ({lines_sent} notification lines); users owed a digest for more than {} s: {owed}",
        OUTBOX_GRACE_MS / 1000
    );
    if owed > 0 {
        fail(format!("{owed} users owed an email digest"));
    }
    Ok(())
}
