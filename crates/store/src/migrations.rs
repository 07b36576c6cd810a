//! The schema history both stores share: entry `i` brings a database to version `i + 1`, with
//! the same tables and columns in either. Each entry is written once in PostgreSQL's spelling
//! (`BIGINT` for every integer, `DOUBLE PRECISION`, `BOOLEAN`); SQLite reads it through
//! `exec::dialect` (`INTEGER`, `REAL`, `INTEGER` 0/1). Never edit a released entry: append one.

use super::queries;

pub const MIGRATIONS: &[&str] = &[
    // v1: games as start position + moves (+ redo list), with summary columns for listing.
    "CREATE TABLE games (
        id           TEXT PRIMARY KEY,
        created_at   BIGINT NOT NULL,
        updated_at   BIGINT NOT NULL,
        mode         TEXT NOT NULL,
        level        BIGINT,
        human_color  TEXT,
        start_kind   TEXT NOT NULL,
        start_pos    TEXT NOT NULL,
        opening      TEXT,
        seed         BIGINT NOT NULL,
        moves        TEXT NOT NULL,
        redo         TEXT NOT NULL,
        status       TEXT NOT NULL,
        black_discs  BIGINT NOT NULL,
        white_discs  BIGINT NOT NULL,
        ply_count    BIGINT NOT NULL,
        transcript   TEXT NOT NULL
    );
    CREATE INDEX games_updated ON games(updated_at DESC);",
    // v2: the browser that owns each game (`BrowserId` hex; NULL: stored before owners, claimed
    // by the first local browser that opens or lists it; see `ownership`).
    "ALTER TABLE games ADD COLUMN owner TEXT;
    CREATE INDEX games_owner ON games(owner, updated_at DESC);",
    // v3 (online play): seats, holders, clocks, chat, device links, the server's heartbeat.
    queries::online::MIGRATION,
    // v4: each running clock's deadline, watched by the flag scheduler.
    "ALTER TABLE online_games ADD COLUMN flag_at BIGINT;
    CREATE INDEX online_games_flag ON online_games(flag_at);",
    // v5: the address a game was created from (the per-address caps; NULL: created before, or
    // from an address exempt from limits).
    "ALTER TABLE games ADD COLUMN created_from TEXT;
    CREATE INDEX games_created_from ON games(created_from);",
    // v6: puzzle ratings (per puzzle, per browser) and each browser's first result a puzzle.
    queries::puzzles::MIGRATION,
    // v7: accounts, sessions, game ratings and their history; whether an online game is rated.
    queries::accounts::MIGRATION,
    // v8: which instance runs each game, until when (several instances share a PostgreSQL
    // database, `postgres::cluster`; one SQLite process owns every game, so there it stays
    // empty).
    "CREATE TABLE game_leases (
        game_id    TEXT PRIMARY KEY,
        instance   TEXT NOT NULL,
        expires_at BIGINT NOT NULL
    );",
    // v9: the leases by expiry and by instance (the listener renews an instance's leases and
    // looks for expired ones every second).
    "CREATE INDEX game_leases_expiry ON game_leases(expires_at);
    CREATE INDEX game_leases_instance ON game_leases(instance);",
    // v10: players' safety: blocks, reports, the admin role, bans, chat off (`store::safety`).
    queries::safety::MIGRATION,
    // v11: arena tournaments: arenas, their players and their games (the server's `arena`).
    queries::arenas::MIGRATION,
    // v12: a game opened from a record (a file or a replay link) and the players it names
    // (JSON `{"black", "white"}`; NULL: a game played here).
    "ALTER TABLE games ADD COLUMN record_names TEXT;",
    // v13: which process holds each instance id, until when (several instances on PostgreSQL,
    // `postgres::cluster`: a second process started with a live id is refused; SQLite leaves it
    // empty).
    "CREATE TABLE live_instances (
        id         TEXT PRIMARY KEY,
        token      TEXT NOT NULL,
        expires_at BIGINT NOT NULL
    );",
    // v14: practice sets, an account's own mistakes to find again (`store::practice`).
    queries::practice::MIGRATION,
    // v15: a guest browser's practice sets, moved to the account at sign-up or sign-in.
    queries::practice::GUEST_MIGRATION,
];

/// The schema version this build writes.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;
