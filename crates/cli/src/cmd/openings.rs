//! `virada openings generate`: builds the list of balanced 8-move openings.
//! `virada openings explorer build`: builds the opening explorer from the WTHOR games.

use super::args::ThreadsArg;
use super::openings_rating::{distinct_openings, rate_opening};
use super::{CliError, CmdResult};
use crate::parallel::map_with_engines;
use clap::{Args, Subcommand};
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;
use virada_engine::default_evaluator;
use virada_rules::formats::xot::{XotOpening, XOT_PLIES};
use virada_rules::Square;

#[derive(Args)]
pub struct OpeningsArgs {
    #[command(subcommand)]
    pub what: OpeningsWhat,
}

#[derive(Subcommand)]
pub enum OpeningsWhat {
    /// Search every distinct 8-ply opening and keep the balanced ones.
    Generate(GenerateArgs),
    /// The opening explorer (docs/EXPLORER.md).
    Explorer(ExplorerArgs),
}

#[derive(Args)]
pub struct ExplorerArgs {
    #[command(subcommand)]
    pub what: ExplorerWhat,
}

#[derive(Subcommand)]
pub enum ExplorerWhat {
    /// Build the explorer's file from the WTHOR games (`WTH_*.wtb`, `WTH.JOU`).
    Build(ExplorerBuildArgs),
}

#[derive(Args)]
pub struct ExplorerBuildArgs {
    /// The WTHOR folder (default: `<data>/wthor`, the shared data).
    #[arg(long)]
    pub wthor: Option<PathBuf>,
    /// Keep a position when at least this many games played a move there.
    #[arg(long, default_value_t = 2)]
    pub min_games: u32,
    /// Output file (the shipped one: crates/engine/data/explorer.vex).
    #[arg(long)]
    pub out: PathBuf,
}

#[derive(Args)]
pub struct GenerateArgs {
    /// Search depth for each opening.
    #[arg(long, default_value_t = 8)]
    pub depth: u32,
    /// Keep openings whose value is within this many discs of zero.
    #[arg(long, default_value_t = 1.0)]
    pub margin: f32,
    #[command(flatten)]
    pub threads: ThreadsArg,
    /// Rate only the first N distinct openings (for trials).
    #[arg(long)]
    pub limit: Option<usize>,
    /// Output file (default: standard output).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Also write every opening with its value (`moves value`, one a line) to this file.
    #[arg(long)]
    pub values: Option<PathBuf>,
    /// Two-stage generation: instead of every opening, re-rate the openings of a `--values`
    /// file from an earlier (shallower) run whose value is within `--prefilter` discs of zero.
    #[arg(long, requires = "prefilter")]
    pub from_values: Option<PathBuf>,
    /// Margin of the first stage (see --from-values).
    #[arg(long)]
    pub prefilter: Option<f32>,
}

/// Reads a `--values` file: `<16-char opening> <value>` lines.
fn read_values(path: &PathBuf, margin: f32) -> Result<(Vec<[Square; XOT_PLIES]>, usize), CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::input(format!("cannot read {}: {e}", path.display())))?;
    let mut out = Vec::new();
    let mut total = 0;
    for (i, line) in text.lines().enumerate() {
        let bad =
            |what: String| CliError::input(format!("{} line {}: {what}", path.display(), i + 1));
        let mut parts = line.split_whitespace();
        let (Some(moves), Some(value)) = (parts.next(), parts.next()) else {
            return Err(bad("expected '<opening> <value>'".into()));
        };
        let opening: XotOpening = moves.parse().map_err(|e| bad(format!("{e}")))?;
        let value: f32 = value
            .parse()
            .map_err(|_| bad(format!("'{value}' is not a number")))?;
        total += 1;
        if value.abs() <= margin {
            out.push(*opening.moves());
        }
    }
    Ok((out, total))
}

pub fn run(args: OpeningsArgs) -> CmdResult {
    match args.what {
        OpeningsWhat::Generate(a) => generate(a),
        OpeningsWhat::Explorer(ExplorerArgs {
            what: ExplorerWhat::Build(a),
        }) => explorer_build(a),
    }
}

