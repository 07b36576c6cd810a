//! `virada bench <kind>`: benchmarks. Each kind is one variant of [`BenchKind`]; add a variant
//! (and its module) to add a benchmark.

use super::{CliError, CmdResult};
use clap::{Args, Subcommand, ValueEnum};
use std::time::Instant;
use virada_rules::movegen::Backend;
use virada_rules::{perft_with, Board, PerftMode};

#[derive(Args)]
pub struct BenchArgs {
    #[command(subcommand)]
    pub kind: BenchKind,
}

/// The benchmarks.
#[derive(Subcommand)]
pub enum BenchKind {
    /// Single-threaded perft from the start: leaves per second (counts are checked).
    Perft(PerftBenchArgs),
    /// Fixed positions searched to a fixed depth: total nodes (the search signature), nodes/s.
    Search(super::bench_search::SearchBenchArgs),
    /// Fit the Multi-ProbCut parameters from self-play searches (writes the evaluation's table, crates/engine/data/mpc-gen3.txt).
    MpcFit(super::bench_search::MpcFitArgs),
    /// Solve FFO endgame positions exactly and print a table (the classic #40-#59 benchmark).
    Ffo(super::bench_ffo::FfoArgs),
    /// Fixed-depth search value and move against exact results (and the evaluation's cost).
    Accuracy(super::bench_accuracy::AccuracyArgs),
    /// Nodes and time to each depth on fixed positions (the diagnosis, docs/STRENGTH.md).
    Depths(super::bench_depths::DepthsArgs),
    /// The coach on WTHOR games: the share of mistakes (2+ and 4+ discs, outside the book) it
    /// explains, and how often each kind of explanation fires.
    Coach(super::bench_coach::CoachArgs),
    /// Every claim of the coach on drawn WTHOR games counted again by an independent model
    /// (its own move generator, regions, frontier and stability); the false ones are listed.
    CoachCheck(super::bench_coach_check::CoachCheckArgs),
    /// The review on WTHOR games: its flagged mistakes searched again deeper (the share that
    /// does not hold), and its nodes and CPU time a game.
    Review(super::bench_review::ReviewBenchArgs),
    /// Multi-ProbCut in node-limited move searches: probes and cuts by depth pair and range of
    /// empty squares, and how often a sampled cut was wrong against the full-depth search.
    Probcut(super::bench_probcut::ProbcutArgs),
}

pub fn run(args: BenchArgs) -> CmdResult {
    match args.kind {
        BenchKind::Perft(a) => perft(a),
        BenchKind::Search(a) => super::bench_search::run_search(a),
        BenchKind::MpcFit(a) => super::bench_search::run_mpc_fit(a),
        BenchKind::Ffo(a) => super::bench_ffo::run(a),
        BenchKind::Accuracy(a) => super::bench_accuracy::run(a),
        BenchKind::Coach(a) => super::bench_coach::run(a),
        BenchKind::CoachCheck(a) => super::bench_coach_check::run(a),
        BenchKind::Depths(a) => super::bench_depths::run(a),
        BenchKind::Review(a) => super::bench_review::run(a),
        BenchKind::Probcut(a) => super::bench_probcut::run(a),
    }
}

/// Which move generator to time.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum BackendChoice {
    /// The fastest this CPU runs.
    Best,
    Portable,
    Avx2,
    /// Every backend this CPU runs, one after the other.
    All,
}

#[derive(Args)]
pub struct PerftBenchArgs {
    /// Depths to time, comma-separated.
    #[arg(long, value_delimiter = ',', default_values_t = vec![11u32, 12])]
    pub depth: Vec<u32>,
    /// Move generator.
    #[arg(long, value_enum, default_value_t = BackendChoice::Best)]
    pub backend: BackendChoice,
}

/// Published leaf counts from the start (a pass is a ply; ended games count as one leaf).
const START_COUNTS: [u64; 14] = [
    1,
    4,
    12,
    56,
    244,
    1396,
    8200,
    55092,
    390216,
    3005288,
    24571284,
    212258800,
    1939886636,
    18429641748,
];

fn perft(args: PerftBenchArgs) -> CmdResult {
    let available = Backend::available();
    let backends = match args.backend {
        BackendChoice::Best => vec![Backend::detect()],
        BackendChoice::Portable => vec![Backend::Portable],
        BackendChoice::Avx2 if available.contains(&Backend::Avx2) => vec![Backend::Avx2],
        BackendChoice::Avx2 => return Err(CliError::input("this CPU lacks AVX2 (or BMI2/LZCNT)")),
        BackendChoice::All => available,
    };
    if let Some(d) = args.depth.iter().find(|&&d| d == 0 || d > 20) {
        return Err(CliError::input(format!("--depth {d}: use 1..=20")));
    }
    let mut wrong = Vec::new();
    for &backend in &backends {
        for &depth in &args.depth {
            let t = Instant::now();
            let n = perft_with(backend, Board::start(), depth, PerftMode::PassIsPly);
            let secs = t.elapsed().as_secs_f64();
            let check = match START_COUNTS.get(depth as usize) {
                Some(&want) if want == n => "ok",
                Some(_) => {
                    wrong.push(depth);
                    "WRONG"
                }
                None => "unchecked",
            };
            println!(
                "perft {depth} ({backend:?}, 1 thread): {n} leaves [{check}] in {secs:.3} s = {:.1} M leaves/s",
                n as f64 / secs.max(1e-9) / 1e6
            );
        }
    }
    if wrong.is_empty() {
        Ok(())
    } else {
        Err(CliError::failed(format!(
            "wrong perft counts at depths {wrong:?}"
        )))
    }
}
