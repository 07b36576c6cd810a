//! Every table of a SQLite file read at once and written back (`virada db copy`), blocking
//! functions of a connection. The tables and their order are `rows::TABLES`.

use crate::exec::sqlite::cell;
use crate::rows::{
    check_counts, check_tables, not_empty, quoted, DumpResult, TableRows, TABLES, VERSION_TABLE,
};
use rusqlite::{Connection, OpenFlags};
use std::path::Path;

fn words(db: &Path) -> impl Fn(rusqlite::Error) -> String + '_ {
    move |e| format!("database {}: {e}", db.display())
}

/// Opens the existing file `path` as it is: no migration, and no new file when it is missing.
pub fn open_existing(path: &Path) -> DumpResult<Connection> {
    if !path.is_file() {
        return Err(format!("database {}: no such file", path.display()));
    }
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(words(path))?;
    conn.busy_timeout(std::time::Duration::from_secs(5))
        .map_err(words(path))?;
    Ok(conn)
}

/// Opens the file `path` to write into (it exists: the store made it), foreign keys on and
/// every commit fsynced, as the store does.
pub fn open_target(path: &Path) -> DumpResult<Connection> {
    let conn = open_existing(path)?;
    conn.execute_batch("PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;")
        .map_err(words(path))?;
    Ok(conn)
}

/// The tables of the file (SQLite's own left out).
fn table_names(conn: &Connection) -> rusqlite::Result<Vec<String>> {
    let mut stmt = conn.prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
         ORDER BY name",
    )?;
    let names = stmt.query_map([], |r| r.get(0))?.collect();
    names
}

/// The schema version of the file (0: no version table).
pub fn version(conn: &Connection, db: &Path) -> DumpResult<i64> {
    let tables = table_names(conn).map_err(words(db))?;
    if !tables.iter().any(|t| t == VERSION_TABLE) {
        return Ok(0);
    }
    conn.query_row(
        "SELECT COALESCE(MAX(version), 0) FROM schema_migrations",
        [],
        |r| r.get(0),
    )
    .map_err(words(db))
}

fn columns(conn: &Connection, table: &str) -> rusqlite::Result<Vec<String>> {
    let mut stmt = conn.prepare(&format!("PRAGMA table_info({})", quoted(table)))?;
    let names = stmt.query_map([], |r| r.get::<_, String>(1))?.collect();
    names
}

/// Every row of every table in [`TABLES`], read in one transaction (one snapshot, even while
/// a server writes); refused if the file holds a table not in the list.
pub fn read_tables(conn: &mut Connection, db: &Path) -> DumpResult<Vec<TableRows>> {
    let name = db.display().to_string();
    let tx = conn.transaction().map_err(words(db))?;
    check_tables(&table_names(&tx).map_err(words(db))?, &name)?;
    let mut out = Vec::new();
    for table in TABLES {
        let columns = columns(&tx, table).map_err(words(db))?;
        let list: Vec<String> = columns.iter().map(|c| quoted(c)).collect();
        let mut stmt = tx
            .prepare(&format!(
                "SELECT {} FROM {}",
                list.join(", "),
                quoted(table)
            ))
            .map_err(words(db))?;
        let mut rows = Vec::new();
        let mut query = stmt.query([]).map_err(words(db))?;
        while let Some(r) = query.next().map_err(words(db))? {
            let mut row = Vec::with_capacity(columns.len());
            for (i, column) in columns.iter().enumerate() {
                let value = r.get_ref(i).map_err(words(db))?;
                row.push(cell(value).map_err(|e| format!("{name}: {table}.{column} holds {e}"))?);
            }
            rows.push(row);
        }
        out.push(TableRows {
            name: table.to_string(),
            columns,
            rows,
        });
    }
    Ok(out)
}

/// Rows per table of [`TABLES`].
pub fn count_rows(conn: &Connection, db: &Path) -> DumpResult<Vec<(String, u64)>> {
    let mut out = Vec::new();
    for table in TABLES {
        let n: i64 = conn
            .query_row(
                &format!("SELECT COUNT(*) FROM {}", quoted(table)),
                [],
                |r| r.get(0),
            )
            .map_err(words(db))?;
        out.push((table.to_string(), n as u64));
    }
    Ok(out)
}

/// Writes `tables` into the file in one transaction: refused if it holds rows, unless
/// `replace` (then they are deleted first, in the same transaction).
pub fn write_tables(
    conn: &mut Connection,
    tables: &[TableRows],
    replace: bool,
    db: &Path,
) -> DumpResult<()> {
    let name = db.display().to_string();
    let tx = conn.transaction().map_err(words(db))?;
    if replace {
        for table in TABLES.iter().rev() {
            tx.execute(&format!("DELETE FROM {}", quoted(table)), [])
                .map_err(words(db))?;
        }
    } else {
        not_empty(&count_rows(&tx, db)?, &name)?;
    }
    for t in tables {
        let columns: Vec<String> = t.columns.iter().map(|c| quoted(c)).collect();
        let marks: Vec<String> = (1..=columns.len()).map(|i| format!("?{i}")).collect();
        let mut stmt = tx
            .prepare(&format!(
                "INSERT INTO {} ({}) VALUES ({})",
                quoted(&t.name),
                columns.join(", "),
                marks.join(", ")
            ))
            .map_err(words(db))?;
        for row in &t.rows {
            stmt.execute(rusqlite::params_from_iter(row))
                .map_err(|e| format!("{name}: a row of {}: {e}", t.name))?;
        }
    }
    check_counts(tables, &count_rows(&tx, db)?, &name)?;
    tx.commit().map_err(words(db))?;
    Ok(())
}
