//! Summary figures of a book (`virada book info`).

use super::Book;
use std::fmt;

/// Counts and distributions of a book.
#[derive(Clone, Debug, PartialEq)]
pub struct BookInfo {
    /// Positions.
    pub positions: usize,
    /// Searched moves over all positions.
    pub moves: usize,
    /// Moves whose position is in the book too (the book's links).
    pub links: usize,
    /// `by_ply[p]`: positions with `p` discs played beyond the start's 4 (ply from the start).
    pub by_ply: Vec<usize>,
    /// `by_search_depth[d]`: positions whose shallowest searched move has depth `d`.
    pub by_search_depth: Vec<usize>,
    /// Size of the book in Virada's format, in bytes.
    pub file_bytes: usize,
    /// Negamax value of the start position, if it is in the book (discs).
    pub start_value: Option<f32>,
}

impl BookInfo {
    pub(super) fn of(book: &Book) -> BookInfo {
        let mut by_ply = Vec::new();
        let mut by_depth = Vec::new();
        let mut moves = 0;
        let mut links = 0;
        for (key, e) in book.iter() {
            let ply = 60 - key.empty_count() as usize;
            bump(&mut by_ply, ply);
            bump(&mut by_depth, e.search_depth() as usize);
            moves += e.moves.len();
            links += e
                .moves
                .iter()
                .filter(|m| book.move_value(*key, m).3)
                .count();
        }
        BookInfo {
            positions: book.len(),
            moves,
            links,
            by_ply,
            by_search_depth: by_depth,
            file_bytes: book.to_bytes().len(),
            start_value: book
                .probe_board(virada_rules::Board::start())
                .map(|p| p.value),
        }
    }
}

fn bump(v: &mut Vec<usize>, i: usize) {
    if v.len() <= i {
        v.resize(i + 1, 0);
    }
    v[i] += 1;
}

impl fmt::Display for BookInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "positions     {}", self.positions)?;
        writeln!(
            f,
            "moves         {} searched, {} leading to book positions",
            self.moves, self.links
        )?;
        writeln!(f, "file size     {} bytes", self.file_bytes)?;
        match self.start_value {
            Some(v) => writeln!(f, "start value   {v:+.2}")?,
            None => writeln!(f, "start value   (start position not in the book)")?,
        }
        writeln!(f, "positions by ply (moves from the start):")?;
        for (ply, n) in self.by_ply.iter().enumerate().filter(|(_, n)| **n > 0) {
            writeln!(f, "  ply {ply:2}  {n}")?;
        }
        writeln!(f, "positions by search depth:")?;
        for (d, n) in self
            .by_search_depth
            .iter()
            .enumerate()
            .filter(|(_, n)| **n > 0)
        {
            writeln!(f, "  depth {d:2}  {n}")?;
        }
        Ok(())
    }
}
