//! Search accuracy benchmark: fixed-depth searches with different evaluations on positions whose
//! exact value (and, when known, exact best moves) is known.

use crate::progress::Progress;
use crate::wthor;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};
use virada_engine::endgame::{solve_with_table, SolveMode, SolveOptions};
use virada_engine::eval::gen3::state::Gen3State;
use virada_engine::eval::Gen3Eval;
use virada_engine::search::Selectivity;
use virada_engine::tt::TranspositionTable;
use virada_engine::{Engine, EngineConfig, Limits};
use virada_rules::formats::obf::read_obf;
use virada_rules::formats::obf::{write_obf, ObfEntry, ObfMove};
use virada_rules::movegen::flips;
use virada_rules::{Board, Move, Position, Square};

/// A position with its exact value.
#[derive(Clone, Debug)]
pub struct Case {
    pub board: Board,
    /// Exact WOF score for the side to move.
    pub score: i32,
    /// The moves that reach `score`, if known (empty = unknown).
    pub best_moves: Vec<Move>,
}

/// The 24-empty positions of the first `count` held-out WTHOR games (same split as training
/// with `seed`), with the theoretical score of the record.
pub fn wthor_cases(dir: &Path, seed: u64, one_in: u64, count: usize) -> Result<Vec<Case>, String> {
    let db = wthor::load(dir)?;
    let mut out = Vec::new();
    for (i, (game, depth)) in db.games.iter().enumerate() {
        if out.len() >= count {
            break;
        }
        if !wthor::is_held_out(i, seed, one_in) {
            continue;
        }
        if let Some((board, score)) = wthor::theoretical_position(game, *depth) {
            out.push(Case {
                board,
                score: score as i32,
                best_moves: Vec::new(),
            });
        }
    }
    Ok(out)
}

/// The positions of an OBF file that list scored moves.
pub fn obf_cases(path: &Path) -> Result<Vec<Case>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let entries = read_obf(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(entries
        .into_iter()
        .filter_map(|e| {
            Some(Case {
                board: e.position.board(),
                score: e.best_score()?,
                best_moves: e.best_moves(),
            })
        })
        .collect())
}

/// Results of one evaluation at one depth on one set.
#[derive(Clone, Debug, Default)]
pub struct Score {
    pub positions: usize,
    /// Mean |search value - exact value| in discs.
    pub mae: f64,
    /// Mean (search value - exact value) in discs, both for the side to move: a systematic
    /// error, e.g. an evaluation that under- or overrates having the move shows as a bias that
    /// changes sign between odd and even depths.
    pub bias: f64,
    /// Share of positions (with known best moves) where the search chose a best move.
    pub best_move_rate: Option<f64>,
    pub nodes: u64,
    pub seconds: f64,
}

/// Searches every case to `depth` (midgame search, the default selectivity, never an exact
/// solve) with `eval`, one thread, table cleared per position (deterministic node counts).
pub fn measure(cases: &[Case], eval: Arc<Gen3Eval>, depth: u32, label: &str) -> Score {
    let mut engine = Engine::new(EngineConfig {
        tt_mb: 32,
        threads: 1,
        evaluator: eval,
    });
    let limits = Limits::midgame(depth, Selectivity::DEFAULT);
    let progress = Progress::new(label, cases.len() as u64);
    let mut s = Score::default();
    let (mut err, mut signed, mut hits, mut known) = (0.0, 0.0, 0usize, 0usize);
    for c in cases {
        engine.clear();
        let r = engine.search(c.board, &limits, None);
        err += (r.score as f64 - c.score as f64).abs();
        signed += r.score as f64 - c.score as f64;
        if !c.best_moves.is_empty() {
            known += 1;
            if c.best_moves.contains(&r.best_move) {
                hits += 1;
            }
        }
        s.nodes += r.nodes;
        s.seconds += r.elapsed.as_secs_f64();
        progress.inc(1);
    }
    progress.finish();
    s.positions = cases.len();
    s.mae = err / cases.len().max(1) as f64;
    s.bias = signed / cases.len().max(1) as f64;
    s.best_move_rate = (known > 0).then(|| hits as f64 / known as f64);
    s
}

