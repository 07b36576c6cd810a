//! A held-out accuracy set at 30-36 empties scored by deep search (issue 14): one position of
//! each held-out WTHOR game (the split of `virada train` and `virada bench accuracy`, seed 1,
//! one game in 20), at 30 + (k mod 7) empties for the k-th game, scored by a fixed-depth
//! midgame search (default selectivity, no exact solving, one thread, table cleared per
//! position) of the evaluation in `VIRADA_WEIGHTS` (default: the shipped weights).
//!
//! `cargo run --release -p virada-train --example deep_set -- <out.obf> [count] [depth]`
//!
//! Resumable: entries already in `<out.obf>` are kept and the run continues after them. Each
//! entry is an OBF line with the searched best move and its value rounded to a disc, after a
//! `%` line with its nodes; `virada bench accuracy --obf <out.obf>` reads it (MAE against
//! the deep value, best-move rate against the deep move).
use std::io::Write as _;
use std::path::Path;
use virada_engine::search::Selectivity;
use virada_engine::{Engine, EngineConfig, Limits};
use virada_rules::formats::obf::{read_obf, write_obf, ObfEntry, ObfMove};

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().collect();
    let out = Path::new(
        args.get(1)
            .ok_or("usage: deep_set <out.obf> [count] [depth]")?,
    );
    let count: usize = args
        .get(2)
        .map_or(Ok(250), |s| s.parse())
        .map_err(|e| format!("{e}"))?;
    let depth: u32 = args
        .get(3)
        .map_or(Ok(14), |s| s.parse())
        .map_err(|e| format!("{e}"))?;
    let done = match std::fs::read_to_string(out) {
        Ok(text) => read_obf(&text)
            .map_err(|e| format!("{}: {e}", out.display()))?
            .len(),
        Err(_) => 0,
    };
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(out)
        .map_err(|e| format!("{}: {e}", out.display()))?;
    let eval = virada_engine::default_evaluator();
    if done == 0 {
        writeln!(
            file,
            "% One position of each held-out WTHOR game (seed 1, 1 in 20) at 30-36 empties \
             (30 + k mod 7 for the k-th game),\n% scored by a depth-{depth} midgame search of \
             {} (default selectivity, no exact solve): best move and value.\n% Written by \
             `cargo run --release -p virada-train --example deep_set -- <file> {count} {depth}`.",
            eval.name()
        )
        .map_err(|e| e.to_string())?;
    }
    let db = virada_train::wthor::load(Path::new("../shared/data/wthor"))?;
    let mut engine = Engine::new(EngineConfig {
        tt_mb: 64,
        threads: 1,
        evaluator: eval,
    });
    let limits = Limits::midgame(depth, Selectivity::DEFAULT);
    let mut k = 0usize;
    for (i, (game, _)) in db.games.iter().enumerate() {
        if k >= count {
            break;
        }
        if !virada_train::wthor::is_held_out(i, 1, 20) {
            continue;
        }
        let Ok(played) = game.replay() else { continue };
        let empties = 30 + (k % 7) as u32;
        let Some(p) = played
            .positions()
            .iter()
            .find(|p| p.board().empty_count() == empties && p.board().moves() != 0)
            .copied()
        else {
            continue;
        };
        k += 1;
        if k <= done {
            continue;
        }
        engine.clear();
        let r = engine.search(p.board(), &limits, None);
        let mut e = ObfEntry::new(p);
        e.moves = vec![ObfMove {
            mv: r.best_move,
            score: Some(r.score.round() as i32),
        }];
        write!(
            file,
            "% held-out WTHOR game {i}, {empties} empties, value {:.2}, {} nodes\n{}",
            r.score,
            r.nodes,
            write_obf(&[e])
        )
        .map_err(|e| e.to_string())?;
        file.flush().map_err(|e| e.to_string())?;
        eprintln!(
            "{k}/{count}: game {i}, {empties} empties, {} nodes",
            r.nodes
        );
    }
    Ok(())
}
