//! After the run, the database is the judge: every acknowledged write exists exactly once,
//! every notification reached its user (and by which path), no payment is stuck, the escrow
//! ledger balances, no task was assigned twice, and no poster stayed stale for longer than the
//! poll interval.

use std::{collections::HashMap, time::Duration};

use server::{db::Db, store::ledger};
use sqlx::PgPool;

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
    for user in &users {
        let ids: Vec<String> = sqlx::query_scalar("select id::text from notifications where user_id = $1::uuid")
            .bind(user)
            .fetch_all(&pool)
            .await?;
        for id in ids {
            rows += 1;
            match seen.get(user).and_then(|paths| paths.get(&id)) {
                Some(path) => *by_path.entry(*path).or_default() += 1,
                None => missed += 1,
            }
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
    let db = Db::connect_with(database_url, 2).await?;
    let mismatches = ledger::audit(&db).await?;
    let escrow = ledger::escrow_check(&db).await?;
    let double_assigned: i64 = sqlx::query_scalar(
        "select count(*) from (select task_id from offers where status = 'accepted' group by task_id having count(*) > 1) t",
    )
    .fetch_one(&pool)
    .await?;
    println!(
        "ledger: {} payments whose rows do not match, escrow {} (ledger {} ¢, held {} ¢); tasks assigned twice: {double_assigned}",
        mismatches.len(),
        if escrow.balances() { "balances" } else { "DOES NOT BALANCE" },
        escrow.ledger_balance_cents,
        escrow.held_payments_cents
    );
    if !mismatches.is_empty() || !escrow.balances() || double_assigned > 0 {
        fail(format!("ledger mismatches {mismatches:?}, escrow {escrow:?}, double assignments {double_assigned}"));
    }

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
