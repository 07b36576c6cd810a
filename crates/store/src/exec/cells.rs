//! Values in and out of a statement, the same for both databases: a parameter is an [`Arg`]
//! made a [`Cell`], a row is a list of cells read back with [`FromCell`]. A boolean is stored
//! as `0`/`1` in SQLite and as `BOOLEAN` in PostgreSQL; both read back as `Cell::Int`.

use crate::error::{StoreError, StoreResult};
use crate::rows::Cell;

/// A value a statement takes as a parameter.
pub trait Arg {
    fn cell(&self) -> Cell;
}

impl Arg for Cell {
    fn cell(&self) -> Cell {
        self.clone()
    }
}

impl Arg for i64 {
    fn cell(&self) -> Cell {
        Cell::Int(*self)
    }
}

impl Arg for i32 {
    fn cell(&self) -> Cell {
        Cell::Int((*self).into())
    }
}

impl Arg for u32 {
    fn cell(&self) -> Cell {
        Cell::Int((*self).into())
    }
}

impl Arg for u8 {
    fn cell(&self) -> Cell {
        Cell::Int((*self).into())
    }
}

/// A count or a limit (saturating at `i64::MAX`).
impl Arg for usize {
    fn cell(&self) -> Cell {
        Cell::Int(i64::try_from(*self).unwrap_or(i64::MAX))
    }
}

impl Arg for bool {
    fn cell(&self) -> Cell {
        Cell::Int((*self).into())
    }
}

impl Arg for f64 {
    fn cell(&self) -> Cell {
        Cell::Real(*self)
    }
}

impl Arg for str {
    fn cell(&self) -> Cell {
        Cell::Text(self.to_string())
    }
}

impl Arg for String {
    fn cell(&self) -> Cell {
        Cell::Text(self.clone())
    }
}

impl<T: Arg + ?Sized> Arg for &T {
    fn cell(&self) -> Cell {
        (**self).cell()
    }
}

impl<T: Arg> Arg for Option<T> {
    fn cell(&self) -> Cell {
        self.as_ref().map_or(Cell::Null, Arg::cell)
    }
}

/// A value read from a cell.
pub trait FromCell: Sized {
    fn from_cell(cell: &Cell) -> Result<Self, String>;
}

impl FromCell for i64 {
    fn from_cell(cell: &Cell) -> Result<i64, String> {
        match cell {
            Cell::Int(n) => Ok(*n),
            other => Err(format!("{other:?} where an integer was expected")),
        }
    }
}

/// A count: an integer that fits.
impl FromCell for u32 {
    fn from_cell(cell: &Cell) -> Result<u32, String> {
        let n = i64::from_cell(cell)?;
        u32::try_from(n).map_err(|_| format!("count {n}"))
    }
}

impl FromCell for bool {
    fn from_cell(cell: &Cell) -> Result<bool, String> {
        Ok(i64::from_cell(cell)? != 0)
    }
}

impl FromCell for f64 {
    fn from_cell(cell: &Cell) -> Result<f64, String> {
        match cell {
            Cell::Real(x) => Ok(*x),
            Cell::Int(n) => Ok(*n as f64),
            other => Err(format!("{other:?} where a number was expected")),
        }
    }
}

impl FromCell for String {
    fn from_cell(cell: &Cell) -> Result<String, String> {
        match cell {
            Cell::Text(s) => Ok(s.clone()),
            other => Err(format!("{other:?} where text was expected")),
        }
    }
}

impl<T: FromCell> FromCell for Option<T> {
    fn from_cell(cell: &Cell) -> Result<Option<T>, String> {
        match cell {
            Cell::Null => Ok(None),
            other => T::from_cell(other).map(Some),
        }
    }
}

/// One row of a query's result.
#[derive(Clone, Debug, PartialEq)]
pub struct Row(pub Vec<Cell>);

impl Row {
    /// Column `i`, read as a `T`.
    pub fn get<T: FromCell>(&self, i: usize) -> StoreResult<T> {
        let cell = self
            .0
            .get(i)
            .ok_or_else(|| StoreError::Db(format!("database: no column {i}")))?;
        T::from_cell(cell).map_err(|e| StoreError::Db(format!("database: column {i}: {e}")))
    }
}