/// Cost of evaluation inside a tree walk: every position to `depth` plies below each root is
/// visited (as a full-width search would) and every leaf evaluated. Returns nanoseconds per
/// leaf for: the evaluation from scratch, the evaluation with incremental indices
/// ([`Gen3State`] updated at every move), and the walk without any evaluation; and the leaf
/// count.
pub fn eval_speed(roots: &[Board], depth: u32, eval: &Gen3Eval) -> ([f64; 3], u64) {
    fn walk(b: Board, d: u32, leaf: &mut dyn FnMut(&Board)) {
        let m = b.moves();
        if d == 0 || m == 0 {
            leaf(&b);
            return;
        }
        let mut mm = m;
        while mm != 0 {
            let sq = Square::lowest_of(mm);
            mm &= mm - 1;
            walk(b.play_unchecked(sq), d - 1, leaf);
        }
    }
    fn walk_state(b: Board, st: Gen3State, d: u32, leaf: &mut dyn FnMut(&Board, &Gen3State)) {
        let m = b.moves();
        if d == 0 || m == 0 {
            leaf(&b, &st);
            return;
        }
        let mut mm = m;
        while mm != 0 {
            let sq = Square::lowest_of(mm);
            mm &= mm - 1;
            let flips = flips(b.player, b.opponent, sq.index());
            walk_state(b.play_flips(sq, flips), st.play(sq, flips), d - 1, leaf);
        }
    }
    eval.build_all_phases();
    let mut leaves = 0u64;
    let mut sink = 0i64;
    let mut times = [0f64; 3];
    for (i, t) in times.iter_mut().enumerate() {
        let start = Instant::now();
        let mut n = 0u64;
        for &r in roots {
            match i {
                0 => walk(r, depth, &mut |b| {
                    n += 1;
                    sink += eval.evaluate(b) as i64;
                }),
                1 => walk_state(r, Gen3State::new(&r), depth, &mut |b, s| {
                    n += 1;
                    sink += eval.evaluate_indices(b, s.indices()) as i64;
                }),
                _ => walk(r, depth, &mut |b| {
                    n += 1;
                    sink += b.player as i64 & 1;
                }),
            }
        }
        *t = start.elapsed().as_nanos() as f64 / n.max(1) as f64;
        leaves = n;
    }
    std::hint::black_box(sink);
    (times, leaves)
}

/// Our exact solver against known exact scores (the WTHOR theoretical scores): for each case,
/// (solver score, expected score, nodes, seconds).
pub fn solver_check(cases: &[Case]) -> Vec<(i32, i32, u64, f64)> {
    let eval = virada_engine::default_evaluator();
    let tt = TranspositionTable::new(64);
    let progress = Progress::new("solver check", cases.len() as u64);
    let out = cases
        .iter()
        .map(|c| {
            tt.clear();
            let opts = SolveOptions {
                mode: SolveMode::Exact,
                threads: 1,
                ..SolveOptions::default()
            };
            let r = solve_with_table(c.board, &opts, &tt, eval.as_ref());
            progress.inc(1);
            (r.score.lower, c.score, r.nodes, r.elapsed.as_secs_f64())
        })
        .collect();
    progress.finish();
    out
}

/// The position with `empties` empty squares (and a legal move) of each of the first `count`
/// held-out WTHOR games that reach it.
pub fn heldout_positions(
    dir: &Path,
    seed: u64,
    one_in: u64,
    empties: u32,
    count: usize,
) -> Result<Vec<Position>, String> {
    let db = wthor::load(dir)?;
    let mut positions = Vec::new();
    for (i, (game, _)) in db.games.iter().enumerate() {
        if positions.len() >= count {
            break;
        }
        if !wthor::is_held_out(i, seed, one_in) {
            continue;
        }
        let Ok(played) = game.replay() else { continue };
        if let Some(p) = played
            .positions()
            .iter()
            .find(|p| p.board().empty_count() == empties && p.board().moves() != 0)
        {
            positions.push(*p);
        }
    }
    Ok(positions)
}

