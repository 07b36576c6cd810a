//! `virada bench ffo`: solves the FFO endgame test positions and prints a table.

use super::args::ThreadsArg;
use super::solve::{check_expected, solve_options};
use super::solve_input::{read_obf_file, SolveInput};
use super::{CliError, CmdResult};
use clap::Args;
use std::path::PathBuf;
use std::time::Duration;
use virada_engine::endgame::{self, ScoreBound};
use virada_rules::Move;

#[derive(Args)]
pub struct FfoArgs {
    /// First FFO position number.
    #[arg(long, default_value_t = 40)]
    pub from: usize,
    /// Last FFO position number.
    #[arg(long, default_value_t = 59)]
    pub to: usize,
    #[command(flatten)]
    pub threads: ThreadsArg,
    /// An OBF file to use instead of the FFO files (positions numbered from 1).
    #[arg(long)]
    pub file: Option<PathBuf>,
    /// Stop each solve after this many seconds.
    #[arg(long, allow_negative_numbers = true)]
    pub time: Option<f64>,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 256)]
    pub hash_mb: usize,
    /// Only win/loss/draw.
    #[arg(long)]
    pub wld: bool,
}

/// The FFO files in `<data>/ffo/`, in order, numbered from 1.
fn ffo_positions(file: Option<&PathBuf>) -> Result<Vec<(usize, SolveInput)>, CliError> {
    if let Some(f) = file {
        return Ok(read_obf_file(f)?
            .into_iter()
            .enumerate()
            .map(|(i, p)| (i + 1, p))
            .collect());
    }
    let dir = super::data_dir().join("ffo");
    let mut all = Vec::new();
    for name in [
        "fforum-1-19.obf",
        "fforum-20-39.obf",
        "fforum-40-59.obf",
        "fforum-60-79.obf",
    ] {
        let path = dir.join(name);
        if !path.is_file() {
            return Err(CliError::input(format!(
                "{} not found: set VIRADA_DATA to the data directory or use --file",
                path.display()
            )));
        }
        all.extend(read_obf_file(&path)?);
    }
    Ok(all
        .into_iter()
        .enumerate()
        .map(|(i, p)| (i + 1, p))
        .collect())
}

/// Runs `bench ffo`.
pub fn run(args: FfoArgs) -> CmdResult {
    if args.from > args.to {
        return Err(CliError::input(format!(
            "--from {} is after --to {}",
            args.from, args.to
        )));
    }
    let opts = solve_options(
        args.wld,
        false,
        args.threads.given(),
        args.time,
        args.hash_mb,
    )?;
    let positions = ffo_positions(args.file.as_ref())?;
    let selected: Vec<_> = positions
        .into_iter()
        .filter(|(n, _)| (args.from..=args.to).contains(n))
        .collect();
    if selected.is_empty() {
        return Err(CliError::input(format!(
            "no positions numbered {}..={} in the file",
            args.from, args.to
        )));
    }
    println!(
        "FFO #{}-#{}, {} thread(s), {} MiB table, {}",
        args.from,
        args.to,
        opts.threads,
        opts.tt_mib,
        if args.wld { "WLD" } else { "exact" }
    );
    println!(
        "{:>4} {:>7} {:>6} {:>7} {:>9} {:>14} {:>9} {:>9}  ok",
        "#", "empties", "move", "score", "expected", "nodes", "time s", "Mnodes/s"
    );
    let mut total_nodes = 0u64;
    let mut total_time = Duration::ZERO;
    let mut failures = 0;
    for (n, input) in &selected {
        let r = endgame::solve(input.position.board(), &opts);
        let ok = check_expected(input, &r, opts.mode);
        if ok == Some(false) {
            failures += 1;
        }
        total_nodes += r.nodes;
        total_time += r.elapsed;
        let secs = r.elapsed.as_secs_f64();
        let expected = input
            .expected_best
            .map_or("-".to_string(), |e| ScoreBound::exact(e).to_string());
        println!(
            "{:>4} {:>7} {:>6} {:>7} {:>9} {:>14} {:>9.3} {:>9.2}  {}",
            n,
            r.empties,
            r.best_moves
                .first()
                .map_or("-".to_string(), Move::to_string),
            r.score.to_string().replace(' ', ""),
            expected,
            r.nodes,
            secs,
            r.nodes as f64 / secs.max(1e-9) / 1e6,
            match ok {
                Some(true) => "yes",
                Some(false) => "NO",
                None => "-",
            }
        );
    }
    let secs = total_time.as_secs_f64();
    println!(
        "total: {} positions, {} nodes, {:.3} s, {:.2} Mnodes/s, {} mismatch(es)",
        selected.len(),
        total_nodes,
        secs,
        total_nodes as f64 / secs.max(1e-9) / 1e6,
        failures
    );
    if failures > 0 {
        return Err(CliError::failed(format!(
            "{failures} position(s) did not match the expected result"
        )));
    }
    Ok(())
}
