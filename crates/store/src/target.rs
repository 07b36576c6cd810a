//! Which PostgreSQL database the store opens: `--db postgres://...` or a test's own schema.

/// Whether `--db` names a PostgreSQL database rather than a SQLite file.
pub fn is_postgres_url(db: &str) -> bool {
    db.starts_with("postgres://") || db.starts_with("postgresql://")
}

/// A PostgreSQL database to keep the games in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgTarget {
    /// `postgres://user[:password]@host[:port]/dbname[?param=value...]` (the parameters of
    /// libpq's connection URIs that tokio-postgres reads).
    pub url: String,
    /// The schema the tables live in (created if missing); `None`: the server's search path
    /// (`public` unless the role or database sets another). Tests give each server its own.
    pub schema: Option<String>,
}

impl PgTarget {
    /// The database of a test whose SQLite file would be `path` (the configuration's `for_tests`).
    /// Panics with what to do when `VIRADA_TEST_PG` is unset: the caller asked for PostgreSQL.
    pub fn for_test_path(path: &std::path::Path) -> PgTarget {
        let url = std::env::var(TEST_PG_VAR).ok().filter(|u| !u.is_empty());
        let Some(url) = url else {
            panic!(
                "VIRADA_TEST_STORE=postgres but {TEST_PG_VAR} is unset: run scripts/pg-test.sh \
                 (it starts a throwaway PostgreSQL and sets it), or set {TEST_PG_VAR}=postgres://..."
            );
        };
        use sha2::Digest;
        let mut h = sha2::Sha256::new();
        h.update(std::process::id().to_le_bytes());
        h.update(path.to_string_lossy().as_bytes());
        let hex: String = h.finalize()[..8]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        PgTarget {
            url,
            schema: Some(format!("t_{hex}")),
        }
    }

    /// `postgres://user@host:port/dbname` (never the password).
    pub fn describe(&self) -> String {
        let rest = self.url.split_once("://").map_or("", |(_, r)| r);
        let (auth, place) = rest.rsplit_once('@').unwrap_or(("", rest));
        let user = auth.split(':').next().unwrap_or("");
        let place = place.split('?').next().unwrap_or(place);
        let at = if user.is_empty() { "" } else { "@" };
        match &self.schema {
            Some(schema) => format!("postgres://{user}{at}{place} (schema {schema})"),
            None => format!("postgres://{user}{at}{place}"),
        }
    }
}

/// The environment variable naming the PostgreSQL server tests use.
pub const TEST_PG_VAR: &str = "VIRADA_TEST_PG";
