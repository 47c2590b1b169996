//! The two schemas (`migrations/sqlite`, `migrations/postgres`) are written by hand, one per
//! backend, for one SQL text in the store: migrate both and compare their tables, columns
//! (with nullability) and indexes (with uniqueness and columns), so one cannot drift from the
//! other unnoticed. Column types are not compared: they differ by design (`blob` ids and integer
//! milliseconds in SQLite, `uuid` and `bigint` in PostgreSQL; see `store/src/db.rs`).

use store::db::Db;

use crate::common;

use std::{
    collections::BTreeMap,
    sync::{Arc, Mutex},
};

use common::{Backend, TestApp};
use sqlx::Row;

/// Differences between the schemas that are meant to be, each with its reason (each must still
/// be there: one that is gone is taken off this list).
const INTENDED_DIFFERENCES: &[(&str, &str)] = &[
    ("tasks.search_vector", "PostgreSQL's full-text search keeps a generated tsvector in the row"),
    ("tasks index tasks_open_search_vector", "the GIN index over that tsvector"),
    (
        "tasks index tasks_open_location",
        "a trigram (pg_trgm) index for the location filter's `like '%…%'`; SQLite has no index that \
         serves it, and its embedded scale does not need one",
    ),
    (
        "tasks index tasks_open_category_rowid",
        "SQLite's Best match in a category reads a category's open tasks in the full-text index's \
         rowid order; PostgreSQL's window walks the category's newest tasks instead",
    ),
    ("tasks_fts", "SQLite's full-text search is an FTS5 table (the Porter stemmer) over tasks"),
    ("tasks_fts_config", "one of FTS5's own tables behind tasks_fts"),
    ("tasks_fts_data", "one of FTS5's own tables behind tasks_fts"),
    ("tasks_fts_docsize", "one of FTS5's own tables behind tasks_fts"),
    ("tasks_fts_idx", "one of FTS5's own tables behind tasks_fts"),
];

#[derive(Debug, Default, PartialEq, Eq)]
struct Table {
    /// Column → nullable.
    columns: BTreeMap<String, bool>,
    /// Index created by a migration (not one behind a primary key or unique constraint) → (unique, columns).
    indexes: BTreeMap<String, (bool, Vec<String>)>,
}

type Schema = BTreeMap<String, Table>;

const EXPRESSION: &str = "<expression>";

