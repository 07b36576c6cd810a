//! `virada bench probcut`: how Multi-ProbCut's depth pairs behave in the searches the engine
//! actually plays (the diagnosis of docs/STRENGTH.md). Each position gets one move search
//! limited by nodes, as in a node-limited match; every probe is counted by deep depth and range
//! of empty squares, and a sample of the cuts is checked against a search of the cut node to
//! the full depth at the same selectivity (the node's value without its own cut): a cut is wrong
//! when that value falls on the other side of the bound the cut returned.

use super::solve_input::read_obf_file;
use super::{CliError, CmdResult};
use clap::Args;
use std::path::PathBuf;
use std::sync::Arc;
use virada_engine::eval::mpc::shallow_depth;
use virada_engine::eval::SCALE;
use virada_engine::search::probcut_log::{CutSide, ProbcutLog, EMPTIES_WIDTH};
use virada_engine::{default_evaluator, Engine, EngineConfig, Gen3Eval, Limits, Selectivity};

#[derive(Args)]
pub struct ProbcutArgs {
    /// OBF file of positions (default: the diagnosis bench file).
    #[arg(long, default_value = "crates/train/bench/diag50.obf")]
    pub obf: PathBuf,
    /// Nodes a move search (as `nodes=N` in a match).
    #[arg(long, default_value_t = 650_000)]
    pub nodes: u64,
    /// Selectivity in percent (73 is a move search's).
    #[arg(long, default_value_t = 73)]
    pub sel: u8,
    /// Keep every Nth cut of each depth and range for the check (0: no check).
    #[arg(long, default_value_t = 20)]
    pub sample_every: u64,
    /// Check at most this many sampled cuts of each depth and range.
    #[arg(long, default_value_t = 40)]
    pub check: usize,
    /// A gen3 weights file (default: the default evaluation).
    #[arg(long)]
    pub eval: Option<PathBuf>,
    /// A Multi-ProbCut table file replacing the evaluation's (needs --eval).
    #[arg(long)]
    pub mpc: Option<PathBuf>,
}

/// The evaluation of `--eval` and `--mpc`.
pub fn evaluator(eval: Option<&PathBuf>, mpc: Option<&PathBuf>) -> Result<Arc<Gen3Eval>, CliError> {
    let Some(path) = eval else {
        if mpc.is_some() {
            return Err(CliError::input(
                "--mpc needs --eval (the weights it was fitted for)",
            ));
        }
        return Ok(default_evaluator());
    };
    let mut e = Gen3Eval::from_file(path).map_err(CliError::input)?;
    if let Some(m) = mpc {
        e.load_mpc_table(m).map_err(CliError::input)?;
    }
    Ok(Arc::new(e))
}

pub fn run(args: ProbcutArgs) -> CmdResult {
    let inputs = read_obf_file(&args.obf)?;
    let ev = evaluator(args.eval.as_ref(), args.mpc.as_ref())?;
    ev.build_all_phases();
    let sel = Selectivity::from_percent(args.sel);
    let log = Arc::new(ProbcutLog::new(args.sample_every));
    let mut engine = Engine::new(EngineConfig {
        tt_mb: 64,
        threads: 1,
        evaluator: ev.clone(),
    });
    engine.set_probcut_log(Some(log.clone()));
    let limits = Limits {
        nodes: Some(args.nodes),
        selectivity: Some(sel),
        ..Limits::default()
    };
    for input in &inputs {
        engine.clear();
        engine.search(input.position.board(), &limits, None);
    }
    engine.set_probcut_log(None);

    // Check the sampled cuts: (depth, range) -> (checked, wrong, mean miss in discs).
    let mut checked = std::collections::BTreeMap::<(i32, u32), (u32, u32, f64)>::new();
    for cut in log.cuts() {
        let key = (cut.depth, cut.board.empty_count() / EMPTIES_WIDTH);
        let entry = checked.entry(key).or_default();
        if entry.0 as usize >= args.check {
            continue;
        }
        engine.clear();
        let r = engine.search(cut.board, &Limits::midgame(cut.depth as u32, sel), None);
        let deep = (r.score * SCALE as f32).round() as i32;
        let miss = match cut.side {
            CutSide::High => (cut.beta - deep).max(0),
            CutSide::Low => (deep - cut.alpha).max(0),
        };
        entry.0 += 1;
        if miss > 0 {
            entry.1 += 1;
            entry.2 += miss as f64 / SCALE as f64;
        }
    }

    println!(
        "{} positions of {}, nodes={} a position, selectivity {sel}, evaluation {}, one thread",
        inputs.len(),
        args.obf.display(),
        args.nodes,
        ev.name()
    );
    println!("| pair (deep\\|shallow) | empties | probes | cut | high / low | checked | wrong | mean miss of a wrong cut (discs) |");
    println!("|---|---|---|---|---|---|---|---|");
    for depth in 2..=40 {
        for range in 0..=64 / EMPTIES_WIDTH {
            let lo = range * EMPTIES_WIDTH;
            let c = log.counts(depth, lo);
            if c.tried == 0 {
                continue;
            }
            let cuts = c.cut_high + c.cut_low;
            let (n, wrong, miss) = checked.get(&(depth, range)).copied().unwrap_or_default();
            let wrong_text = if n == 0 {
                "-".to_string()
            } else {
                format!("{wrong} ({:.0}%)", 100.0 * wrong as f64 / n as f64)
            };
            let miss_text = if wrong == 0 {
                "-".to_string()
            } else {
                format!("{:.2}", miss / wrong as f64)
            };
            println!(
                "| {depth}\\|{} | {lo}-{} | {} | {:.1}% | {} / {} | {n} | {wrong_text} | {miss_text} |",
                shallow_depth(depth),
                lo + EMPTIES_WIDTH - 1,
                c.tried,
                100.0 * cuts as f64 / c.tried as f64,
                c.cut_high,
                c.cut_low,
            );
        }
    }
    Ok(())
}
