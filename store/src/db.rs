//! The store's connection: one SQL text per query, run on SQLite (embedded
//! default) or PostgreSQL (scale-out) through sqlx's native drivers.
//!
//! Conventions both schemas follow so that one SQL text behaves the same:
//! ids are UUIDv7 (`blob` in SQLite, `uuid` in Postgres; both sort bytewise,
//! i.e. by creation time), money is integer cents, timestamps are integer
//! milliseconds since the Unix epoch, JSON is stored as text.

use std::{str::FromStr, time::Duration};

use anyhow::Context;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use sqlx::{
    ConnectOptions, Connection, PgPool, Postgres, Sqlite, SqlitePool, Transaction,
    postgres::PgPoolOptions,
    sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous},
};
use time::{OffsetDateTime, format_description::well_known::Rfc3339};
use uuid::Uuid;

static SQLITE_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("../migrations/sqlite");
static POSTGRES_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("../migrations/postgres");

#[derive(Clone, Debug)]
pub enum Db {
    Sqlite(SqlitePool),
    Postgres(PgPool),
}

/// Runs one block of code against whichever pool is configured. The block is
/// written once and compiled for both drivers, so the SQL inside must be valid
/// for both.
#[macro_export]
macro_rules! on_pool {
    ($db:expr, |$pool:ident| $body:expr) => {
        match $db {
            $crate::db::Db::Sqlite($pool) => $body,
            $crate::db::Db::Postgres($pool) => $body,
        }
    };
}

/// SQLite: the functions of our own that queries call, on each new connection.
async fn register_functions(connection: &mut sqlx::SqliteConnection) -> sqlx::Result<()> {
    let mut handle = connection.lock_handle().await?;
    // SAFETY: the locked handle is an open connection that no other thread uses meanwhile.
    unsafe { crate::match_rank::register(handle.as_raw_handle()) }
        .map_err(|error| sqlx::Error::Configuration(error.into()))?;
    Ok(())
}

impl Db {
    pub async fn connect(url: &str) -> anyhow::Result<Self> {
        Self::connect_with(url, 20, Duration::from_secs(10)).await
    }

