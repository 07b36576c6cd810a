//! Depth-8 accuracy per range of empties on held-out WTHOR positions with exact scores.
//!
//! `cargo run --release -p virada-train --example accuracy_table -- <journal> <plan> [eval...]`
//!
//! `<plan>` is `E:N,E:N,...`: for each number of empties `E`, the position with `E` empties of
//! the first `N` held-out games of the gen3 split (seed 1, one game in 20) that reach it. Each
//! position is solved exactly by our endgame solver (one thread, value only) and appended to
//! `<journal>` (one line: empties, board, exact score, nodes) as soon as it is solved, so the
//! same command resumes where it stopped and a second run only reads the journal. Then every
//! solved position is searched to depth 8 (midgame search, default selectivity, no exact
//! solve, table cleared per position) with each `<eval>` (a gen3 weights file or `default`),
//! and the mean absolute error is printed per range of empties (20-22, 23-26, 27-30).
//! `--solve-only` stops after solving. Data: `../shared/data/wthor` (or `VIRADA_WTHOR`).
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use virada_engine::endgame::{solve_with_table, SolveMode, SolveOptions};
use virada_engine::tt::TranspositionTable;
use virada_engine::Gen3Eval;
use virada_train::accuracy::{self, Case};

const RANGES: [(u32, u32); 3] = [(20, 22), (23, 26), (27, 30)];

fn read_journal(path: &Path) -> HashMap<(u32, String), i32> {
    let mut out = HashMap::new();
    for line in std::fs::read_to_string(path).unwrap_or_default().lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        // A half-written last line (an interrupted append) has fewer fields: solved again.
        if f.len() == 4 {
            if let (Ok(e), Ok(s)) = (f[0].parse(), f[2].parse()) {
                out.insert((e, f[1].to_string()), s);
            }
        }
    }
    out
}

fn main() -> Result<(), String> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let solve_only = args.iter().any(|a| a == "--solve-only");
    args.retain(|a| a != "--solve-only");
    if args.len() < 2 {
        return Err("usage: accuracy_table <journal> <E:N,...> [--solve-only] [eval...]".into());
    }
    let journal = PathBuf::from(&args[0]);
    let mut plan = Vec::new();
    for part in args[1].split(',') {
        let (e, n) = part.split_once(':').ok_or(format!("{part}: not E:N"))?;
        let e: u32 = e.parse().map_err(|_| format!("{part}: bad empties"))?;
        let n: usize = n.parse().map_err(|_| format!("{part}: bad count"))?;
        plan.push((e, n));
    }
    let wthor = std::env::var("VIRADA_WTHOR").unwrap_or("../shared/data/wthor".into());
    let mut solved = read_journal(&journal);
    let eval = virada_engine::default_evaluator();
    let tt = TranspositionTable::new(64);
    let mut cases: Vec<(u32, Case)> = Vec::new();
    for &(e, n) in &plan {
        for p in accuracy::heldout_positions(Path::new(&wthor), 1, 20, e, n)? {
            let board = p.board();
            let key = (e, format!("{:016x}{:016x}", board.player, board.opponent));
            let score = match solved.get(&key) {
                Some(&s) => s,
                None => {
                    tt.clear();
                    let opts = SolveOptions {
                        mode: SolveMode::Exact,
                        threads: 1,
                        ..SolveOptions::default()
                    };
                    let r = solve_with_table(board, &opts, &tt, eval.as_ref());
                    let s = r.score.lower;
                    let mut f = std::fs::OpenOptions::new()
                        .create(true)
                        .append(true)
                        .open(&journal)
                        .map_err(|e| format!("{}: {e}", journal.display()))?;
                    writeln!(f, "{e} {} {s} {}", key.1, r.nodes)
                        .and_then(|_| f.sync_data())
                        .map_err(|e| format!("{}: {e}", journal.display()))?;
                    eprintln!("solved {e} empties: {s:+} ({} nodes)", r.nodes);
                    solved.insert(key, s);
                    s
                }
            };
            cases.push((
                e,
                Case {
                    board,
                    score,
                    best_moves: Vec::new(),
                },
            ));
        }
    }
    if solve_only {
        return Ok(());
    }
    let names: Vec<String> = if args.len() > 2 {
        args[2..].to_vec()
    } else {
        vec!["default".into()]
    };
    println!(
        "| empties | positions | {} |",
        names
            .iter()
            .map(|n| format!("MAE depth 8 {n}"))
            .collect::<Vec<_>>()
            .join(" | ")
    );
    println!("|---|---|{}", "---|".repeat(names.len()));
    let evals: Vec<Arc<Gen3Eval>> = names
        .iter()
        .map(|n| {
            if n == "default" {
                Ok(virada_engine::default_evaluator())
            } else {
                Gen3Eval::from_file(Path::new(n)).map(Arc::new)
            }
        })
        .collect::<Result<_, _>>()?;
    let mut all: Vec<Case> = Vec::new();
    for &(lo, hi) in RANGES.iter() {
        let set: Vec<Case> = cases
            .iter()
            .filter(|(e, _)| (lo..=hi).contains(e))
            .map(|(_, c)| c.clone())
            .collect();
        if set.is_empty() {
            continue;
        }
        let cells: Vec<String> = evals
            .iter()
            .map(|e| {
                let s = accuracy::measure(&set, e.clone(), 8, &format!("{lo}-{hi}"));
                format!("{:.2} (bias {:+.2})", s.mae, s.bias)
            })
            .collect();
        println!("| {lo}-{hi} | {} | {} |", set.len(), cells.join(" | "));
        all.extend(set);
    }
    let cells: Vec<String> = evals
        .iter()
        .map(|e| format!("{:.2}", accuracy::measure(&all, e.clone(), 8, "all").mae))
        .collect();
    println!("| all | {} | {} |", all.len(), cells.join(" | "));
    Ok(())
}
