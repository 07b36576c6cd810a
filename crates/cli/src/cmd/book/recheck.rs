//! `virada book recheck`: the book moves tournament players chose that the book says lose 4
//! discs or more (the review shows them as book moves with that loss, and the coach explains
//! them), searched again deeper. For each such move of a book position reached by a WTHOR game,
//! the positions after the move and after the book's best move are searched to `--depth`; where
//! the deeper loss differs from the book's by more than `--tolerance` discs the book is wrong
//! there, and with `--out` both moves take the deeper values (leaf moves of the position; a move
//! whose position is itself in the book gets that position's moves searched again), then the
//! book is negamaxed again.

use super::{open, save};
use crate::cmd::{CliError, CmdResult};
use clap::Args;
use std::collections::HashMap;
use std::path::PathBuf;
use virada_engine::book::LeafMove;
use virada_engine::{Engine, EngineConfig, Limits};
use virada_rules::formats::wthor;
use virada_rules::symmetry::canonical;
use virada_rules::{Board, Move, Position, Square};

#[derive(Args)]
pub struct RecheckArgs {
    /// The book file (Virada's format).
    pub book: PathBuf,
    /// Data directory (with wthor/).
    #[arg(long, default_value = "../shared/data")]
    pub data: PathBuf,
    /// The book's loss that makes a move a candidate (discs).
    #[arg(long, default_value_t = 4.0)]
    pub loss: f32,
    /// Depth of the searches.
    #[arg(long, default_value_t = 16)]
    pub depth: u32,
    /// Most candidates searched (the most played first).
    #[arg(long, default_value_t = 40)]
    pub limit: usize,
    /// A difference between the book's loss and the deeper one above this (discs) is wrong.
    #[arg(long, default_value_t = 3.0)]
    pub tolerance: f32,
    /// Write the corrected book here (the moves found wrong take the deeper values).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// A book position and a move players chose there, with the book's loss.
struct Candidate {
    /// The position as the game reached it.
    position: Position,
    board: Board,
    square: Square,
    best: Square,
    book_loss: f32,
    played: usize,
}

/// The mover's value of `sq` on `board` by a search of the position after it.
fn value_after(engine: &mut Engine, board: Board, sq: Square, limits: &Limits) -> (f32, u8) {
    let after = board.play_unchecked(sq);
    if after.moves() == 0 && after.pass().moves() == 0 {
        let d = after.player.count_ones() as f32 - after.opponent.count_ones() as f32;
        return (-d, 1);
    }
    let r = engine.search(after, limits, None);
    (-r.score, (r.depth + 1).min(255) as u8)
}

pub fn recheck(a: RecheckArgs) -> CmdResult {
    let mut book = open(&a.book)?;
    let dir = a.data.join("wthor");
    let mut found: HashMap<(Board, Square), Candidate> = HashMap::new();
    let mut games = 0usize;
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| CliError::input(format!("{}: {e}", dir.display())))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "wtb"))
        .collect();
    files.sort();
    for path in &files {
        let bytes =
            std::fs::read(path).map_err(|e| CliError::input(format!("{}: {e}", path.display())))?;
        let Ok(file) = wthor::read_wtb(&bytes) else {
            continue;
        };
        for record in &file.games {
            let Ok(game) = record.replay() else { continue };
            games += 1;
            let positions = game.positions();
            for (ply, mv) in game.moves().iter().enumerate() {
                let Move::Play(sq) = *mv else { continue };
                let board = positions[ply].board();
                let Some(probe) = book.probe_board(board) else {
                    break;
                };
                let (Some(best), Some(this)) = (probe.best(), probe.value_of(sq)) else {
                    continue;
                };
                let book_loss = best.value - this.value;
                if book_loss < a.loss {
                    continue;
                }
                // One candidate per canonical position and move.
                let (key, sym) = canonical(board);
                let c = found
                    .entry((key, sym.apply_square(sq)))
                    .or_insert(Candidate {
                        position: positions[ply],
                        board,
                        square: sq,
                        best: best.square,
                        book_loss,
                        played: 0,
                    });
                c.played += 1;
            }
        }
    }
    let mut list: Vec<Candidate> = found.into_values().collect();
    list.sort_by(|x, y| {
        y.played
            .cmp(&x.played)
            .then(y.book_loss.total_cmp(&x.book_loss))
            .then((x.board.player, x.square.index()).cmp(&(y.board.player, y.square.index())))
    });
    println!(
        "{games} WTHOR games; {} book moves they chose lose {:.0}+ discs by the book; searching the {} most played to depth {}",
        list.len(),
        a.loss,
        a.limit.min(list.len()),
        a.depth
    );
    let mut engine = Engine::new(EngineConfig {
        threads: 1,
        ..EngineConfig::default()
    });
    let limits = Limits::depth(a.depth);
    let mut wrong = Vec::new();
    for c in list.iter().take(a.limit) {
        engine.clear();
        let (vm, dm) = value_after(&mut engine, c.board, c.square, &limits);
        let (vb, db) = value_after(&mut engine, c.board, c.best, &limits);
        let deep_loss = vb - vm;
        let off = (deep_loss - c.book_loss).abs() > a.tolerance;
        println!(
            "{} {} played {}x: book loss {:.2} (best {}), depth-{} loss {:.2}{}",
            c.position,
            c.square,
            c.played,
            c.book_loss,
            c.best,
            a.depth,
            deep_loss,
            if off { "  WRONG" } else { "" }
        );
        if off {
            wrong.push((c, (vm, dm), (vb, db)));
        }
    }
    println!(
        "{} of {} searched differ from the book by more than {:.1} discs",
        wrong.len(),
        a.limit.min(list.len()),
        a.tolerance
    );
    let Some(out) = a.out else { return Ok(()) };
    let mut changed = 0usize;
    for (c, (vm, dm), (vb, db)) in &wrong {
        // The position's moves, with the two searched again at the deeper values.
        let Some(probe) = book.probe_board(c.board) else {
            continue;
        };
        let moves: Vec<LeafMove> = probe
            .moves
            .iter()
            .map(|m| {
                if m.square == c.square {
                    LeafMove::new(m.square, *vm, *dm, false)
                } else if m.square == c.best {
                    LeafMove::new(m.square, *vb, *db, false)
                } else {
                    // Unchanged (a move into the book keeps taking its position's value).
                    LeafMove::new(m.square, m.value, m.depth, m.exact)
                }
            })
            .collect();
        book.insert(c.board, moves);
        changed += 1;
        // A move whose position is in the book takes that position's value: search its moves
        // again too, so the deeper value is the one the negamax reads.
        for sq in [c.square, c.best] {
            let child = c.board.play_unchecked(sq);
            if book.contains(child) {
                let r = engine.analyze(child, &Limits::depth(a.depth - 1), None);
                let moves: Vec<LeafMove> = r
                    .moves
                    .iter()
                    .filter_map(|mv| {
                        let s = mv.mv.square()?;
                        Some(LeafMove::new(
                            s,
                            mv.value,
                            mv.depth.min(255) as u8,
                            mv.exact,
                        ))
                    })
                    .collect();
                if book.insert(child, moves) {
                    changed += 1;
                }
            }
        }
    }
    let renegamaxed = book.fix();
    save(&book, &out)?;
    println!(
        "{changed} entries searched again and replaced; negamax changed {renegamaxed} positions' values; written to {}",
        out.display()
    );
    Ok(())
}