/// A benchmark file of positions with every move solved: the position with `empties` empty
/// squares of each of the first `count` held-out WTHOR games that reach it, in OBF (best move
/// first). Solved once with our exact solver and stored, so later runs only read it.
pub fn make_benchmark(
    dir: &Path,
    seed: u64,
    one_in: u64,
    empties: u32,
    count: usize,
) -> Result<String, String> {
    let positions = heldout_positions(dir, seed, one_in, empties, count)?;
    let eval = virada_engine::default_evaluator();
    let tt = TranspositionTable::new(64);
    let progress = Progress::new(
        format!("solve {empties}-empty benchmark"),
        positions.len() as u64,
    );
    let mut entries = Vec::new();
    for p in positions {
        tt.clear();
        let opts = SolveOptions {
            mode: SolveMode::Exact,
            all_moves: true,
            threads: 1,
            ..SolveOptions::default()
        };
        let r = solve_with_table(p.board(), &opts, &tt, eval.as_ref());
        let mut moves: Vec<ObfMove> = r
            .move_scores
            .iter()
            .map(|(mv, s)| ObfMove {
                mv: *mv,
                score: Some(s.lower),
            })
            .collect();
        moves.sort_by_key(|m| std::cmp::Reverse(m.score));
        let mut e = ObfEntry::new(p);
        e.moves = moves;
        entries.push(e);
        progress.inc(1);
    }
    progress.finish();
    Ok(write_obf(&entries))
}

/// Value (discs, side to move's view) of a fixed-depth midgame search of `board`, passing
/// first if the side to move has no move.
fn searched_value(engine: &mut Engine, board: Board, depth: u32) -> f32 {
    if board.moves() == 0 {
        let passed = board.pass();
        if passed.moves() == 0 {
            return board.final_score() as f32;
        }
        return -searched_value(engine, passed, depth);
    }
    engine.clear();
    let limits = Limits::midgame(depth, Selectivity::DEFAULT);
    engine.search(board, &limits, None).score
}

/// How [`make_best_move_benchmark`] looks for moves that tie with the solver's best move.
#[derive(Clone, Copy, Debug)]
pub struct RivalCheck {
    /// Depth of the midgame search that ranks the other moves.
    pub depth: u32,
    /// Moves whose searched value is within this many discs of the best searched value are
    /// solved exactly too...
    pub margin: f32,
    /// ...at most this many of them...
    pub max_rivals: usize,
    /// ...each within this time (a solve that does not finish leaves the move out).
    pub time_limit: Duration,
}

