//! Shared test helpers: databases on both backends, temporary directories.

use std::io::Write as _;
use std::path::PathBuf;
use std::sync::Once;
use std::sync::atomic::{AtomicU32, Ordering};

use sqlx::Executor as _;
use tavern::storage::{Storage, StorageOptions};

static COUNTER: AtomicU32 = AtomicU32::new(0);
static SKIP_NOTICE: Once = Once::new();

/// A directory of its own for one test, removed when dropped.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let path =
            std::env::temp_dir().join(format!("tavern-test-{}-{}-{tag}", std::process::id(), n));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).expect("create a temporary directory");
        TempDir(path)
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A migrated SQLite database in a fresh file.
pub async fn sqlite_storage(dir: &TempDir) -> Storage {
    sqlite_storage_at(&dir.path("test.db")).await
}

/// A migrated SQLite database at `path`.
pub async fn sqlite_storage_at(path: &std::path::Path) -> Storage {
    sqlite_storage_with(path, &StorageOptions::default()).await
}

/// A migrated SQLite database at `path`, opened with `options`.
pub async fn sqlite_storage_with(path: &std::path::Path, options: &StorageOptions) -> Storage {
    let url = tavern::storage::sqlite_url_for_path(&path.to_string_lossy());
    Storage::open(&url, options).await.expect("open SQLite")
}

/// A fresh PostgreSQL schema of its own, dropped by [`PgSchema::drop_schema`].
pub struct PgSchema {
    base_url: String,
    name: String,
    /// The base URL with the schema as its search path.
    url: String,
}

impl PgSchema {
    /// Another pool on the same schema, as a second process would open.
    pub async fn open(&self) -> Storage {
        Storage::open(&self.url, &pg_options())
            .await
            .expect("open PostgreSQL")
    }

    /// The URL a process configured for this schema would use.
    pub fn url(&self) -> &str {
        &self.url
    }

    pub async fn drop_schema(self) {
        if let Ok(pool) = sqlx::AnyPool::connect(&self.base_url).await {
            let _ = pool
                .execute(format!("DROP SCHEMA IF EXISTS {} CASCADE", self.name).as_str())
                .await;
            pool.close().await;
        }
    }
}

/// A migrated PostgreSQL database in a schema of its own, or `None` (with a visible
/// line) when `TAVERN_TEST_POSTGRES` is not set.
pub async fn postgres_storage(tag: &str) -> Option<(Storage, PgSchema)> {
    let Ok(base_url) = std::env::var("TAVERN_TEST_POSTGRES") else {
        SKIP_NOTICE.call_once(|| {
            // Written past the test harness' capture so that it shows in every run.
            let _ = writeln!(
                std::io::stderr(),
                "skipped: TAVERN_TEST_POSTGRES not set (the PostgreSQL storage tests did not run)"
            );
        });
        return None;
    };
    sqlx::any::install_default_drivers();
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let name = format!(
        "tavern_test_{}_{}_{}",
        std::process::id(),
        n,
        tag.to_lowercase()
    );
    let pool = sqlx::AnyPool::connect(&base_url)
        .await
        .expect("connect to TAVERN_TEST_POSTGRES");
    pool.execute(format!("DROP SCHEMA IF EXISTS {name} CASCADE").as_str())
        .await
        .expect("drop an old schema");
    pool.execute(format!("CREATE SCHEMA {name}").as_str())
        .await
        .expect("create a schema");
    pool.close().await;
    let separator = if base_url.contains('?') { '&' } else { '?' };
    let url = format!("{base_url}{separator}options=-c%20search_path%3D{name}");
    let storage = Storage::open(&url, &pg_options())
        .await
        .expect("open PostgreSQL");
    Some((
        storage,
        PgSchema {
            base_url,
            name,
            url,
        },
    ))
}

fn pg_options() -> StorageOptions {
    StorageOptions {
        max_connections: 4,
        ..StorageOptions::default()
    }
}

/// Runs one async storage test on SQLite and on PostgreSQL (when configured), as two
/// test functions so they run in parallel and fail separately.
#[macro_export]
macro_rules! on_both_backends {
    ($name:ident) => {
        mod $name {
            #[tokio::test]
            async fn sqlite() {
                let dir = $crate::support::TempDir::new(stringify!($name));
                let storage = $crate::support::sqlite_storage(&dir).await;
                super::$name(storage.clone()).await;
                storage.close().await;
            }

            #[tokio::test]
            async fn postgres() {
                let Some((storage, schema)) =
                    $crate::support::postgres_storage(stringify!($name)).await
                else {
                    return;
                };
                super::$name(storage.clone()).await;
                storage.close().await;
                schema.drop_schema().await;
            }
        }
    };
}
