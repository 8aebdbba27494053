//! Storage. Every service takes a `DATABASE_URL`: `sqlite://path` (the embedded default, one file per
//! service) or `postgres://…` (production, one database per service). Services use sqlx's `Any`
//! driver and write SQL that both engines accept (`$1` placeholders, `BIGINT`, `TEXT`, no
//! engine-specific types), so one set of migrations serves both and the tests run against both.

use std::ops::{Deref, DerefMut};
use std::str::FromStr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::migrate::Migrator;
use sqlx::{Any, AnyConnection, AnyPool, ConnectOptions, Connection, Executor, Transaction};
use tokio::sync::{Mutex, OwnedMutexGuard, Semaphore};

pub use sqlx;

/// Storage could not be opened or migrated.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error("unsupported DATABASE_URL {0:?}: use sqlite:// or postgres://")]
    Unsupported(String),
    #[error("cannot create the directory for {path}: {source}")]
    Directory {
        path: String,
        source: std::io::Error,
    },
    #[error("cannot connect to the database: {0}")]
    Connect(#[source] sqlx::Error),
    #[error("migrations failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
}

/// Which engine a URL names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Engine {
    Sqlite,
    Postgres,
}

impl Engine {
    /// The engine of a `DATABASE_URL`.
    pub fn of(url: &str) -> Result<Self, DbError> {
        if url.starts_with("sqlite:") {
            Ok(Engine::Sqlite)
        } else if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            Ok(Engine::Postgres)
        } else {
            Err(DbError::Unsupported(url.to_string()))
        }
    }
}

/// Makes a SQLite URL create its file (and directory) when missing.
fn prepare_sqlite_url(url: &str) -> Result<String, DbError> {
    let rest = url
        .trim_start_matches("sqlite://")
        .trim_start_matches("sqlite:");
    let path = rest.split('?').next().unwrap_or_default();
    if !path.is_empty()
        && path != ":memory:"
        && let Some(dir) = std::path::Path::new(path).parent()
        && !dir.as_os_str().is_empty()
    {
        std::fs::create_dir_all(dir).map_err(|source| DbError::Directory {
            path: path.to_string(),
            source,
        })?;
    }
    if url.contains("mode=") {
        Ok(url.to_string())
    } else if url.contains('?') {
        Ok(format!("{url}&mode=rwc"))
    } else {
        Ok(format!("{url}?mode=rwc"))
    }
}

/// How long a PostgreSQL connection may sit idle in the pool before it is pinged again before use.
pub const PING_WHEN_IDLE_FOR: Duration = Duration::from_secs(1);

/// Opens the pool and brings the schema up to date with the service's migrations.
pub async fn connect(url: &str, migrator: &Migrator) -> Result<AnyPool, DbError> {
    sqlx::any::install_default_drivers();
    let engine = Engine::of(url)?;
    let url = match engine {
        Engine::Sqlite => prepare_sqlite_url(url)?,
        Engine::Postgres => url.to_string(),
    };
    let options = AnyConnectOptions::from_str(&url)
        .map_err(DbError::Connect)?
        .log_statements(tracing::log::LevelFilter::Trace)
        .log_slow_statements(tracing::log::LevelFilter::Warn, Duration::from_millis(200));
    let pool = AnyPoolOptions::new()
        .max_connections(match engine {
            // One writer at a time is SQLite's nature; a few readers help under WAL.
            Engine::Sqlite => 4,
            Engine::Postgres => POSTGRES_CONNECTIONS as u32,
        })
        .acquire_timeout(Duration::from_secs(5))
        // sqlx pings a pooled connection before every use by default, and again whenever one is
        // given back. An SQLite connection is a file handle in this process and cannot have been
        // hung up on, so it is never pinged before use. A PostgreSQL connection is pinged before
        // use only when it has sat idle for a while (the server or the network may have dropped
        // it meanwhile): one in steady use was pinged moments ago, on its way back, and a second
        // ping would double the round trips of a one-statement write.
        .test_before_acquire(false)
        .before_acquire(move |conn, meta| {
            Box::pin(async move {
                if engine == Engine::Postgres && meta.idle_for >= PING_WHEN_IDLE_FOR {
                    conn.ping().await?;
                }
                Ok(true)
            })
        })
        .after_connect(move |conn, _| {
            Box::pin(async move {
                if engine == Engine::Sqlite {
                    conn.execute("PRAGMA busy_timeout = 5000").await?;
                    conn.execute("PRAGMA foreign_keys = ON").await?;
                    conn.execute("PRAGMA synchronous = NORMAL").await?;
                }
                Ok(())
            })
        })
        .connect_with(options)
        .await
        .map_err(DbError::Connect)?;
    if engine == Engine::Sqlite {
        // WAL lets readers run beside the one writer; the setting is stored in the file.
        pool.execute("PRAGMA journal_mode = WAL")
            .await
            .map_err(DbError::Connect)?;
    }
    migrator.run(&pool).await?;
    Ok(pool)
}

