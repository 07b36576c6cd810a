//! The NBoard session's search thread: owns the engine, runs one job at a time (`go`, `hint`,
//! `analyze`) with a stop flag the command loop sets on `ping`, and writes the job's whole
//! output before it reports the job done (so `pong` always comes after it).

use super::{disc_value, Output};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender};
use std::sync::Arc;
use virada_engine::{BookUse, Engine, Limits};
use virada_rules::{Board, Game, Move, Position};

/// What to search.
pub enum Job {
    /// The move to play (`=== move/eval/time`).
    Go,
    /// Values of the best `n` moves (`search ...` lines).
    Hint(usize),
    /// A value for every position of the game, last first (`analysis ...` lines).
    Analyze,
}

/// A job with its position, limits, stop flag and the channel that reports it done.
pub struct Task {
    pub job: Job,
    pub game: Game,
    pub limits: Limits,
    pub stop: Arc<AtomicBool>,
    pub done: Sender<()>,
}

/// Runs tasks until the channel closes.
pub fn run(mut engine: Engine, tasks: Receiver<Task>, out: Output) {
    for task in tasks {
        match task.job {
            Job::Go => go(&mut engine, &task, &out),
            Job::Hint(n) => hint(&mut engine, &task, &out, n),
            Job::Analyze => analyze(&mut engine, &task, &out),
        }
        // The command loop may have stopped waiting (quit): nothing to tell then.
        let _ = task.done.send(());
    }
}

/// A move as NBoard writes it: `F5`, or `PA` for a pass.
pub fn nboard_move(mv: Move) -> String {
    match mv {
        Move::Play(sq) => sq.to_string().to_uppercase(),
        Move::Pass => "PA".into(),
    }
}

/// A principal variation without blanks (`F5D6C3`), starting with `first`.
fn pv_text(first: Move, pv: &[Move]) -> String {
    let mut moves = vec![first];
    if pv.first() == Some(&first) {
        moves.extend_from_slice(&pv[1..]);
    }
    moves.into_iter().map(nboard_move).collect()
}

/// The `depth` field of a `search` line: plies, or `100%` for a proven value.
fn depth_text(depth: u32, exact: bool) -> String {
    if exact {
        "100%".into()
    } else {
        depth.to_string()
    }
}

/// The final result in words, for a `status` line.
fn game_over_text(p: &Position) -> String {
    match p.result() {
        Some(r) => format!("the game is over: {r}"),
        None => "the game is over".into(),
    }
}

/// A legal move of `board`: `mv` if it is one (it always should be), else the first legal one
/// (never an illegal or missing move, whatever a stopped search left behind).
fn legal_or_first(board: &Board, mv: Move) -> Move {
    let legal = board.legal_moves();
    match mv {
        Move::Play(sq) if legal.contains(sq) => mv,
        _ => legal.first().map_or(Move::Pass, Move::Play),
    }
}

fn go(engine: &mut Engine, task: &Task, out: &Output) {
    let pos = task.game.position();
    let board = pos.board();
    out.line("status Virada is thinking");
    if pos.is_game_over() {
        out.line(&format!("status {}", game_over_text(&pos)));
        out.line("=== PA");
        return;
    }
    if board.moves() == 0 {
        out.line("status Virada must pass");
        out.line("=== PA");
        return;
    }
    // A book position: the book's best move (ties drawn by the position), no search.
    if let Some(book_move) = engine.book_move(board, BookUse::BEST, board.hash()) {
        let probe = engine.book().and_then(|b| b.probe_board(board));
        let played = book_move
            .square()
            .and_then(|sq| probe.as_ref()?.value_of(sq).copied());
        if let Some(m) = played {
            out.line(&format!(
                "book {} {} 0 {}",
                nboard_move(book_move),
                disc_value(m.value),
                depth_text(u32::from(m.depth), m.exact)
            ));
            out.line(&format!(
                "=== {}/{}/0.00",
                nboard_move(book_move),
                disc_value(m.value)
            ));
            out.line("status");
            return;
        }
    }
    let r = engine.search(board, &task.limits, Some(task.stop.clone()));
    let mv = legal_or_first(&board, r.best_move);
    let secs = r.elapsed.as_secs_f64();
    out.line(&format!(
        "search {} {} 0 {}",
        pv_text(mv, &r.pv),
        disc_value(r.score),
        depth_text(r.depth, r.exact)
    ));
    out.line(&format!("nodestats {} {secs:.2}", r.nodes));
    out.line(&format!(
        "=== {}/{}/{secs:.2}",
        nboard_move(mv),
        disc_value(r.score)
    ));
    out.line("status");
}

fn hint(engine: &mut Engine, task: &Task, out: &Output, n: usize) {
    let pos = task.game.position();
    if pos.is_game_over() {
        out.line(&format!("status {}", game_over_text(&pos)));
        return;
    }
    out.line("status Virada is analysing");
    let a = engine.analyze(pos.board(), &task.limits, Some(task.stop.clone()));
    let best = a.best().map(|m| m.mv);
    for m in a.moves.iter().take(n.max(1)) {
        let pv = if Some(m.mv) == best {
            pv_text(m.mv, &a.pv)
        } else {
            nboard_move(m.mv)
        };
        // NBoard shows book values apart from searched ones: `book` lines for the first.
        let kind = if m.book { "book" } else { "search" };
        out.line(&format!(
            "{kind} {pv} {} 0 {}",
            disc_value(m.value),
            depth_text(m.depth, m.exact)
        ));
    }
    out.line(&format!(
        "nodestats {} {:.2}",
        a.nodes,
        a.elapsed.as_secs_f64()
    ));
    out.line("status");
}

fn analyze(engine: &mut Engine, task: &Task, out: &Output) {
    out.line("status Virada is analysing the game");
    let positions = task.game.positions();
    let mut nodes = 0u64;
    let started = std::time::Instant::now();
    // Last position first: each search leaves the table warm for the position before it.
    for (ply, pos) in positions.iter().enumerate().rev() {
        if task.stop.load(Ordering::Relaxed) {
            break;
        }
        let value = match pos.result() {
            Some(r) => r.difference_for(pos.side_to_move()) as f32,
            None => {
                let r = engine.search(pos.board(), &task.limits, Some(task.stop.clone()));
                nodes += r.nodes;
                if task.stop.load(Ordering::Relaxed) {
                    // A search cut short gives no value worth showing.
                    break;
                }
                r.score
            }
        };
        out.line(&format!("analysis {ply} {}", disc_value(value)));
    }
    out.line(&format!(
        "nodestats {nodes} {:.2}",
        started.elapsed().as_secs_f64()
    ));
    out.line("status");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pv_and_depth_text() {
        let f5: Move = "f5".parse().unwrap();
        let d6: Move = "d6".parse().unwrap();
        assert_eq!(pv_text(f5, &[f5, d6, Move::Pass]), "F5D6PA");
        assert_eq!(pv_text(d6, &[f5]), "D6");
        assert_eq!(depth_text(12, false), "12");
        assert_eq!(depth_text(20, true), "100%");
        let b = Board::start();
        assert_eq!(legal_or_first(&b, Move::Pass).to_string(), "d3");
        assert_eq!(legal_or_first(&b, f5), f5);
    }
}