    /// [`Db::connect`] with at most `max_connections` PostgreSQL connections (SQLite keeps 8),
    /// each query waiting at most `acquire_timeout` for one (then `sqlx::Error::PoolTimedOut`,
    /// which the API answers with 503).
    pub async fn connect_with(url: &str, max_connections: u32, acquire_timeout: Duration) -> anyhow::Result<Self> {
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            let pool = PgPoolOptions::new()
                .max_connections(max_connections.max(1))
                .acquire_timeout(acquire_timeout)
                .connect(url)
                .await
                .context("connecting to PostgreSQL")?;
            Ok(Self::Postgres(pool))
        } else if url.starts_with("sqlite:") {
            let options = SqliteConnectOptions::from_str(url)
                .context("parsing DATABASE_URL")?
                .create_if_missing(true)
                .journal_mode(SqliteJournalMode::Wal)
                .synchronous(SqliteSynchronous::Normal)
                .foreign_keys(true)
                .busy_timeout(Duration::from_secs(10))
                // Reads map the file instead of copying each page through a read(2), and each
                // connection keeps up to 64 MiB of pages rather than the default 2 MiB, which
                // alert matching at 100,000 alerts outgrows (its p50 went from 58–61 to 50–54 ms,
                // bench/browse/HISTORY.md, stop 39).
                .pragma("mmap_size", (256 * 1024 * 1024).to_string())
                .pragma("cache_size", (-64 * 1024).to_string());
            // Once on its own first: the pool would only log a connection it could not set up,
            // and retry until it timed out.
            let mut first = options.connect().await.context("opening the SQLite database")?;
            register_functions(&mut first).await.context("registering Taskhub's SQLite functions")?;
            first.close().await.ok();
            let pool = SqlitePoolOptions::new()
                .max_connections(8)
                .acquire_timeout(acquire_timeout)
                .after_connect(|connection, _| Box::pin(register_functions(connection)))
                .connect_with(options)
                .await
                .context("opening the SQLite database")?;
            Ok(Self::Sqlite(pool))
        } else {
            anyhow::bail!("DATABASE_URL must start with sqlite: or postgres://")
        }
    }

    pub async fn migrate(&self) -> anyhow::Result<()> {
        match self {
            Self::Sqlite(pool) => SQLITE_MIGRATIONS.run(pool).await,
            Self::Postgres(pool) => POSTGRES_MIGRATIONS.run(pool).await,
        }
        .context("running database migrations")?;
        // Statistics only make queries faster: a database that cannot be analyzed now (another
        // process holding the write lock, a read-only file) still serves, and the hourly
        // refresh tries again.
        if let Err(error) = self.refresh_planner_statistics().await {
            tracing::warn!(error = format!("{error:#}"), "SQLite's planner statistics were not gathered");
        }
        Ok(())
    }

    /// SQLite: gathers the query planner's statistics where they are missing or stale, as SQLite
    /// advises for long-lived databases (`PRAGMA optimize`). Without them SQLite plans every
    /// query by rules of thumb, not as the plans measured in `bench/browse`. Run after
    /// migrations and every hour (the server's `workers`); PostgreSQL's autovacuum does the same on
    /// its own.
    ///
    /// The pragma runs on one pooled connection; the others read the new statistics when sqlx
    /// replaces them (within its 30-minute maximum lifetime) or when the schema changes.
    pub async fn refresh_planner_statistics(&self) -> anyhow::Result<()> {
        if let Self::Sqlite(pool) = self {
            // 0x10012: analyze the tables that need it (0x2), checking every table (0x10000), not
            // only those this connection has read, with a bounded analysis (0x10). Unbounded, the
            // analysis reads every row while holding the write lock and stores STAT4 samples,
            // with which SQLite plans a statement again each time a value is bound to it.
            sqlx::query("pragma optimize = 0x10012").execute(pool).await.context("gathering SQLite's statistics")?;
        }
        Ok(())
    }

    pub async fn ping(&self) -> bool {
        on_pool!(self, |pool| sqlx::query("select 1").execute(pool).await.is_ok())
    }

    pub fn backend_name(&self) -> &'static str {
        match self {
            Self::Sqlite(_) => "sqlite",
            Self::Postgres(_) => "postgres",
        }
    }

    pub async fn close(&self) {
        on_pool!(self, |pool| pool.close().await)
    }

    pub fn is_closed(&self) -> bool {
        on_pool!(self, |pool| pool.is_closed())
    }
}

/// Starts a transaction that will write. SQLite takes the write lock up front
/// so two writers queue on the busy timeout instead of failing with SQLITE_BUSY
/// when a read lock would have to be upgraded.
pub trait BeginWrite {
    type Database: sqlx::Database;
    fn begin_write(&self) -> impl Future<Output = sqlx::Result<Transaction<'static, Self::Database>>> + Send;
}

impl BeginWrite for SqlitePool {
    type Database = Sqlite;
    async fn begin_write(&self) -> sqlx::Result<Transaction<'static, Sqlite>> {
        self.begin_with("begin immediate").await
    }
}

impl BeginWrite for PgPool {
    type Database = Postgres;
    async fn begin_write(&self) -> sqlx::Result<Transaction<'static, Postgres>> {
        self.begin().await
    }
}

/// The connection of one open write transaction, on whichever database. The steps that several
/// transitions share (lock the task, insert a ledger entry, release the added charges…) take it,
/// so each is an ordinary function written once, its SQL compiled for both drivers by
/// [`on_conn!`]: `store::ledger::insert_entry(tx.conn(), &entry).await?`.
pub enum Conn<'c> {
    Sqlite(&'c mut sqlx::SqliteConnection),
    Postgres(&'c mut sqlx::PgConnection),
}

impl Conn<'_> {
    /// The same connection for one more step, leaving this handle usable afterwards.
    pub fn reborrow(&mut self) -> Conn<'_> {
        match self {
            Conn::Sqlite(connection) => Conn::Sqlite(connection),
            Conn::Postgres(connection) => Conn::Postgres(connection),
        }
    }
}

/// A write transaction hands out its [`Conn`].
pub trait InTransaction {
    fn conn(&mut self) -> Conn<'_>;
}