/// Whether `error` means the database could not be reached (the connection refused, dropped or
/// cut short, no connection free in time, the pool or its worker gone, or PostgreSQL saying it is
/// shutting down or not accepting connections yet) rather than that it answered: an outage that
/// passes when the server is back, not a fault of the statement.
pub fn unreachable(error: &sqlx::Error) -> bool {
    match error {
        sqlx::Error::Io(_)
        | sqlx::Error::Tls(_)
        | sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed
        | sqlx::Error::WorkerCrashed => true,
        // SQLSTATE class 08 (connection exception) and 57P01…57P03 (shutting down, cannot
        // connect now).
        sqlx::Error::Database(e) => e
            .code()
            .is_some_and(|code| code.starts_with("08") || code.starts_with("57P0")),
        _ => false,
    }
}

/// `INSERT INTO t (a, b) VALUES ($1, $2), ($3, $4)` for `rows` rows: several rows in one
/// statement, one round trip instead of one per row. Built by hand rather than with sqlx's
/// `QueryBuilder` because the `Any` driver's builder writes `?` placeholders, which PostgreSQL
/// rejects. Only the caller's table and column names reach the text; bind every value.
pub fn insert_sql(table: &str, columns: &[&str], rows: usize) -> String {
    let mut sql = format!("INSERT INTO {table} ({}) VALUES ", columns.join(", "));
    let mut n = 0;
    for row in 0..rows {
        if row > 0 {
            sql.push_str(", ");
        }
        sql.push('(');
        for column in 0..columns.len() {
            if column > 0 {
                sql.push_str(", ");
            }
            n += 1;
            sql.push_str(&format!("${n}"));
        }
        sql.push(')');
    }
    sql
}

/// How long a PostgreSQL writer's own connection may go unused before it is closed, when the
/// writer next puts a connection back: as long as sqlx's pool keeps an idle one by default. After
/// a peak of writes, the connections only the peak needed are closed once writes go on without
/// them; a writer with no writes at all keeps what it has.
pub const CLOSE_WHEN_IDLE_FOR: Duration = Duration::from_secs(600);

/// How many connections a service keeps to PostgreSQL for its pool, and again for its writer's
/// single-statement writes ([`Writer::write`]).
pub const POSTGRES_CONNECTIONS: usize = 16;

/// Runs a service's writes: transactions ([`Writer::begin`]) and writes that are one statement
/// ([`Writer::write`]).
///
/// SQLite has one writer. When two connections of a pool both write, the second waits in SQLite's
/// busy handler, which sleeps in growing steps (1, 2, 5 … 100 ms) and wakes late, so under load a
/// write can wait tens of milliseconds for a lock freed long before. Writers that queue here
/// instead wait their turn on an async lock (first come, first served) and start the moment the
/// previous one commits; readers are not held back (WAL). On PostgreSQL there is no gate: rows lock
/// themselves.
///
/// Single-statement writes run on connections the writer keeps for itself, taken out of the pool
/// when first needed: on SQLite one, on PostgreSQL up to [`POSTGRES_CONNECTIONS`]. sqlx pings every
/// connection given back to its pool, which is a second round trip for a one-statement write (to
/// the server on PostgreSQL, to the connection's worker thread on SQLite); the writer's own
/// connections are never given back, so a write is one round trip. What the ping is for is kept:
/// a PostgreSQL connection that has sat idle for [`PING_WHEN_IDLE_FOR`] is pinged before use (and
/// replaced when the server has hung up on it), one that failed other than with the database's own
/// error is closed rather than kept, and so is one whose write was abandoned half-way (its caller
/// went away). One left unused for [`CLOSE_WHEN_IDLE_FOR`] is closed. A connection kept after a
/// finished statement has nothing left to flush: a single statement commits by itself. (An SQLite
/// connection is a file handle in this process: it cannot have been hung up on.)
///
/// Make one per database per process, next to the pool, and give every writer of that database a
/// clone: two gates on one SQLite file do not see each other (they stay correct, through the busy
/// handler, only slower).
#[derive(Debug, Clone)]
pub struct Writer {
    pool: AnyPool,
    own: Own,
}

