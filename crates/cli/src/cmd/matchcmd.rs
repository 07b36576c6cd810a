//! `virada match`: engine against engine from balanced openings, colours swapped.

use super::{CliError, CmdResult};
use clap::Args;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;
use virada_engine::matchplay::{run_match, MatchResult, PlayerSettings};
use virada_engine::openings::builtin;
use virada_rules::formats::ggf::{write_ggf, GgfGame};
use virada_rules::formats::xot::read_xot;
use virada_rules::Game;

#[derive(Args)]
pub struct MatchArgs {
    /// Player A settings, e.g. `level=5` or `depth=8,exact=14` or `time=0.2`
    /// (keys: level, depth, exact, time, nodes, sel, eval).
    #[arg(long)]
    pub a: String,
    /// Player B settings (same keys as --a).
    #[arg(long)]
    pub b: String,
    /// Number of games (each opening is played twice, colours swapped).
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Opening list, one 8-move opening a line (`f5d6c4d3c2b3b4b5`); default: our own list.
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Use the openings from this index of the list on.
    #[arg(long, default_value_t = 0)]
    pub skip: usize,
    /// Parallel games (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Write the games to this GGF file.
    #[arg(long)]
    pub ggf: Option<PathBuf>,
    /// Print one summary line (for scripts) instead of the report.
    #[arg(long)]
    pub brief: bool,
}

pub fn run(args: MatchArgs) -> CmdResult {
    let a: PlayerSettings = args
        .a
        .parse()
        .map_err(|e| CliError::input(format!("--a: {e}")))?;
    let b: PlayerSettings = args
        .b
        .parse()
        .map_err(|e| CliError::input(format!("--b: {e}")))?;
    if args.games == 0 {
        return Err(CliError::input("--games must be at least 1"));
    }
    let list = match &args.openings {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| CliError::input(format!("cannot read {}: {e}", path.display())))?;
            read_xot(&text).map_err(|e| CliError::input(format!("{}: {e}", path.display())))?
        }
        None => builtin(),
    };
    if list.len() <= args.skip {
        return Err(CliError::input(format!(
            "the opening list has {} openings; --skip {} leaves none",
            list.len(),
            args.skip
        )));
    }
    // The list is sorted by moves, so neighbours are alike: take openings spread evenly over it.
    let pool = &list[args.skip..];
    let needed = args.games.div_ceil(2).min(pool.len());
    let step = pool.len() / needed;
    let openings: Vec<Game> = pool
        .iter()
        .step_by(step)
        .take(needed)
        .map(|o| o.game())
        .collect();
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let t = Instant::now();
    let show_progress = !args.brief;
    let result = run_match(&a, &b, &openings, args.games, threads, &|done, total| {
        if show_progress {
            let width = 30;
            let filled = done * width / total;
            eprint!(
                "\r[{}{}] {done}/{total} games, {:.0} s",
                "#".repeat(filled),
                "-".repeat(width - filled),
                t.elapsed().as_secs_f64()
            );
            std::io::stderr().flush().ok();
        }
    });
    if show_progress {
        eprintln!();
    }
    if let Some(path) = &args.ggf {
        let records: Vec<GgfGame> = result
            .games
            .iter()
            .map(|g| {
                let mut r = GgfGame::from_game(&g.game);
                let (pb, pw) = if g.a_black {
                    (&args.a, &args.b)
                } else {
                    (&args.b, &args.a)
                };
                r.set_tag("PC", "virada match");
                r.set_tag("PB", pb);
                r.set_tag("PW", pw);
                if let Some(res) = g.game.result() {
                    let d = res.difference_for(virada_rules::Color::Black);
                    r.set_tag("RE", &format!("{d:+}"));
                }
                r
            })
            .collect();
        std::fs::write(path, write_ggf(&records))
            .map_err(|e| CliError::failed(format!("cannot write {}: {e}", path.display())))?;
    }
    print_report(&args, &result, t.elapsed().as_secs_f64());
    Ok(())
}

fn print_report(args: &MatchArgs, r: &MatchResult, secs: f64) {
    let (elo, margin) = r.elo();
    if args.brief {
        println!(
            "{} vs {}: +{} ={} -{} score {:.1}% discs {:+.2} elo {:+.0} ±{:.0}",
            args.a,
            args.b,
            r.wins(),
            r.draws(),
            r.losses(),
            100.0 * r.score(),
            r.average_discs(),
            elo,
            margin
        );
        return;
    }
    println!("A: {}", args.a);
    println!("B: {}", args.b);
    println!("games {}  ({:.1} s)", r.games.len(), secs);
    println!(
        "A wins {}  draws {}  losses {}",
        r.wins(),
        r.draws(),
        r.losses()
    );
    println!("average disc difference (A-B) {:+.2}", r.average_discs());
    println!("A score {:.1}%", 100.0 * r.score());
    println!("Elo difference (A-B) {elo:+.0} ± {margin:.0} (95%)");
}
