//! `virada train`: regenerates the trained evaluation's weights from the WTHOR games (and exact
//! solver labels). See docs/TRAINING.md.

use super::args::ThreadsArg;
use super::{CliError, CmdResult};
use clap::Args;
use std::path::PathBuf;
use virada_train::fit::FitConfig;
use virada_train::pipeline::{self, TrainConfig};
use virada_train::search_labels::SearchPlan;
use virada_train::selfplay::SelfPlayConfig;

#[derive(Args)]
pub struct TrainArgs {
    /// Directory with the WTHOR `WTH_*.wtb` files.
    #[arg(long, default_value = "../shared/data/wthor")]
    pub wthor: PathBuf,
    /// Work directory for intermediate sample files (reused when present) and the report.
    #[arg(long, default_value = "target/training")]
    pub work: PathBuf,
    /// Output weights file.
    #[arg(long, default_value = "crates/engine/weights/pattern.vpw")]
    pub out: PathBuf,
    /// Generation name stored in the file (at most 24 bytes).
    #[arg(long, default_value = "gen1")]
    pub name: String,
    /// Seed of the held-out split.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// One game in this many is held out for testing.
    #[arg(long, default_value_t = 20)]
    pub held_out_one_in: u64,
    /// Label positions with at most this many empties with the exact solver (0 = none).
    #[arg(long, default_value_t = 0)]
    pub exact_empties: u32,
    /// Also label one position in `--exact-sample-one-in` with at most this many empties.
    #[arg(long, default_value_t = 0)]
    pub exact_sample_empties: u32,
    /// See `--exact-sample-empties`.
    #[arg(long, default_value_t = 8)]
    pub exact_sample_one_in: u64,
    /// Self-play games to add to the training set (0 = none).
    #[arg(long, default_value_t = 0)]
    pub selfplay_games: usize,
    /// Search depth of the self-play moves.
    #[arg(long, default_value_t = 4)]
    pub selfplay_depth: u32,
    /// The self-play engine plays perfectly from this many empties (0 = never).
    #[arg(long, default_value_t = 14)]
    pub selfplay_exact: u32,
    /// Label positions with at least this many empties (not labelled exactly) with a midgame
    /// search of the current default evaluation (the previous generation; 0 = none).
    #[arg(long, default_value_t = 0)]
    pub search_label_empties: u32,
    /// Depth of the search labels.
    #[arg(long, default_value_t = 8)]
    pub search_label_depth: u32,
    /// Search-label one WTHOR training position in this many (chosen by a seeded hash).
    #[arg(long, default_value_t = 20)]
    pub search_label_one_in: u64,
    /// Search-label one self-play position in this many.
    #[arg(long, default_value_t = 1)]
    pub search_label_selfplay_one_in: u64,
    /// Weight of a search-labelled sample in the fit (others weigh 1).
    #[arg(long, default_value_t = 1.0)]
    pub search_label_weight: f64,
    /// Ridge penalty.
    #[arg(long, default_value_t = 3.0)]
    pub lambda: f64,
    /// Conjugate-gradient iterations per phase.
    #[arg(long, default_value_t = 60)]
    pub iterations: usize,
    /// Phase overlap in empties.
    #[arg(long, default_value_t = 2)]
    pub overlap: u32,
    #[command(flatten)]
    pub threads: ThreadsArg,
}

pub fn run(args: TrainArgs) -> CmdResult {
    if args.held_out_one_in < 2 {
        return Err(CliError::input("--held-out-one-in must be at least 2"));
    }
    let mut fit = FitConfig {
        lambda: args.lambda,
        iterations: args.iterations,
        overlap: args.overlap,
        search_weight: args.search_label_weight,
        ..FitConfig::default()
    };
    if let Some(t) = args.threads.given() {
        fit.threads = t;
    }
    let cfg = TrainConfig {
        wthor_dir: args.wthor,
        work_dir: args.work,
        out: args.out,
        name: args.name,
        seed: args.seed,
        held_out_one_in: args.held_out_one_in,
        exact_empties: args.exact_empties,
        exact_sample_empties: args.exact_sample_empties,
        exact_sample_one_in: args.exact_sample_one_in,
        selfplay: SelfPlayConfig {
            games: args.selfplay_games,
            depth: args.selfplay_depth,
            exact_empties: args.selfplay_exact,
            seed: args.seed,
            threads: fit.threads,
            ..SelfPlayConfig::default()
        },
        search: SearchPlan {
            min_empties: args.search_label_empties,
            depth: args.search_label_depth,
            one_in: args.search_label_one_in.max(1),
            seed: args.seed,
        },
        selfplay_search_one_in: args.search_label_selfplay_one_in.max(1),
        fit,
    };
    let solver = pipeline::engine_solver();
    let report = pipeline::run(&cfg, Some(&*solver)).map_err(CliError::failed)?;
    println!("{report}");
    Ok(())
}