/// When a writer's single-statement write ([`Writer::write`]) returns, as to the disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Commit {
    /// Once its commit is on disk: a write that returned survives any crash.
    #[default]
    Flushed,
    /// Once it is committed, before its commit is on disk: PostgreSQL's asynchronous commit
    /// (`synchronous_commit = off`), written out by the server within a fraction of a second
    /// (three `wal_writer_delay`s at most, 600 ms by default). A crash of the database server can
    /// lose the writes of that last fraction of a second, and only whole ones: the database stays
    /// consistent. What it saves is a wait on the disk for every write, and under load the wake-ups
    /// around it. For data a person can make again in a moment (a cart, not an order or a
    /// payment). SQLite's pools here are already about this durable (WAL with `synchronous =
    /// NORMAL`: a power cut, not a crash of the process, can lose the last commits), so this
    /// changes nothing there.
    Background,
}

/// The connections a [`Writer`] keeps for itself.
#[derive(Debug, Clone)]
enum Own {
    /// The turn, and the writer's one connection once it has one.
    Sqlite(Arc<Mutex<Option<AnyConnection>>>),
    /// The writer's connections not in use, and the turns that bound how many are.
    Postgres(Arc<Spare>),
}

/// A PostgreSQL writer's connections between writes.
#[derive(Debug)]
struct Spare {
    /// The most recently used is taken first, so the ones that stay unused go stale (and are
    /// pinged), not the busy ones.
    idle: std::sync::Mutex<Vec<Idle>>,
    turns: Semaphore,
    commit: Commit,
    /// [`CLOSE_WHEN_IDLE_FOR`], shorter in tests.
    close_when_idle_for: Duration,
}

#[derive(Debug)]
struct Idle {
    connection: AnyConnection,
    since: Instant,
}

impl Spare {
    fn take(&self) -> Option<Idle> {
        self.idle.lock().unwrap_or_else(|e| e.into_inner()).pop()
    }

    /// Keeps `connection` for the next write, and closes those unused for too long.
    fn put(&self, connection: AnyConnection) {
        let now = Instant::now();
        let unused: Vec<Idle> = {
            let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
            idle.push(Idle {
                connection,
                since: now,
            });
            // Taken from the top and put back on top, so the longer unused lie lower.
            let kept_from = idle
                .iter()
                .position(|i| now.duration_since(i.since) < self.close_when_idle_for)
                .unwrap_or(idle.len());
            idle.drain(..kept_from).collect()
        };
        for Idle { connection, .. } in unused {
            // Said goodbye to the server off the write's path.
            tokio::spawn(async move {
                let _ = connection.close().await;
            });
        }
    }
}

impl Writer {
    /// The writer of `pool`'s database; its writes return once on disk ([`Commit::Flushed`]).
    pub fn new(pool: AnyPool) -> Self {
        Self::with_commit(pool, Commit::Flushed)
    }

    /// The writer of `pool`'s database whose single-statement writes return as `commit` says.
    /// Transactions ([`Writer::begin`]) run on the pool's connections and are always flushed.
    pub fn with_commit(pool: AnyPool, commit: Commit) -> Self {
        Self::with_limits(pool, commit, CLOSE_WHEN_IDLE_FOR)
    }

    fn with_limits(pool: AnyPool, commit: Commit, close_when_idle_for: Duration) -> Self {
        let own = if pool.connect_options().database_url.scheme() == "sqlite" {
            Own::Sqlite(Arc::new(Mutex::new(None)))
        } else {
            Own::Postgres(Arc::new(Spare {
                idle: std::sync::Mutex::new(Vec::with_capacity(POSTGRES_CONNECTIONS)),
                turns: Semaphore::new(POSTGRES_CONNECTIONS),
                commit,
                close_when_idle_for,
            }))
        };
        Self { pool, own }
    }