async fn sqlite_schema(pool: &sqlx::SqlitePool) -> Schema {
    let mut schema = Schema::new();
    let tables: Vec<String> = sqlx::query_scalar(
        "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name != '_sqlx_migrations'",
    )
    .fetch_all(pool)
    .await
    .unwrap();
    for name in tables {
        let mut table = Table::default();
        for column in sqlx::query(r#"select name, "notnull", pk from pragma_table_info($1)"#)
            .bind(&name)
            .fetch_all(pool)
            .await
            .unwrap()
        {
            // SQLite lets a non-integer primary key hold NULL (a legacy quirk); the store never
            // writes one, and PostgreSQL's primary keys are NOT NULL: count them as NOT NULL here.
            let not_null = column.get::<i64, _>("notnull") == 1 || column.get::<i64, _>("pk") > 0;
            table.columns.insert(column.get("name"), !not_null);
        }
        for index in sqlx::query(r#"select name, "unique", origin from pragma_index_list($1)"#)
            .bind(&name)
            .fetch_all(pool)
            .await
            .unwrap()
        {
            // 'c': created by `create index`; 'pk' and 'u' back constraints, compared as columns.
            if index.get::<String, _>("origin") != "c" {
                continue;
            }
            let index_name: String = index.get("name");
            let columns: Vec<Option<String>> =
                sqlx::query_scalar("select name from pragma_index_info($1) order by seqno")
                    .bind(&index_name)
                    .fetch_all(pool)
                    .await
                    .unwrap();
            let columns = columns.into_iter().map(|column| column.unwrap_or_else(|| EXPRESSION.into())).collect();
            table.indexes.insert(index_name, (index.get::<i64, _>("unique") == 1, columns));
        }
        schema.insert(name, table);
    }
    schema
}

async fn postgres_schema(pool: &sqlx::PgPool) -> Schema {
    let mut schema = Schema::new();
    let tables: Vec<String> = sqlx::query_scalar(
        "select table_name::text from information_schema.tables
         where table_schema = 'public' and table_type = 'BASE TABLE' and table_name != '_sqlx_migrations'",
    )
    .fetch_all(pool)
    .await
    .unwrap();
    for name in tables {
        schema.insert(name, Table::default());
    }
    for column in sqlx::query(
        "select table_name::text, column_name::text, is_nullable::text from information_schema.columns
         where table_schema = 'public' and table_name != '_sqlx_migrations'",
    )
    .fetch_all(pool)
    .await
    .unwrap()
    {
        let table = schema.entry(column.get("table_name")).or_default();
        table.columns.insert(column.get("column_name"), column.get::<String, _>("is_nullable") == "YES");
    }
    for index in sqlx::query(
        "select t.relname::text as table_name, i.relname::text as index_name, ix.indisunique as is_unique,
                array(select coalesce(a.attname::text, $1)
                      from unnest(ix.indkey::int2[]) with ordinality as k(attnum, position)
                      left join pg_attribute a on a.attrelid = t.oid and a.attnum = k.attnum
                      order by k.position) as columns
         from pg_index ix
         join pg_class i on i.oid = ix.indexrelid
         join pg_class t on t.oid = ix.indrelid
         join pg_namespace ns on ns.oid = t.relnamespace
         where ns.nspname = 'public'
           and t.relname != '_sqlx_migrations'
           and not exists (select 1 from pg_constraint c where c.conindid = ix.indexrelid)",
    )
    .bind(EXPRESSION)
    .fetch_all(pool)
    .await
    .unwrap()
    {
        let table = schema.entry(index.get("table_name")).or_default();
        table.indexes.insert(index.get("index_name"), (index.get("is_unique"), index.get("columns")));
    }
    schema
}

/// Every difference, one line each, as `table`, `table.column` or `table index name`.
fn differences(sqlite: &Schema, postgres: &Schema) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let mut note = |place: String, what: String| found.push((place, what));
    for name in sqlite.keys().chain(postgres.keys()).collect::<std::collections::BTreeSet<_>>() {
        let (Some(lite), Some(pg)) = (sqlite.get(name), postgres.get(name)) else {
            let only = if sqlite.contains_key(name) { "SQLite" } else { "PostgreSQL" };
            note(name.clone(), format!("table only in {only}"));
            continue;
        };
        for column in lite.columns.keys().chain(pg.columns.keys()).collect::<std::collections::BTreeSet<_>>() {
            let place = format!("{name}.{column}");
            match (lite.columns.get(column), pg.columns.get(column)) {
                (Some(a), Some(b)) if a != b => {
                    note(place, format!("nullable in SQLite: {a}, in PostgreSQL: {b}"));
                }
                (Some(_), None) => note(place, "column only in SQLite".into()),
                (None, Some(_)) => note(place, "column only in PostgreSQL".into()),
                _ => {}
            }
        }
        for index in lite.indexes.keys().chain(pg.indexes.keys()).collect::<std::collections::BTreeSet<_>>() {
            let place = format!("{name} index {index}");
            match (lite.indexes.get(index), pg.indexes.get(index)) {
                (Some(a), Some(b)) if a != b => {
                    note(place, format!("SQLite (unique, columns) {a:?}, PostgreSQL {b:?}"));
                }
                (Some(_), None) => note(place, "index only in SQLite".into()),
                (None, Some(_)) => note(place, "index only in PostgreSQL".into()),
                _ => {}
            }
        }
    }
    found
}

async fn migrated_schema(backend: Backend) -> Schema {
    let slot = Arc::new(Mutex::new(None));
    let filled = slot.clone();
    common::run(
        backend,
        |_| {},
        |app: TestApp| async move {
            let schema = match &app.server.state.db {
                Db::Sqlite(pool) => sqlite_schema(pool).await,
                Db::Postgres(pool) => postgres_schema(pool).await,
            };
            *filled.lock().unwrap() = Some(schema);
            app
        },
    )
    .await;
    let schema = slot.lock().unwrap().take();
    schema.expect("schema read")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(taskhub_skip_postgres, ignore = "TASKHUB_SKIP_POSTGRES is set")]
async fn both_backends_migrate_to_the_same_tables_columns_and_indexes() {
    let sqlite = migrated_schema(Backend::Sqlite).await;
    let postgres = migrated_schema(Backend::Postgres).await;
    assert!(sqlite.len() > 10, "SQLite has the tables: {:?}", sqlite.keys());
    assert!(sqlite.values().any(|table| !table.indexes.is_empty()), "indexes are read");

    let found = differences(&sqlite, &postgres);
    for (intended, _) in INTENDED_DIFFERENCES {
        assert!(found.iter().any(|(place, _)| place == intended), "{intended} is no longer a difference");
    }
    let unexpected: Vec<String> = found
        .into_iter()
        .filter(|(place, _)| !INTENDED_DIFFERENCES.iter().any(|(intended, _)| intended == place))
        .map(|(place, what)| format!("{place}: {what}"))
        .collect();
    assert!(unexpected.is_empty(), "the schemas differ:\n{}", unexpected.join("\n"));
}
