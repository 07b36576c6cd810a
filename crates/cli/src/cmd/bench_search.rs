//! `virada bench search` and `virada bench mpc-fit`.

use super::args::ThreadsArg;
use super::{CliError, CmdResult};
use crate::matchplay::settings::splitmix64;
use crate::parallel::map_with_engines;
use clap::Args;
use std::path::PathBuf;
use std::time::Instant;
use virada_engine::{default_evaluator, Engine, EngineConfig, Limits};
use virada_rules::{Move, Position};
use virada_train::mpc_fit::{buckets, fit, render_table, sample, sample_positions, FitSample};

/// The fixed positions of `bench search`: the start, and midgame positions from well-known
/// openings and FFO-style endgames (board strings, side to move).
const POSITIONS: [&str; 8] = [
    "---------------------------OX------XO--------------------------- X",
    "------------------O--------OOX-----OXX------X------------------- X",
    "-------------------OX-----OXXX----OOOX-----XO------------------- O",
    "----------O-------OXOO----OXXOO---XXXOOX----XXX-----X----------- X",
    "--OOOOO---OOXXO-XXXXXOOO-XXXOXOO-XXOXOXO--XXXXXO--X-XX----X----- X",
    "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X",
    "-XXXXXX---XOOOO--XOXXOOX-OOOOOOOOOOOXXOOOOOXXOOX--XXOO----XXXXX- X",
    "-----O----OOOO---OOOXOX-XOXXOOOO--XXXOOO--XXOOX----XXXX---X--X-- O",
];

#[derive(Args)]
pub struct SearchBenchArgs {
    /// Depth of each search.
    #[arg(long, default_value_t = 12)]
    pub depth: u32,
    /// Without `--threads`, one thread: a reproducible node count, the bench signature.
    #[command(flatten)]
    pub threads: ThreadsArg,
    /// Instead of the 8 fixed positions, this many midgame positions (24 to 52 empties): a
    /// balanced opening followed by seeded random moves, so the set does not depend on the
    /// engine and two builds are compared on the same positions (for timing search changes).
    #[arg(long, value_name = "N")]
    pub sample: Option<usize>,
}

/// Most positions `--sample` takes.
const MAX_SAMPLE: usize = 100_000;

/// `count` midgame positions: opening `i` of the balanced list (cycling), then up to 28
/// random legal moves chosen by a seeded mixer, stopping early at a finished game or a pass.
fn sampled_positions(count: usize) -> Vec<Position> {
    let openings = virada_engine::openings::builtin();
    (0..count)
        .map(|i| {
            let mut pos = openings[i % openings.len()].position();
            let mut r = splitmix64(i as u64 ^ 0x5eed);
            let plies = r % 29;
            for _ in 0..plies {
                let moves: Vec<_> = pos.board().legal_moves().iter().collect();
                if moves.is_empty() {
                    break;
                }
                r = splitmix64(r);
                pos = pos.play_unchecked(Move::Play(moves[(r % moves.len() as u64) as usize]));
            }
            pos
        })
        .collect()
}

pub fn run_search(args: SearchBenchArgs) -> CmdResult {
    let mut engine = Engine::new(EngineConfig {
        tt_mb: 64,
        threads: args.threads.given().unwrap_or(1),
        ..EngineConfig::default()
    });
    let mut nodes = 0u64;
    let positions = match args.sample {
        Some(n) if n == 0 || n > MAX_SAMPLE => {
            return Err(CliError::input(format!(
                "--sample must be between 1 and {MAX_SAMPLE}, not {n}"
            )))
        }
        Some(n) => sampled_positions(n),
        None => POSITIONS
            .iter()
            .enumerate()
            .map(|(i, s)| {
                s.parse::<Position>()
                    .map_err(|e| CliError::failed(format!("bench position {i}: {e}")))
            })
            .collect::<Result<_, _>>()?,
    };
    // The evaluation's tables are built on first use: build them before the clock starts, so
    // the time is the search's.
    engine.evaluator().build_all_phases();
    let t = Instant::now();
    let quiet = args.sample.is_some();
    if !quiet {
        println!("pos  empties  best  score   depth  nodes");
    }
    for (i, pos) in positions.iter().enumerate() {
        engine.clear();
        let limits = Limits::midgame(args.depth, virada_engine::search::Selectivity::DEFAULT);
        let r = engine.search(pos.board(), &limits, None);
        nodes += r.nodes;
        if quiet {
            continue;
        }
        println!(
            "{:>3}  {:>7}  {:<4}  {:>+6.2}  {:>5}  {}",
            i + 1,
            pos.board().empty_count(),
            r.best_move.to_string(),
            r.score,
            r.depth,
            r.nodes
        );
    }
    let secs = t.elapsed().as_secs_f64();
    println!("evaluation {}", engine.evaluator().name());
    let set = match args.sample {
        Some(n) => format!("{n} sampled positions"),
        None => "signature".to_string(),
    };
    println!(
        "total nodes {nodes} ({set} at depth {}, {} thread(s))",
        args.depth,
        args.threads.given().unwrap_or(1)
    );
    println!(
        "time {secs:.2} s, {:.0} nodes/s",
        nodes as f64 / secs.max(1e-9)
    );
    Ok(())
}

