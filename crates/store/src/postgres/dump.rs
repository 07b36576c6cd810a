//! Every table of a PostgreSQL database read at once and written back (`virada db copy`): one
//! snapshot to read, one transaction to write (binary `COPY`). The tables and their order are
//! `rows::TABLES`; a column's type is the database's own (`BIGINT`, `DOUBLE PRECISION`,
//! `BOOLEAN`, `TEXT`), a cell is converted to it.

use super::{reason, PgError, PgStore};
use crate::exec::postgres::cell;
use crate::rows::{
    check_counts, check_tables, not_empty, quoted, DumpResult, TableRows, TABLES, VERSION_TABLE,
};
use crate::target::PgTarget;
use tokio_postgres::binary_copy::BinaryCopyInWriter;
use tokio_postgres::types::{ToSql, Type};
use tokio_postgres::{IsolationLevel, Transaction};

fn words(db: &str) -> impl Fn(tokio_postgres::Error) -> String + '_ {
    move |e| format!("database {db}: {}", reason(&e))
}

/// A connection to `target` as it is (no migration, no schema created), for reading.
pub async fn open_existing(target: &PgTarget) -> Result<PgStore, PgError> {
    PgStore::connect(target, false)
        .await
        .map(|(store, _)| store)
}

async fn client(store: &PgStore, db: &str) -> DumpResult<deadpool_postgres::Object> {
    store
        .pool
        .get()
        .await
        .map_err(|e| format!("database {db}: {e}"))
}

async fn table_names(tx: &Transaction<'_>) -> Result<Vec<String>, tokio_postgres::Error> {
    let rows = tx
        .query(
            "SELECT table_name::text FROM information_schema.tables
             WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
             ORDER BY table_name",
            &[],
        )
        .await?;
    rows.iter().map(|r| r.try_get(0)).collect()
}

/// The schema version of the database (0: no version table).
pub async fn version(store: &PgStore, db: &str) -> DumpResult<i64> {
    let mut client = client(store, db).await?;
    let tx = client.transaction().await.map_err(words(db))?;
    let tables = table_names(&tx).await.map_err(words(db))?;
    if !tables.iter().any(|t| t == VERSION_TABLE) {
        return Ok(0);
    }
    tx.query_one(
        "SELECT COALESCE(MAX(version), 0) FROM schema_migrations",
        &[],
    )
    .await
    .and_then(|r| r.try_get(0))
    .map_err(words(db))
}

async fn columns(tx: &Transaction<'_>, table: &str) -> Result<Vec<String>, tokio_postgres::Error> {
    let rows = tx
        .query(
            "SELECT column_name::text FROM information_schema.columns
             WHERE table_schema = current_schema() AND table_name = $1
             ORDER BY ordinal_position",
            &[&table],
        )
        .await?;
    rows.iter().map(|r| r.try_get(0)).collect()
}

/// Every row of every table in [`TABLES`], read in one read-only snapshot (`REPEATABLE
/// READ`, so a consistent copy even while a server writes); refused if the database holds a
/// table not in the list.
pub async fn read_tables(store: &PgStore, db: &str) -> DumpResult<Vec<TableRows>> {
    let mut client = client(store, db).await?;
    let tx = client
        .build_transaction()
        .isolation_level(IsolationLevel::RepeatableRead)
        .read_only(true)
        .start()
        .await
        .map_err(words(db))?;
    check_tables(&table_names(&tx).await.map_err(words(db))?, db)?;
    let mut out = Vec::new();
    for table in TABLES {
        let columns = columns(&tx, table).await.map_err(words(db))?;
        let list: Vec<String> = columns.iter().map(|c| quoted(c)).collect();
        let stmt = tx
            .prepare(&format!(
                "SELECT {} FROM {}",
                list.join(", "),
                quoted(table)
            ))
            .await
            .map_err(words(db))?;
        let mut rows = Vec::new();
        for r in tx.query(&stmt, &[]).await.map_err(words(db))? {
            let mut row = Vec::with_capacity(columns.len());
            for (i, column) in columns.iter().enumerate() {
                match cell(&r, i).map_err(words(db))? {
                    Some(c) => row.push(c),
                    None => {
                        return Err(format!(
                        "{db}: column {table}.{column} has type {}, which db copy does not read",
                        r.columns()[i].type_()
                    ))
                    }
                }
            }
            rows.push(row);
        }
        out.push(TableRows {
            name: table.to_string(),
            columns,
            rows,
        });
    }
    tx.commit().await.map_err(words(db))?;
    Ok(out)
}

/// Rows per table of [`TABLES`].
async fn count_rows(tx: &Transaction<'_>, db: &str) -> DumpResult<Vec<(String, u64)>> {
    let mut out = Vec::new();
    for table in TABLES {
        let n: i64 = tx
            .query_one(&format!("SELECT COUNT(*) FROM {}", quoted(table)), &[])
            .await
            .and_then(|r| r.try_get(0))
            .map_err(words(db))?;
        out.push((table.to_string(), n as u64));
    }
    Ok(out)
}

/// Writes `tables` into the database in one transaction: refused if it holds rows, unless
/// `replace` (then they are deleted first, in the same transaction).
pub async fn write_tables(
    store: &PgStore,
    tables: &[TableRows],
    replace: bool,
    db: &str,
) -> DumpResult<()> {
    let mut client = client(store, db).await?;
    let tx = client.transaction().await.map_err(words(db))?;
    if replace {
        for table in TABLES.iter().rev() {
            tx.execute(&format!("DELETE FROM {}", quoted(table)), &[])
                .await
                .map_err(words(db))?;
        }
    } else {
        not_empty(&count_rows(&tx, db).await?, db)?;
    }
    for t in tables {
        let list: Vec<String> = t.columns.iter().map(|c| quoted(c)).collect();
        let list = list.join(", ");
        // The columns' types, as the database has them.
        let types: Vec<Type> = tx
            .prepare(&format!("SELECT {list} FROM {} LIMIT 0", quoted(&t.name)))
            .await
            .map_err(words(db))?
            .columns()
            .iter()
            .map(|c| c.type_().clone())
            .collect();
        let copy = format!(
            "COPY {} ({list}) FROM STDIN (FORMAT binary)",
            quoted(&t.name)
        );
        let sink = tx.copy_in(copy.as_str()).await.map_err(words(db))?;
        let writer = BinaryCopyInWriter::new(sink, &types);
        let mut writer = std::pin::pin!(writer);
        for row in &t.rows {
            // A cell is written as its column's type (`exec::postgres`).
            let refs: Vec<&(dyn ToSql + Sync)> =
                row.iter().map(|c| c as &(dyn ToSql + Sync)).collect();
            writer
                .as_mut()
                .write(&refs)
                .await
                .map_err(|e| format!("{db}: a row of {}: {}", t.name, reason(&e)))?;
        }
        writer
            .finish()
            .await
            .map_err(|e| format!("{db}: table {}: {}", t.name, reason(&e)))?;
    }
    check_counts(tables, &count_rows(&tx, db).await?, db)?;
    tx.commit().await.map_err(words(db))?;
    Ok(())
}
