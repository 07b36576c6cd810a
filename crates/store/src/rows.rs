//! Every stored row in a form both stores read and write: what `virada db copy` moves from one
//! store to the other (`super::admin`). Each store reads its tables into [`TableRows`] and
//! writes them back in its own dialect (`sqlite::dump`, `postgres::dump`).

/// The tables `db copy` moves, in an order that satisfies their foreign keys (`games` first).
/// Every table of the schema is here or in [`NOT_COPIED`]: a copy refuses a source holding a
/// table in neither, so a migration that adds a table must add it to one of them (the
/// round-trip test in `tests/db_copy.rs` compares every table).
pub const TABLES: &[&str] = &[
    "games",
    "online_games",
    "online_holders",
    "online_chat",
    "device_links",
    "server_alive",
    "accounts",
    "sessions",
    "ratings",
    "rating_history",
    "puzzle_ratings",
    "puzzle_solvers",
    "puzzle_results",
    "blocks",
    "reports",
    "chat_off_games",
    "arenas",
    "arena_players",
    "arena_games",
    "practice_sets",
    "guest_practice_sets",
];

/// The table each store keeps its schema version in.
pub const VERSION_TABLE: &str = "schema_migrations";

/// The tables a copy knows and leaves behind: the schema version (the target has its own) and
/// the game leases of running instances (`game_leases`: who runs a game now means nothing in
/// another database; its instances take their games afresh), and which process holds each
/// instance id (`live_instances`, as little).
pub const NOT_COPIED: &[&str] = &[VERSION_TABLE, "game_leases", "live_instances"];

/// One stored value. A PostgreSQL `BOOLEAN` is `Int(0)` or `Int(1)`, as SQLite stores it.
#[derive(Clone, Debug, PartialEq)]
pub enum Cell {
    Null,
    Int(i64),
    Real(f64),
    Text(String),
}

/// Every row of one table, each cell in the order of `columns`.
#[derive(Clone, Debug, PartialEq)]
pub struct TableRows {
    pub name: String,
    pub columns: Vec<String>,
    pub rows: Vec<Vec<Cell>>,
}

/// A failure of a copy, in words for the operator.
pub type DumpResult<T> = Result<T, String>;

/// `name` quoted as an SQL identifier (both dialects read `"name"` alike).
pub fn quoted(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// The tables of a source that `db copy` does not know (`found`: the source's tables).
pub fn unknown_tables(found: &[String]) -> Vec<String> {
    found
        .iter()
        .filter(|t| !NOT_COPIED.contains(&t.as_str()) && !TABLES.contains(&t.as_str()))
        .cloned()
        .collect()
}

/// Refuses a source with a table this build does not copy, or without one it does.
pub fn check_tables(found: &[String], db: &str) -> DumpResult<()> {
    let unknown = unknown_tables(found);
    if !unknown.is_empty() {
        return Err(format!(
            "{db} holds tables this virada does not know how to copy ({}); \
             use the virada that wrote it",
            unknown.join(", ")
        ));
    }
    let missing: Vec<&str> = TABLES
        .iter()
        .copied()
        .filter(|t| !found.iter().any(|f| f == t))
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "{db} lacks the tables {} of its schema version",
            missing.join(", ")
        ));
    }
    Ok(())
}

/// The refusal of a target that already holds rows (`counts`: rows per table).
pub fn not_empty(counts: &[(String, u64)], db: &str) -> DumpResult<()> {
    let held: Vec<String> = counts
        .iter()
        .filter(|(_, n)| *n > 0)
        .map(|(t, n)| format!("{t} {n}"))
        .collect();
    if held.is_empty() {
        return Ok(());
    }
    Err(format!(
        "{db} is not empty ({}): copy into an empty database, or pass --replace to delete \
         its rows first",
        held.join(", ")
    ))
}

/// Checks that the target now holds as many rows as were copied.
pub fn check_counts(copied: &[TableRows], counts: &[(String, u64)], db: &str) -> DumpResult<()> {
    for t in copied {
        let found = counts
            .iter()
            .find(|(name, _)| *name == t.name)
            .map_or(0, |c| c.1);
        if found != t.rows.len() as u64 {
            return Err(format!(
                "{db}: table {} holds {found} rows after copying {}",
                t.name,
                t.rows.len()
            ));
        }
    }
    Ok(())
}
