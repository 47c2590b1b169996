//! Database snapshots, read straight from the test database: what a refused call must leave
//! exactly as it was.

use std::collections::BTreeMap;

use sqlx::Row;
use store::db::Db;
use uuid::Uuid;

use super::TestApp;

/// Every table holding a task's state, with the column naming the task.
const TASK_TABLES: [(&str, &str); 13] = [
    ("tasks", "id"),
    ("offers", "task_id"),
    ("questions", "task_id"),
    ("payments", "task_id"),
    ("ledger_entries", "task_id"),
    ("cancellation_requests", "task_id"),
    ("disputes", "task_id"),
    ("messages", "task_id"),
    ("message_reads", "task_id"),
    ("reviews", "task_id"),
    ("price_increases", "task_id"),
    ("reschedules", "task_id"),
    ("task_photos", "task_id"),
];

/// Every row (every column, rendered as text) of the task `task_id` and of its offers,
/// questions, payments, ledger entries, cancellation requests, disputes, messages, reviews,
/// price increases, reschedules and photos,
/// plus the notifications, owed provider calls and handled webhook events of the whole database.
pub type Snapshot = BTreeMap<String, Vec<String>>;

pub async fn task_snapshot(app: &TestApp, task_id: &str) -> Snapshot {
    let task_id: Uuid = task_id.parse().expect("a task id");
    let mut snapshot = Snapshot::new();
    for (table, column) in TASK_TABLES {
        snapshot.insert(table.to_owned(), rows(&app.server.state.db, table, Some((column, task_id))).await);
    }
    for table in ["notifications", "provider_calls", "stripe_events"] {
        snapshot.insert(table.to_owned(), rows(&app.server.state.db, table, None).await);
    }
    assert!(!snapshot["tasks"].is_empty(), "no task {task_id}");
    snapshot
}

/// Asserts that `task_id`'s rows are still `before`, naming what changed.
pub async fn assert_task_unchanged(app: &TestApp, task_id: &str, before: &Snapshot, what: &str) {
    let after = task_snapshot(app, task_id).await;
    for (table, rows) in before {
        assert_eq!(&after[table], rows, "{what} changed {table}");
    }
}

/// Every row of `table`, each rendered as one string.
pub async fn snapshot_table(app: &TestApp, table: &str) -> Vec<String> {
    rows(&app.server.state.db, table, None).await
}

/// The rows of `table` (those whose `column` is `id`, when given), each rendered as one string.
async fn rows(db: &Db, table: &str, filter: Option<(&str, Uuid)>) -> Vec<String> {
    let condition = filter.map(|(column, _)| format!("where {column} = $1")).unwrap_or_default();
    let id = filter.map(|(_, id)| id);
    match db {
        Db::Postgres(pool) => {
            let sql = format!("select t::text from {table} t {condition} order by 1");
            let query = sqlx::query(sqlx::AssertSqlSafe(sql));
            let query = if let Some(id) = id { query.bind(id) } else { query };
            query.fetch_all(pool).await.unwrap().iter().map(|row| row.get::<String, _>(0)).collect()
        }
        Db::Sqlite(pool) => {
            let columns: Vec<String> =
                sqlx::query(sqlx::AssertSqlSafe(format!("select name from pragma_table_info('{table}') order by cid")))
                    .fetch_all(pool)
                    .await
                    .unwrap()
                    .iter()
                    .map(|row| format!("quote({})", row.get::<String, _>(0)))
                    .collect();
            assert!(!columns.is_empty(), "no table {table}");
            let sql = format!("select {} from {table} {condition} order by 1", columns.join(" || ',' || "));
            let query = sqlx::query(sqlx::AssertSqlSafe(sql));
            let query = if let Some(id) = id { query.bind(id) } else { query };
            query.fetch_all(pool).await.unwrap().iter().map(|row| row.get::<String, _>(0)).collect()
        }
    }
}