    /// The pool, for reads.
    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }

    /// Begins a transaction that will write; on SQLite, after the previous writer has finished.
    pub async fn begin(&self) -> Result<WriteTransaction, sqlx::Error> {
        let turn = match &self.own {
            Own::Sqlite(own) => Some(own.clone().lock_owned().await),
            Own::Postgres(_) => None,
        };
        let tx = self.pool.begin().await?;
        Ok(WriteTransaction { tx, _turn: turn })
    }

    /// Runs `statement`, a write that is one statement (it commits by itself: no `BEGIN` and
    /// `COMMIT` round trips), on one of the writer's own connections; on SQLite, after the previous
    /// writer has finished: `writer.write(async |c| query.execute(c).await)`.
    pub async fn write<T>(
        &self,
        statement: impl AsyncFnOnce(&mut AnyConnection) -> Result<T, sqlx::Error>,
    ) -> Result<T, sqlx::Error> {
        match &self.own {
            Own::Sqlite(own) => {
                let mut turn = own.lock().await;
                let connection = match turn.as_mut() {
                    Some(connection) => connection,
                    // Taken from the pool, so it was opened with the pool's settings (busy
                    // timeout, foreign keys, synchronous); the pool opens another in its place
                    // when it needs one.
                    None => turn.insert(self.pool.acquire().await?.detach()),
                };
                statement(connection).await
            }
            Own::Postgres(spare) => {
                let _turn = spare
                    .turns
                    .acquire()
                    .await
                    .map_err(|_| sqlx::Error::PoolClosed)?;
                // Closed, not kept, when this future is dropped before the statement has ended.
                let mut connection = self.ready(spare).await?;
                let outcome = statement(&mut connection).await;
                // The server answered, with rows or with its own error: the connection is sound.
                if matches!(outcome, Ok(_) | Err(sqlx::Error::Database(_))) {
                    spare.put(connection);
                }
                outcome
            }
        }
    }

    /// A spare connection, pinged first when it has idled; else a new one from the pool.
    async fn ready(&self, spare: &Spare) -> Result<AnyConnection, sqlx::Error> {
        if let Some(Idle {
            mut connection,
            since,
        }) = spare.take()
            && (since.elapsed() < PING_WHEN_IDLE_FOR || connection.ping().await.is_ok())
        {
            return Ok(connection);
        }
        // None spare, or the one spare was hung up on while it idled (a server restart, a network
        // timeout) and has been closed.
        let mut connection = self.pool.acquire().await?.detach();
        if spare.commit == Commit::Background {
            // For this session: the connection is the writer's until it closes, never the pool's.
            sqlx::query("SET synchronous_commit = off")
                .execute(&mut connection)
                .await?;
        }
        Ok(connection)
    }
}

/// A transaction begun by [`Writer::begin`]. Dropping it without
/// [`WriteTransaction::commit`] rolls back, and either way lets the next writer in. It derefs to
/// the connection, like a [`Transaction`]: `query.execute(&mut *tx)`.
pub struct WriteTransaction {
    tx: Transaction<'static, Any>,
    /// Declared after `tx`, so a transaction dropped without commit rolls back first.
    _turn: Option<OwnedMutexGuard<Option<AnyConnection>>>,
}

impl WriteTransaction {
    pub async fn commit(self) -> Result<(), sqlx::Error> {
        self.tx.commit().await
    }
}

impl Deref for WriteTransaction {
    type Target = AnyConnection;
    fn deref(&self) -> &Self::Target {
        &self.tx
    }
}

impl DerefMut for WriteTransaction {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.tx
    }
}

/// Databases for tests: a fresh SQLite file always, and a fresh PostgreSQL database when one is
/// reachable (`TIFFIN_TEST_POSTGRES`, default `postgres://postgres@127.0.0.1:5432/postgres`).
/// With `TIFFIN_REQUIRE_POSTGRES=1` (set by `make test`) an unreachable PostgreSQL is a failure, so
/// CI cannot silently skip it.
pub mod testing {
    use super::*;

    /// A throwaway database; PostgreSQL ones are dropped when this is dropped.
    pub struct TestDatabase {
        /// URL to hand to the service under test.
        pub url: String,
        /// Which engine it is (for test names in failure messages).
        pub engine: Engine,
        _dir: Option<tempfile::TempDir>,
        drop_pg: Option<(String, String)>,
    }

    impl Drop for TestDatabase {
        fn drop(&mut self) {
            if let Some((admin, name)) = self.drop_pg.take() {
                // Drop is synchronous; run the async drop on a short-lived runtime of its own.
                let _ = std::thread::spawn(move || {
                    let rt = tokio::runtime::Builder::new_current_thread()
                        .enable_all()
                        .build();
                    if let Ok(rt) = rt {
                        rt.block_on(async move {
                            if let Ok(pool) = sqlx::PgPool::connect(&admin).await {
                                let _ = sqlx::query(sqlx::AssertSqlSafe(format!(
                                    "DROP DATABASE IF EXISTS {name} WITH (FORCE)"
                                )))
                                .execute(&pool)
                                .await;
                            }
                        });
                    }
                })
                .join();
            }
        }
    }

    fn unique(prefix: &str) -> String {
        format!("{prefix}_{}", uuid::Uuid::new_v4().simple())
    }