#[derive(Args)]
pub struct MpcFitArgs {
    /// Number of self-play positions.
    #[arg(long, default_value_t = 240)]
    pub positions: usize,
    /// Deepest depth fitted.
    #[arg(long, default_value_t = 10)]
    pub max_depth: u32,
    #[command(flatten)]
    pub threads: ThreadsArg,
    /// Write the parameter table file here (default: standard output). The engine's file is
    /// crates/engine/data/mpc-gen3.txt (the evaluation's own table).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Seed of the self-play games.
    #[arg(long, default_value_t = 2026)]
    pub seed: u64,
    /// Empty squares a fitted range spans: each deep depth gets one line a range.
    #[arg(long, default_value_t = 4)]
    pub bucket_width: u32,
    /// Selectivity of the searches in percent (100: none, the values are full-width searches;
    /// 73: the searches a move search limited by time or nodes makes).
    #[arg(long, default_value_t = 100)]
    pub sel: u8,
    /// Append each searched position to this file and skip the positions already in it, so an
    /// interrupted run resumes with the same command.
    #[arg(long)]
    pub journal: Option<PathBuf>,
    /// Fit from the journal's positions only (searching none).
    #[arg(long, requires = "journal")]
    pub fit_only: bool,
}

pub fn run_mpc_fit(args: MpcFitArgs) -> CmdResult {
    if args.max_depth < 3 || args.max_depth > 20 {
        return Err(CliError::input("--max-depth must be between 3 and 20"));
    }
    if !(1..=64).contains(&args.bucket_width) {
        return Err(CliError::input("--bucket-width must be between 1 and 64"));
    }
    let threads = args.threads.or_all_cores();
    let t = Instant::now();
    let boards = sample_positions(args.positions, args.max_depth + 2, args.seed);
    eprintln!(
        "{} positions sampled in {:.1} s",
        boards.len(),
        t.elapsed().as_secs_f64()
    );
    // The default evaluation: the shipped weights, or the gen3 file `VIRADA_WEIGHTS` names.
    let evaluator = default_evaluator();
    let eval_name = evaluator.name().to_string();
    let progress = |done: usize, total: usize| {
        eprint!(
            "\r{done}/{total} positions searched, {:.0} s",
            t.elapsed().as_secs_f64()
        );
    };
    let sel = virada_engine::Selectivity::from_percent(args.sel);
    let mut done: std::collections::BTreeMap<usize, FitSample> = Default::default();
    if let Some(path) = &args.journal {
        if let Ok(text) = std::fs::read_to_string(path) {
            for line in text.lines().filter(|l| !l.trim().is_empty()) {
                let (i, s) = FitSample::from_journal_line(line)
                    .map_err(|e| CliError::input(format!("{}: {e}", path.display())))?;
                if i < boards.len()
                    && s.board == boards[i]
                    && s.values.len() as u32 > args.max_depth
                {
                    done.insert(i, s);
                }
            }
        }
        eprintln!("{} positions already in {}", done.len(), path.display());
    }
    let todo: Vec<usize> = if args.fit_only {
        Vec::new()
    } else {
        (0..boards.len())
            .filter(|i| !done.contains_key(i))
            .collect()
    };
    let journal = match &args.journal {
        Some(p) => Some(std::sync::Mutex::new(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .map_err(|e| CliError::failed(format!("cannot write {}: {e}", p.display())))?,
        )),
        None => None,
    };
    let searched = map_with_engines(&todo, threads, &evaluator, &progress, |engine, &i| {
        let s = sample(engine, boards[i], args.max_depth, sel);
        if let Some(j) = &journal {
            use std::io::Write;
            let mut f = j.lock().unwrap_or_else(|e| e.into_inner());
            // A lost line is only searched again on resumption.
            let _ = writeln!(f, "{}", s.to_journal_line(i));
        }
        (i, s)
    });
    eprintln!();
    done.extend(searched);
    let samples: Vec<FitSample> = done.into_values().collect();
    let ranges = buckets(args.max_depth + 2, args.bucket_width);
    let params = fit(&samples, args.max_depth, &ranges);
    let command = format!(
        "virada bench mpc-fit --positions {} --max-depth {} --seed {} --bucket-width {} --sel {}",
        args.positions, args.max_depth, args.seed, args.bucket_width, args.sel
    );
    let table = render_table(&params, &command, samples.len(), &eval_name);
    match &args.out {
        Some(p) => std::fs::write(p, table)
            .map_err(|e| CliError::failed(format!("cannot write {}: {e}", p.display())))?,
        None => print!("{table}"),
    }
    Ok(())
}