fn explorer_build(a: ExplorerBuildArgs) -> CmdResult {
    if a.min_games == 0 {
        return Err(CliError::input("--min-games must be at least 1"));
    }
    let dir = a.wthor.unwrap_or_else(|| super::data_dir().join("wthor"));
    let (explorer, r) =
        virada_train::explorer_build::build_from_dir(&dir, a.min_games).map_err(CliError::input)?;
    let bytes = explorer.to_bytes();
    std::fs::write(&a.out, &bytes)
        .map_err(|e| CliError::failed(format!("{}: {e}", a.out.display())))?;
    eprintln!(
        "{} files, {} games read, {} used ({} illegal, {} unfinished); {} positions seen, \
         {} kept (at least {} games), {} moves, {} players listed; {} bytes to {}",
        r.files,
        r.games_read,
        r.games_used,
        r.games_illegal,
        r.games_unfinished,
        r.nodes_seen,
        r.nodes_kept,
        a.min_games,
        r.moves_kept,
        r.players_listed,
        bytes.len(),
        a.out.display()
    );
    Ok(())
}

fn generate(a: GenerateArgs) -> CmdResult {
    if a.margin.is_nan() || a.margin < 0.0 {
        return Err(CliError::input("--margin must be a number of discs >= 0"));
    }
    let threads = a.threads.or_all_cores();
    let t = Instant::now();
    let (mut all, distinct) = match (&a.from_values, a.prefilter) {
        (Some(path), Some(pre)) => {
            let (list, total) = read_values(path, pre)?;
            eprintln!(
                "{} of {total} openings within {pre} discs in {}",
                list.len(),
                path.display()
            );
            (list, total)
        }
        _ => {
            let list = distinct_openings();
            let n = list.len();
            (list, n)
        }
    };
    if let Some(n) = a.limit {
        all.truncate(n);
    }
    eprintln!(
        "{distinct} distinct 8-ply openings (up to symmetry); rating {} at depth {} on {threads} threads",
        all.len(),
        a.depth
    );
    let eval = default_evaluator();
    let progress = |done: usize, total: usize| {
        if done.is_multiple_of(200) || done == total {
            let secs = t.elapsed().as_secs_f64();
            let eta = secs / done as f64 * (total - done) as f64;
            eprint!("\r{done}/{total} rated, {secs:.0} s elapsed, ~{eta:.0} s left   ");
        }
    };
    let rated = map_with_engines(&all, threads, &eval, &progress, |engine, moves| {
        rate_opening(engine, moves, a.depth)
    });
    eprintln!();
    if let Some(path) = &a.values {
        let mut s = String::new();
        for r in &rated {
            let moves: String = r.moves.iter().map(|m| m.to_string()).collect();
            s.push_str(&format!("{moves} {:.2}\n", r.value));
        }
        std::fs::write(path, s)
            .map_err(|e| CliError::failed(format!("cannot write {}: {e}", path.display())))?;
    }
    let kept: Vec<_> = rated.iter().filter(|r| r.value.abs() <= a.margin).collect();
    let mut text = format!(
        "# Virada balanced openings: {} of {} distinct 8-ply openings (up to symmetry)\n\
         # whose value at search depth {} ({} evaluation) is within {} discs of zero.\n\
         # Generated by: virada openings generate --depth {} --margin {}{}\n",
        kept.len(),
        distinct,
        a.depth,
        eval.name(),
        a.margin,
        a.depth,
        a.margin,
        match a.prefilter {
            Some(p) => format!(" --from-values <stage 1 values> --prefilter {p}"),
            None => String::new(),
        }
    );
    for r in &kept {
        let moves: String = r.moves.iter().map(|m| m.to_string()).collect();
        text.push_str(&moves);
        text.push('\n');
    }
    match &a.out {
        Some(path) => std::fs::write(path, text)
            .map_err(|e| CliError::failed(format!("cannot write {}: {e}", path.display())))?,
        None => std::io::stdout()
            .write_all(text.as_bytes())
            .map_err(|e| CliError::failed(format!("cannot write output: {e}")))?,
    }
    eprintln!(
        "kept {} of {} openings in {:.1} s",
        kept.len(),
        all.len(),
        t.elapsed().as_secs_f64()
    );
    Ok(())
}