    /// A fresh SQLite database in a temporary directory.
    pub fn sqlite() -> TestDatabase {
        let dir = tempfile::Builder::new()
            .prefix("tiffin_test")
            .tempdir()
            .expect("create temp dir");
        TestDatabase {
            url: format!("sqlite://{}/test.db", dir.path().display()),
            engine: Engine::Sqlite,
            _dir: Some(dir),
            drop_pg: None,
        }
    }

    /// A fresh PostgreSQL database, or `None` when no server is reachable (and none is required).
    pub async fn postgres() -> Option<TestDatabase> {
        let admin = std::env::var("TIFFIN_TEST_POSTGRES")
            .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".to_string());
        let required = std::env::var("TIFFIN_REQUIRE_POSTGRES").is_ok_and(|v| v == "1");
        let pool = match sqlx::PgPool::connect(&admin).await {
            Ok(p) => p,
            Err(e) if required => {
                panic!("TIFFIN_REQUIRE_POSTGRES=1 but PostgreSQL is unreachable at {admin}: {e}")
            }
            Err(_) => return None,
        };
        let name = unique("tiffin_test");
        sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
            .execute(&pool)
            .await
            .expect("create test database");
        let base = admin
            .rsplit_once('/')
            .map(|(b, _)| b.to_string())
            .unwrap_or(admin.clone());
        Some(TestDatabase {
            url: format!("{base}/{name}"),
            engine: Engine::Postgres,
            _dir: None,
            drop_pg: Some((admin, name)),
        })
    }