impl InTransaction for Transaction<'_, Sqlite> {
    fn conn(&mut self) -> Conn<'_> {
        Conn::Sqlite(self)
    }
}

impl InTransaction for Transaction<'_, Postgres> {
    fn conn(&mut self) -> Conn<'_> {
        Conn::Postgres(self)
    }
}

/// Runs one block against a [`Conn`]'s connection, whichever database it is on (as
/// [`on_pool!`] does for a pool).
#[macro_export]
macro_rules! on_conn {
    ($conn:expr, |$connection:ident| $body:expr) => {
        match $conn {
            $crate::db::Conn::Sqlite($connection) => $body,
            $crate::db::Conn::Postgres($connection) => $body,
        }
    };
}

pub fn new_id() -> Uuid {
    Uuid::now_v7()
}

/// SQLite: `rows` groups of `per_row` anonymous placeholders, `(?, ?), (?, ?)`, for a multi-row
/// statement bound in the order it is written. SQLite finds a numbered parameter (`$7`) by a
/// linear scan of the statement's parameter list, once while parsing and again when sqlx binds
/// it, so a statement of a thousand numbered parameters costs a million steps: a sixth of alert
/// matching's time on SQLite went there.
pub fn sqlite_rows(rows: usize, per_row: usize) -> String {
    let row = format!("({})", sqlite_list(per_row));
    vec![row; rows].join(", ")
}

/// SQLite: `count` anonymous placeholders, `?, ?, ?` (see [`sqlite_rows`]).
pub fn sqlite_list(count: usize) -> String {
    vec!["?"; count].join(", ")
}

/// True when the error is a unique-constraint violation (either backend).
pub fn is_unique_violation(error: &sqlx::Error) -> bool {
    matches!(error, sqlx::Error::Database(db) if db.is_unique_violation())
}

/// Milliseconds since the Unix epoch; serialized as RFC 3339 UTC.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, sqlx::Type)]
#[sqlx(transparent)]
pub struct Timestamp(pub i64);

impl Timestamp {
    pub fn now() -> Self {
        Self((OffsetDateTime::now_utc().unix_timestamp_nanos() / 1_000_000) as i64)
    }

    pub fn plus(self, duration: Duration) -> Self {
        Self(self.0 + duration.as_millis() as i64)
    }

    /// Midnight UTC of this instant's day.
    pub fn start_of_day(self) -> Self {
        const DAY_MS: i64 = 24 * 3600 * 1000;
        Self(self.0.div_euclid(DAY_MS) * DAY_MS)
    }

    pub fn minus(self, duration: Duration) -> Self {
        Self(self.0 - duration.as_millis() as i64)
    }

    pub fn to_offset_date_time(self) -> OffsetDateTime {
        OffsetDateTime::from_unix_timestamp_nanos(self.0 as i128 * 1_000_000).unwrap_or(OffsetDateTime::UNIX_EPOCH)
    }

    pub fn from_offset_date_time(value: OffsetDateTime) -> Self {
        Self((value.unix_timestamp_nanos() / 1_000_000) as i64)
    }

    pub fn to_rfc3339(self) -> String {
        self.to_offset_date_time().format(&Rfc3339).unwrap_or_default()
    }
}

impl Serialize for Timestamp {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.to_rfc3339())
    }
}

impl<'de> Deserialize<'de> for Timestamp {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        OffsetDateTime::parse(&text, &Rfc3339).map(Self::from_offset_date_time).map_err(serde::de::Error::custom)
    }
}

impl utoipa::PartialSchema for Timestamp {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{KnownFormat, ObjectBuilder, SchemaFormat, Type};
        ObjectBuilder::new()
            .schema_type(Type::String)
            .format(Some(SchemaFormat::KnownFormat(KnownFormat::DateTime)))
            .into()
    }
}

impl utoipa::ToSchema for Timestamp {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_render_as_rfc3339_utc() {
        assert_eq!(Timestamp(0).to_rfc3339(), "1970-01-01T00:00:00Z");
        assert_eq!(Timestamp(1_700_000_000_123).to_rfc3339(), "2023-11-14T22:13:20.123Z");
    }
}
