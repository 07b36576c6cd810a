//! What a store method can fail with, in the store's own terms: a database that failed, or a
//! refusal the store decides inside its transaction (a quota, a taken name, a game gone). The
//! server turns it into its HTTP error in one place (virada-server's `error`, `From<StoreError>`).

use std::fmt;

/// A store method's failure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreError {
    /// The database failed (driver, connection, a statement), or holds a value this build does
    /// not read; the text says which.
    Db(String),
    /// Game `.0` is gone (deleted meanwhile).
    NoGame(String),
    /// Something asked for is not stored (the text says what).
    NotFound(String),
    /// Stored game `id` does not replay.
    CorruptGame { id: String, why: String },
    /// A per-address quota is full (the text says which, for the player).
    QuotaFull(String),
    /// The username (as typed) is taken.
    UsernameTaken(String),
    /// The arena has its `max` players.
    ArenaFull { max: usize },
    /// One of the caps on new arenas (`limit` names it) is full at `max`; `what` counts it.
    TooManyArenas {
        limit: &'static str,
        max: usize,
        what: &'static str,
    },
    /// Game `.0` is run by another server instance now (its lease was lost).
    NotOwner(String),
}

/// What a store function returns.
pub type StoreResult<T> = Result<T, StoreError>;

impl StoreError {
    /// A stored value that does not read, in words.
    pub fn bad(what: impl fmt::Display) -> StoreError {
        StoreError::Db(format!("stored {what}"))
    }
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Db(m) | StoreError::NotFound(m) | StoreError::QuotaFull(m) => {
                f.write_str(m)
            }
            StoreError::NoGame(id) => write!(f, "no game with id {id:?}"),
            StoreError::CorruptGame { id, why } => write!(f, "stored game {id} is corrupt: {why}"),
            StoreError::UsernameTaken(name) => write!(f, "the username {name:?} is taken"),
            StoreError::ArenaFull { max } => write!(f, "this arena has its {max} players"),
            StoreError::TooManyArenas { max, what, .. } => write!(f, "at most {max} {what}"),
            StoreError::NotOwner(id) => write!(f, "game {id} moved to another server instance"),
        }
    }
}

impl std::error::Error for StoreError {}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> StoreError {
        StoreError::Db(format!("database: {e}"))
    }
}

impl From<tokio_postgres::Error> for StoreError {
    fn from(e: tokio_postgres::Error) -> StoreError {
        // The server's own words (e.g. `ERROR: relation ... does not exist`) say more than the
        // driver's kind of error.
        match e.as_db_error() {
            Some(db) => StoreError::Db(format!("database: {db}")),
            None => StoreError::Db(format!("database: {e}")),
        }
    }
}

impl From<deadpool_postgres::PoolError> for StoreError {
    fn from(e: deadpool_postgres::PoolError) -> StoreError {
        StoreError::Db(format!("database connection: {e}"))
    }
}