    /// Every engine available here: SQLite, then PostgreSQL when reachable.
    pub async fn all() -> Vec<TestDatabase> {
        let mut v = vec![sqlite()];
        if let Some(pg) = postgres().await {
            v.push(pg);
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inserts_number_their_placeholders_across_rows() {
        assert_eq!(
            insert_sql("t", &["a", "b"], 2),
            "INSERT INTO t (a, b) VALUES ($1, $2), ($3, $4)"
        );
    }

    #[test]
    fn sqlite_urls_create_their_file() {
        assert_eq!(
            prepare_sqlite_url("sqlite::memory:").unwrap(),
            "sqlite::memory:?mode=rwc"
        );
        assert!(
            prepare_sqlite_url("sqlite://x.db?mode=ro")
                .unwrap()
                .ends_with("mode=ro")
        );
    }

    #[test]
    fn only_sqlite_and_postgres_are_accepted() {
        assert_eq!(Engine::of("sqlite://a.db").unwrap(), Engine::Sqlite);
        assert_eq!(Engine::of("postgres://h/db").unwrap(), Engine::Postgres);
        assert!(Engine::of("mysql://h/db").is_err());
    }

    /// Whether a second `Writer::begin` starts while the first transaction is still open.
    async fn second_writer_starts_while_first_is_open(url: &str) -> bool {
        let pool = connect(url, &Migrator::DEFAULT).await.unwrap();
        let writer = Writer::new(pool);
        let mut first = writer.begin().await.unwrap();
        sqlx::query("CREATE TABLE IF NOT EXISTS t (n BIGINT)")
            .execute(&mut *first)
            .await
            .unwrap();
        let second = tokio::time::timeout(Duration::from_millis(200), writer.begin()).await;
        let started = second.is_ok();
        drop(second);
        first.commit().await.unwrap();
        // Once the first has finished, the next writer starts at once.
        let mut next = tokio::time::timeout(Duration::from_secs(5), writer.begin())
            .await
            .expect("a writer after the first commit starts")
            .unwrap();
        sqlx::query("INSERT INTO t (n) VALUES (1)")
            .execute(&mut *next)
            .await
            .unwrap();
        next.commit().await.unwrap();
        started
    }

    /// A fresh SQLite database (kept while the first is held) and its writer.
    async fn sqlite_writer() -> (testing::TestDatabase, Writer) {
        let db = testing::sqlite();
        let pool = connect(&db.url, &Migrator::DEFAULT).await.unwrap();
        (db, Writer::new(pool))
    }

    #[tokio::test]
    async fn sqlite_writers_take_turns_in_the_process() {
        let db = testing::sqlite();
        assert!(!second_writer_starts_while_first_is_open(&db.url).await);
    }

    /// Runs `sql` as a single-statement write.
    async fn write(writer: &Writer, sql: &'static str) -> Result<(), sqlx::Error> {
        writer
            .write(async |c| sqlx::query(sql).execute(c).await.map(drop))
            .await
    }

    #[tokio::test]
    async fn a_single_statement_writer_waits_for_an_open_transaction_on_sqlite() {
        let (_db, writer) = sqlite_writer().await;
        let first = writer.begin().await.unwrap();
        let waiting = tokio::time::timeout(
            Duration::from_millis(200),
            write(&writer, "CREATE TABLE t (n BIGINT)"),
        )
        .await;
        assert!(
            waiting.is_err(),
            "the statement must wait for the open transaction"
        );
        first.commit().await.unwrap();
        tokio::time::timeout(
            Duration::from_secs(5),
            write(&writer, "CREATE TABLE t (n BIGINT)"),
        )
        .await
        .expect("the statement runs once the transaction has finished")
        .unwrap();
    }

    #[tokio::test]
    async fn sqlite_single_statement_writes_run_on_the_writers_own_connection() {
        let (_db, writer) = sqlite_writer().await;
        let pool = writer.pool().clone();
        // A temporary table lives only on the connection that made it.
        write(&writer, "CREATE TEMP TABLE mine (n BIGINT)")
            .await
            .unwrap();
        for _ in 0..3 {
            write(&writer, "INSERT INTO mine (n) VALUES (1)")
                .await
                .expect("every write runs on the connection that made the table");
        }
        // The pool's connections are other connections: they do not see it.
        assert!(
            sqlx::query("SELECT n FROM mine")
                .fetch_all(&pool)
                .await
                .is_err()
        );
    }

    #[tokio::test]
    async fn a_transaction_waits_for_a_single_statement_write_on_sqlite() {
        let (_db, writer) = sqlite_writer().await;
        let (started, has_started) = tokio::sync::oneshot::channel();
        let (finish, may_finish) = tokio::sync::oneshot::channel::<()>();
        let statement = tokio::spawn({
            let writer = writer.clone();
            async move {
                writer
                    .write(async |c| {
                        let _ = started.send(());
                        let _ = may_finish.await;
                        sqlx::query("CREATE TABLE t (n BIGINT)").execute(c).await
                    })
                    .await
            }
        });
        has_started.await.unwrap();
        let waiting = tokio::time::timeout(Duration::from_millis(200), writer.begin()).await;
        assert!(waiting.is_err(), "the transaction must wait for the write");
        finish.send(()).unwrap();
        statement.await.unwrap().unwrap();
        let tx = tokio::time::timeout(Duration::from_secs(5), writer.begin())
            .await
            .expect("the transaction starts once the write has finished")
            .unwrap();
        tx.commit().await.unwrap();
    }

    /// A PostgreSQL writer on a fresh database with a temporary table `mine` on the connection
    /// its next write will take, or `None` without a server.
    async fn postgres_writer_with_temp_table() -> Option<(testing::TestDatabase, Writer)> {
        let db = testing::postgres().await?;
        let pool = connect(&db.url, &Migrator::DEFAULT).await.unwrap();
        let writer = Writer::new(pool);
        write(&writer, "CREATE TEMP TABLE mine (n BIGINT)")
            .await
            .unwrap();
        Some((db, writer))
    }

    /// Whether the writer's next write runs on the connection that made `mine`.
    async fn on_the_same_connection(writer: &Writer) -> bool {
        match write(writer, "INSERT INTO mine (n) VALUES (1)").await {
            Ok(()) => true,
            Err(sqlx::Error::Database(e)) if e.message().contains("mine") => false,
            Err(e) => panic!("unexpected {e}"),
        }
    }

    #[tokio::test]
    async fn a_postgres_writer_keeps_its_connection_between_writes_and_after_a_database_error() {
        let Some((_db, writer)) = postgres_writer_with_temp_table().await else {
            return;
        };
        assert!(on_the_same_connection(&writer).await);
        let refused = write(&writer, "INSERT INTO nowhere (n) VALUES (1)").await;
        assert!(matches!(refused, Err(sqlx::Error::Database(_))));
        assert!(
            on_the_same_connection(&writer).await,
            "the server's own error leaves the connection sound"
        );
    }

    #[tokio::test]
    async fn a_postgres_connection_that_failed_otherwise_is_closed_not_kept() {
        let Some((_db, writer)) = postgres_writer_with_temp_table().await else {
            return;
        };
        let failed = writer
            .write(async |c| {
                sqlx::query("SELECT 1").execute(&mut *c).await?;
                Err::<(), _>(sqlx::Error::Protocol("torn message".into()))
            })
            .await;
        assert!(matches!(failed, Err(sqlx::Error::Protocol(_))));
        assert!(!on_the_same_connection(&writer).await);
    }

    #[tokio::test]
    async fn a_postgres_write_abandoned_half_way_closes_its_connection() {
        let Some((db, writer)) = postgres_writer_with_temp_table().await else {
            return;
        };
        let abandoned = tokio::time::timeout(
            Duration::from_millis(100),
            write(&writer, "SELECT pg_sleep(2)"),
        )
        .await;
        assert!(abandoned.is_err(), "the caller gave up");
        assert!(
            !on_the_same_connection(&writer).await,
            "a new connection, not one still busy with the abandoned statement"
        );
        // The server has seen the abandoned connection go: only the writer's new one and the
        // pool's remain.
        let admin = sqlx::PgPool::connect(&db.url).await.unwrap();
        let sleeping = || async {
            sqlx::query_scalar::<_, i64>(
                "SELECT count(*) FROM pg_stat_activity                  WHERE datname = current_database() AND query = 'SELECT pg_sleep(2)'",
            )
            .fetch_one(&admin)
            .await
            .unwrap()
        };
        let deadline = std::time::Instant::now() + Duration::from_secs(5);
        while sleeping().await > 0 && std::time::Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert_eq!(sleeping().await, 0);
    }

    /// The one value `sql` gives, run by the writer as a single-statement write.
    async fn write_scalar<T>(writer: &Writer, sql: &'static str) -> T
    where
        T: Send + Unpin,
        (T,): for<'r> sqlx::FromRow<'r, sqlx::any::AnyRow>,
    {
        writer
            .write(async |c| sqlx::query_scalar::<_, T>(sql).fetch_one(c).await)
            .await
            .unwrap()
    }

    /// `synchronous_commit` on the connection the writer's next write takes.
    async fn writers_synchronous_commit(writer: &Writer) -> String {
        write_scalar(writer, "SHOW synchronous_commit").await
    }

    #[tokio::test]
    async fn a_postgres_writer_flushes_its_writes_unless_told_to_commit_in_the_background() {
        let Some(db) = testing::postgres().await else {
            return;
        };
        let pool = connect(&db.url, &Migrator::DEFAULT).await.unwrap();
        assert_eq!(
            writers_synchronous_commit(&Writer::new(pool.clone())).await,
            "on"
        );

        let background = Writer::with_commit(pool.clone(), Commit::Background);
        write(&background, "CREATE TABLE t (n BIGINT)")
            .await
            .unwrap();
        write(&background, "INSERT INTO t (n) VALUES (1)")
            .await
            .unwrap();
        assert_eq!(writers_synchronous_commit(&background).await, "off");
        // Committed, so at once visible to every other connection.
        let read: Vec<i64> = sqlx::query_scalar("SELECT n FROM t")
            .fetch_all(&pool)
            .await
            .unwrap();
        assert_eq!(read, [1]);
        // The setting stays with the writer's own connections: the pool's, and so transactions,
        // are flushed.
        let pools: String = sqlx::query_scalar("SHOW synchronous_commit")
            .fetch_one(&pool)
            .await
            .unwrap();
        assert_eq!(pools, "on");
        let mut tx = background.begin().await.unwrap();
        let in_transaction: String = sqlx::query_scalar("SHOW synchronous_commit")
            .fetch_one(&mut *tx)
            .await
            .unwrap();
        assert_eq!(in_transaction, "on");
        tx.commit().await.unwrap();
    }

    #[tokio::test]
    async fn a_background_writer_sets_up_the_connection_that_replaces_a_dropped_one() {
        let Some(db) = testing::postgres().await else {
            return;
        };
        let pool = connect(&db.url, &Migrator::DEFAULT).await.unwrap();
        let writer = Writer::with_commit(pool, Commit::Background);
        let first: i32 = write_scalar(&writer, "SELECT pg_backend_pid()").await;
        let admin = sqlx::PgPool::connect(&db.url).await.unwrap();
        sqlx::query("SELECT pg_terminate_backend($1)")
            .bind(first)
            .execute(&admin)
            .await
            .unwrap();
        tokio::time::sleep(PING_WHEN_IDLE_FOR + Duration::from_millis(200)).await;
        let (pid, setting): (i32, String) = writer
            .write(async |c| {
                sqlx::query_as("SELECT pg_backend_pid(), current_setting('synchronous_commit')")
                    .fetch_one(c)
                    .await
            })
            .await
            .unwrap();
        assert_ne!(pid, first, "a new connection");
        assert_eq!(setting, "off");
    }

    #[tokio::test]
    async fn a_postgres_writer_closes_the_connections_it_stopped_using() {
        let Some(db) = testing::postgres().await else {
            return;
        };
        let pool = connect(&db.url, &Migrator::DEFAULT).await.unwrap();
        let limit = Duration::from_millis(300);
        let writer = Writer::with_limits(pool, Commit::Flushed, limit);
        let pid = |writer: Writer| async move {
            write_scalar::<i32>(&writer, "SELECT pg_backend_pid() FROM pg_sleep(0.1)").await
        };
        // A peak: three writes at once, on three connections.
        let (a, b, c) = tokio::join!(
            pid(writer.clone()),
            pid(writer.clone()),
            pid(writer.clone())
        );
        let peak = [a, b, c];
        assert_eq!(
            peak.iter().collect::<std::collections::BTreeSet<_>>().len(),
            3
        );
        tokio::time::sleep(limit + Duration::from_millis(100)).await;
        // Writes go on one at a time: one connection is enough.
        let still = pid(writer.clone()).await;
        assert!(peak.contains(&still), "the most recently used was kept");

        let admin = sqlx::PgPool::connect(&db.url).await.unwrap();
        let open = || async {
            sqlx::query_scalar::<_, i64>(
                "SELECT count(*) FROM pg_stat_activity WHERE pid = ANY($1)",
            )
            .bind(peak.to_vec())
            .fetch_one(&admin)
            .await
            .unwrap()
        };
        let deadline = Instant::now() + Duration::from_secs(5);
        while open().await > 1 && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert_eq!(open().await, 1, "the two left unused were closed");
        assert_eq!(pid(writer).await, still);
    }

    #[tokio::test]
    async fn a_postgres_connection_dropped_while_idle_is_replaced_before_use() {
        let Some(db) = testing::postgres().await else {
            return;
        };
        let pool = connect(&db.url, &Migrator::DEFAULT).await.unwrap();
        let writer = Writer::new(pool.clone());
        write(&writer, "CREATE TABLE t (n BIGINT)").await.unwrap();
        sqlx::query("SELECT n FROM t")
            .fetch_all(&pool)
            .await
            .unwrap();
        // The server hangs up on every connection, the writer's and the pool's (as on a restart),
        // while they idle.
        let admin = sqlx::PgPool::connect(&db.url).await.unwrap();
        let dropped: i64 = sqlx::query_scalar(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity \
             WHERE datname = current_database() AND pid <> pg_backend_pid()",
        )
        .fetch_one(&admin)
        .await
        .unwrap();
        assert!(
            dropped >= 2,
            "the writer's and the pool's connections were open"
        );
        tokio::time::sleep(PING_WHEN_IDLE_FOR + Duration::from_millis(200)).await;

        write(&writer, "INSERT INTO t (n) VALUES (1)")
            .await
            .expect("the writer found its dead connection out and used a new one");
        let read: Vec<i64> = sqlx::query_scalar("SELECT n FROM t")
            .fetch_all(&pool)
            .await
            .expect("so did the pool");
        assert_eq!(read, [1]);
    }

    #[tokio::test]
    async fn a_postgres_writer_uses_at_most_its_own_connections_at_once() {
        use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};

        let Some(db) = testing::postgres().await else {
            return;
        };
        let pool = connect(&db.url, &Migrator::DEFAULT).await.unwrap();
        let writer = Writer::new(pool);
        let busy = std::sync::Arc::new(AtomicUsize::new(0));
        let most = std::sync::Arc::new(AtomicUsize::new(0));
        let writes = (0..POSTGRES_CONNECTIONS * 2).map(|_| {
            let (writer, busy, most) = (writer.clone(), busy.clone(), most.clone());
            tokio::spawn(async move {
                writer
                    .write(async |c| {
                        let now = busy.fetch_add(1, SeqCst) + 1;
                        most.fetch_max(now, SeqCst);
                        let pid: i32 =
                            sqlx::query_scalar("SELECT pg_backend_pid() FROM pg_sleep(0.05)")
                                .fetch_one(c)
                                .await?;
                        busy.fetch_sub(1, SeqCst);
                        Ok(pid)
                    })
                    .await
                    .unwrap()
            })
        });
        let mut pids = std::collections::BTreeSet::new();
        for write in writes.collect::<Vec<_>>() {
            pids.insert(write.await.unwrap());
        }
        // At most that many, and in parallel; not necessarily all busy at one moment, which
        // depends on timing.
        let most = most.load(SeqCst);
        assert!((2..=POSTGRES_CONNECTIONS).contains(&most), "{most} at once");
        assert!(
            pids.len() <= POSTGRES_CONNECTIONS,
            "{} connections",
            pids.len()
        );
    }

    #[tokio::test]
    async fn postgres_writers_do_not_wait_for_each_other_here() {
        let Some(db) = testing::postgres().await else {
            return;
        };
        assert!(second_writer_starts_while_first_is_open(&db.url).await);
    }
}