/// A benchmark file for positions too deep to solve every move: the position with `empties`
/// empties of the held-out WTHOR games numbered `games` (counting those that reach it), its exact score and best move from
/// one exact solve, plus the exact scores of the other moves a midgame search ranks close to the
/// best (see [`RivalCheck`]); a rival scoring the same is a best move too. Moves far behind in
/// the search are not listed (so a search choosing one counts as a miss: none of them is
/// expected to tie). Each entry (OBF text preceded by a `%` comment with its solve time and
/// nodes) is passed to `sink` as soon as it is solved, so a long run keeps what it has done.
pub fn make_best_move_benchmark(
    dir: &Path,
    seed: u64,
    one_in: u64,
    empties: u32,
    games: std::ops::Range<usize>,
    rivals: &RivalCheck,
    sink: &mut dyn FnMut(&str) -> Result<(), String>,
) -> Result<(), String> {
    let skip = games.start;
    let positions = heldout_positions(dir, seed, one_in, empties, games.end)?;
    let eval = virada_engine::default_evaluator();
    let tt = TranspositionTable::new(128);
    let mut engine = Engine::new(EngineConfig {
        tt_mb: 16,
        threads: 1,
        evaluator: eval.clone(),
    });
    let progress = Progress::new(
        format!("solve {empties}-empty benchmark (best move and rivals)"),
        positions.len().saturating_sub(skip) as u64,
    );
    for (k, p) in positions.into_iter().enumerate().skip(skip) {
        let board = p.board();
        tt.clear();
        let opts = SolveOptions {
            mode: SolveMode::Exact,
            threads: 1,
            ..SolveOptions::default()
        };
        let root = solve_with_table(board, &opts, &tt, eval.as_ref());
        let (Some(score), Some(&best)) = (root.score.value(), root.best_moves.first()) else {
            return Err(format!("position {k}: the solve did not finish"));
        };
        let mut nodes = root.nodes;
        let mut seconds = root.elapsed.as_secs_f64();
        let mut moves = vec![ObfMove {
            mv: best,
            score: Some(score),
        }];
        // Rank the moves by a midgame search; solve the children of those close to the best.
        let mut ranked: Vec<(f32, Move, Board)> = Vec::new();
        let mut m = board.moves();
        while m != 0 {
            let sq = Square::lowest_of(m);
            m &= m - 1;
            let child = board.play_unchecked(sq);
            let v = -searched_value(&mut engine, child, rivals.depth);
            ranked.push((v, Move::Play(sq), child));
        }
        ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
        let top = ranked.first().map_or(0.0, |r| r.0);
        for (_, mv, child) in ranked
            .into_iter()
            .filter(|r| r.1 != best && r.0 >= top - rivals.margin)
            .take(rivals.max_rivals)
        {
            let opts = SolveOptions {
                time_limit: Some(rivals.time_limit),
                ..opts.clone()
            };
            let r = solve_with_table(child, &opts, &tt, eval.as_ref());
            nodes += r.nodes;
            seconds += r.elapsed.as_secs_f64();
            if let Some(child_score) = r.score.value().filter(|_| r.complete) {
                moves.push(ObfMove {
                    mv,
                    score: Some(-child_score),
                });
            }
        }
        moves.sort_by_key(|m| std::cmp::Reverse(m.score));
        let mut text = format!(
            "% held-out WTHOR position {k}: {} moves solved, {nodes} nodes, {seconds:.1} s\n",
            moves.len()
        );
        let mut e = ObfEntry::new(p);
        e.moves = moves;
        text.push_str(&write_obf(&[e]));
        sink(&text)?;
        progress.inc(1);
    }
    progress.finish();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use virada_engine::eval::gen3::weights::Gen3Weights;

    /// Six positions with 35-40 empties along a fixed line of moves.
    fn cases() -> Vec<Case> {
        let mut b = Board::start();
        let mut out = Vec::new();
        let mut k = 0usize;
        while out.len() < 6 && b.empty_count() > 20 {
            let moves: Vec<Square> = virada_rules::Bitboard(b.moves()).iter().collect();
            if moves.is_empty() {
                b = b.pass();
                continue;
            }
            b = b.play_unchecked(moves[k % moves.len()]);
            k += 7;
            if b.empty_count() <= 40 {
                out.push(Case {
                    board: b,
                    score: 0,
                    best_moves: Vec::new(),
                });
            }
        }
        out
    }

    #[test]
    fn bias_is_the_signed_mean_error_and_moves_with_the_labels() {
        let eval = Arc::new(Gen3Eval::new(Gen3Weights::zeros("flat", 100)));
        let base = cases();
        assert_eq!(base.len(), 6);
        let a = measure(&base, eval.clone(), 3, "test");
        let shifted: Vec<Case> = base
            .iter()
            .map(|c| Case {
                score: c.score + 5,
                ..c.clone()
            })
            .collect();
        let b = measure(&shifted, eval, 3, "test");
        assert!((a.bias - b.bias - 5.0).abs() < 1e-9, "{a:?} {b:?}");
        assert!(a.mae >= a.bias.abs() && b.mae >= b.bias.abs());
        assert_eq!(a.nodes, b.nodes);
    }
}
