//! The PostgreSQL side of [`super::Db`]: a parameter is encoded as the type PostgreSQL infers
//! for it (a `Cell::Int` for a `BOOLEAN` column is `false`/`true`), a column is read by its type.
//!
//! Statements are prepared once per pooled connection and kept (deadpool's statement cache):
//! a statement given as text would be prepared again at every run, one more round trip to the
//! server and one more parse and plan there, which was about half the statements' cost of a
//! move (docs/SERVER.md, "Load with two instances").

use super::cells::Row;
use crate::error::{StoreError, StoreResult};
use crate::rows::Cell;
use deadpool_postgres::Transaction;
use tokio_postgres::types::{to_sql_checked, IsNull, ToSql, Type};
use tokio_postgres::Statement;

/// Most statements one connection keeps prepared. The store's texts are a few hundred at most
/// (lists of parameters for `IN (...)` vary in length, a few); beyond that the cache starts
/// afresh rather than grow.
const CACHED_STATEMENTS: usize = 512;

type BoxError = Box<dyn std::error::Error + Sync + Send>;

impl ToSql for Cell {
    fn to_sql(&self, ty: &Type, out: &mut bytes::BytesMut) -> Result<IsNull, BoxError> {
        match (self, ty) {
            (Cell::Null, _) => Ok(IsNull::Yes),
            (Cell::Int(n), &Type::INT8) => n.to_sql(ty, out),
            (Cell::Int(n), &Type::INT4) => i32::try_from(*n)?.to_sql(ty, out),
            (Cell::Int(n), &Type::INT2) => i16::try_from(*n)?.to_sql(ty, out),
            (Cell::Int(n @ (0 | 1)), &Type::BOOL) => (*n == 1).to_sql(ty, out),
            (Cell::Int(n), &Type::FLOAT8) => (*n as f64).to_sql(ty, out),
            (Cell::Real(x), &Type::FLOAT8) => x.to_sql(ty, out),
            (Cell::Real(x), &Type::FLOAT4) => (*x as f32).to_sql(ty, out),
            (Cell::Text(s), &Type::TEXT | &Type::VARCHAR | &Type::NAME) => s.to_sql(ty, out),
            (c, ty) => Err(format!("{c:?} does not fit a parameter of type {ty}").into()),
        }
    }

    fn accepts(_: &Type) -> bool {
        true
    }

    to_sql_checked!();
}

/// Cell `i` of `row`, read as its column's type (`None`: a type no table has).
pub fn cell(row: &tokio_postgres::Row, i: usize) -> Result<Option<Cell>, tokio_postgres::Error> {
    let ty = row.columns()[i].type_();
    Ok(Some(match *ty {
        Type::INT8 => row
            .try_get::<_, Option<i64>>(i)?
            .map_or(Cell::Null, Cell::Int),
        Type::INT4 => row
            .try_get::<_, Option<i32>>(i)?
            .map_or(Cell::Null, |v| Cell::Int(v.into())),
        Type::INT2 => row
            .try_get::<_, Option<i16>>(i)?
            .map_or(Cell::Null, |v| Cell::Int(v.into())),
        Type::BOOL => row
            .try_get::<_, Option<bool>>(i)?
            .map_or(Cell::Null, |v| Cell::Int(v.into())),
        Type::FLOAT8 => row
            .try_get::<_, Option<f64>>(i)?
            .map_or(Cell::Null, Cell::Real),
        Type::FLOAT4 => row
            .try_get::<_, Option<f32>>(i)?
            .map_or(Cell::Null, |v| Cell::Real(v.into())),
        Type::TEXT | Type::VARCHAR | Type::NAME => row
            .try_get::<_, Option<String>>(i)?
            .map_or(Cell::Null, Cell::Text),
        _ => return Ok(None),
    }))
}

fn refs(args: &[Cell]) -> Vec<&(dyn ToSql + Sync)> {
    args.iter().map(|a| a as &(dyn ToSql + Sync)).collect()
}

/// `sql` prepared on the transaction's connection (once: then from its cache).
async fn prepared(tx: &Transaction<'_>, sql: &str) -> StoreResult<Statement> {
    if tx.statement_cache.size() >= CACHED_STATEMENTS {
        tx.statement_cache.clear();
    }
    Ok(tx.prepare_cached(sql).await?)
}

pub async fn execute(tx: &Transaction<'_>, sql: &str, args: &[Cell]) -> StoreResult<u64> {
    let statement = prepared(tx, sql).await?;
    Ok(tx.execute(&statement, &refs(args)).await?)
}

pub async fn query(tx: &Transaction<'_>, sql: &str, args: &[Cell]) -> StoreResult<Vec<Row>> {
    let statement = prepared(tx, sql).await?;
    let rows = tx.query(&statement, &refs(args)).await?;
    let mut out = Vec::with_capacity(rows.len());
    for r in &rows {
        let mut row = Vec::with_capacity(r.len());
        for i in 0..r.len() {
            match cell(r, i)? {
                Some(c) => row.push(c),
                None => {
                    return Err(StoreError::Db(format!(
                        "database: column {i} has type {}, which the store does not read",
                        r.columns()[i].type_()
                    )))
                }
            }
        }
        out.push(Row(row));
    }
    Ok(out)
}
