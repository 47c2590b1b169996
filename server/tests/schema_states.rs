//! The states the code knows (`model/src/states.rs`) are the values the schema allows: each
//! enum's values equal its column's CHECK constraint, on both backends. A value added to one side
//! only would otherwise fail at the first write (the constraint) or the first read (the enum).

use model::{
    moderation::{AuditAction, AuditTarget, ReportReason, ReportStatus},
    states::{
        CancellationAttribution, CancellationStatus, DisputeOutcome, DisputeReason, DisputeStatus, EmailLineStatus,
        LedgerKind, NotificationKind, OfferStatus, PaymentPurpose, PaymentStatus, PriceIncreaseStatus,
        ProviderCallKind, ProviderCallStatus, PushStatus, RescheduleStatus, TaskStatus,
    },
};
use store::db::Db;

use crate::common;

use std::{
    collections::BTreeSet,
    sync::{Arc, Mutex},
};

use common::{Backend, TestApp};

/// Each enum's values, as `(table, column, values)`.
fn known_states() -> Vec<(&'static str, &'static str, BTreeSet<String>)> {
    fn texts<T: Copy>(all: &[T], text: fn(T) -> &'static str) -> BTreeSet<String> {
        all.iter().map(|value| text(*value).to_owned()).collect()
    }
    vec![
        ("tasks", "status", texts(TaskStatus::ALL, TaskStatus::as_str)),
        ("offers", "status", texts(OfferStatus::ALL, OfferStatus::as_str)),
        ("payments", "status", texts(PaymentStatus::ALL, PaymentStatus::as_str)),
        ("payments", "purpose", texts(PaymentPurpose::ALL, PaymentPurpose::as_str)),
        ("disputes", "status", texts(DisputeStatus::ALL, DisputeStatus::as_str)),
        ("cancellation_requests", "status", texts(CancellationStatus::ALL, CancellationStatus::as_str)),
        ("notifications", "type", texts(NotificationKind::ALL, NotificationKind::as_str)),
        ("price_increases", "status", texts(PriceIncreaseStatus::ALL, PriceIncreaseStatus::as_str)),
        ("reschedules", "status", texts(RescheduleStatus::ALL, RescheduleStatus::as_str)),
        ("provider_calls", "status", texts(ProviderCallStatus::ALL, ProviderCallStatus::as_str)),
        ("provider_calls", "kind", texts(ProviderCallKind::ALL, ProviderCallKind::as_str)),
        ("ledger_entries", "kind", texts(LedgerKind::ALL, LedgerKind::as_str)),
        ("push_deliveries", "status", texts(PushStatus::ALL, PushStatus::as_str)),
        ("email_deliveries", "status", texts(EmailLineStatus::ALL, EmailLineStatus::as_str)),
        ("disputes", "reason", texts(DisputeReason::ALL, DisputeReason::as_str)),
        ("disputes", "outcome", texts(DisputeOutcome::ALL, DisputeOutcome::as_str)),
        ("tasks", "cancellation_attributed_to", texts(CancellationAttribution::ALL, CancellationAttribution::as_str)),
        ("reports", "reason", texts(ReportReason::ALL, ReportReason::as_str)),
        ("reports", "status", texts(ReportStatus::ALL, ReportStatus::as_str)),
        ("audit_log", "action", texts(AuditAction::ALL, AuditAction::as_str)),
        ("audit_log", "target_type", texts(AuditTarget::ALL, AuditTarget::as_str)),
    ]
}

/// The quoted literals in a piece of SQL: `('open', 'resolved')` → {open, resolved}.
fn quoted(sql: &str) -> BTreeSet<String> {
    sql.split('\'').skip(1).step_by(2).map(str::to_owned).collect()
}

/// The values SQLite's `check (column in (…))` allows, read from the table's own SQL.
async fn sqlite_allowed(pool: &sqlx::SqlitePool, table: &str, column: &str) -> BTreeSet<String> {
    let sql: String = sqlx::query_scalar("select sql from sqlite_master where type = 'table' and name = $1")
        .bind(table)
        .fetch_one(pool)
        .await
        .unwrap();
    let sql = sql.split_whitespace().collect::<Vec<_>>().join(" ");
    let check = format!("check ({column} in (");
    let start = sql.find(&check).unwrap_or_else(|| panic!("{table} has no `{check}`: {sql}")) + check.len();
    let end = start + sql[start..].find(')').expect("the list closes");
    quoted(&sql[start..end])
}

/// The values PostgreSQL's CHECK constraint on the column allows (`status = ANY (ARRAY['open'::text, …])`).
async fn postgres_allowed(pool: &sqlx::PgPool, table: &str, column: &str) -> BTreeSet<String> {
    let definitions: Vec<String> = sqlx::query_scalar(
        "select pg_get_constraintdef(c.oid) from pg_constraint c join pg_class t on t.oid = c.conrelid
         where t.relname = $1 and c.contype = 'c' and pg_get_constraintdef(c.oid) like '%(' || $2 || ' = ANY%'",
    )
    .bind(table)
    .bind(column)
    .fetch_all(pool)
    .await
    .unwrap();
    assert_eq!(definitions.len(), 1, "one CHECK on {table}.{column}: {definitions:?}");
    quoted(&definitions[0])
}

async fn check_states_match_the_schema(backend: Backend) {
    let mismatches = Arc::new(Mutex::new(None));
    let found = mismatches.clone();
    common::run(
        backend,
        |_| {},
        |app: TestApp| async move {
            let mut differ = Vec::new();
            for (table, column, known) in known_states() {
                let allowed = match &app.server.state.db {
                    Db::Sqlite(pool) => sqlite_allowed(pool, table, column).await,
                    Db::Postgres(pool) => postgres_allowed(pool, table, column).await,
                };
                assert!(allowed.len() >= 2, "{table}.{column}: read {allowed:?}");
                if allowed != known {
                    differ.push(format!("{table}.{column}: the schema allows {allowed:?}, the code knows {known:?}"));
                }
            }
            *found.lock().unwrap() = Some(differ);
            app
        },
    )
    .await;
    let differ = mismatches.lock().unwrap().take().expect("checked");
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_state_enum_matches_its_check_constraint_on_sqlite() {
    check_states_match_the_schema(Backend::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(taskhub_skip_postgres, ignore = "TASKHUB_SKIP_POSTGRES is set")]
async fn every_state_enum_matches_its_check_constraint_on_postgres() {
    check_states_match_the_schema(Backend::Postgres).await;
}
