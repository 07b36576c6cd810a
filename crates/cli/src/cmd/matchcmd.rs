//! `virada match`: engine against engine from balanced openings, colours swapped; either side
//! may be an external engine (`gtp:<command>`, `nboard:<command>`).

use super::args::{BookArg, ThreadsArg};
use super::{CliError, CmdResult};
use crate::matchplay::{run_match, MatchResult, PlayerSpec, Side, TimeControl};
use clap::Args;
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};
use virada_engine::openings::builtin;
use virada_rules::formats::ggf::{write_ggf, GgfGame};
use virada_rules::formats::xot::read_xot;
use virada_rules::Game;

#[derive(Args)]
pub struct MatchArgs {
    /// Player A: our engine's settings, e.g. `level=5`, `depth=8,exact=14`, `time=0.2`
    /// (keys: level, depth, exact, time, last, nodes, sel, eval, mpc: a Multi-ProbCut table file
    /// for the eval file, book), `greedy`, `random`; or an external
    /// engine: `gtp:<command line>` or `nboard:<command line>`.
    #[arg(long)]
    pub a: String,
    /// Player B (same forms as --a).
    #[arg(long)]
    pub b: String,
    /// Working directory of an external engine A.
    #[arg(long, value_name = "DIR")]
    pub a_dir: Option<PathBuf>,
    /// Working directory of an external engine B.
    #[arg(long, value_name = "DIR")]
    pub b_dir: Option<PathBuf>,
    /// Time control of an external engine A: `move=S` (seconds a move), `game=S[,inc=S]`
    /// (seconds a game), `depth=N` (NBoard only), `timeout=S` (when a silent engine forfeits),
    /// `handshake=S` (how long it may take to start and answer set-up commands; default 30).
    #[arg(long, value_name = "CONTROL")]
    pub a_tc: Option<String>,
    /// Time control of an external engine B (same keys as --a-tc).
    #[arg(long, value_name = "CONTROL")]
    pub b_tc: Option<String>,
    /// Number of games (each opening is played twice, colours swapped).
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Opening list, one 8-move opening a line (`f5d6c4d3c2b3b4b5`); default: our own list.
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Use the openings from this index of the list on.
    #[arg(long, default_value_t = 0)]
    pub skip: usize,
    /// Every game from the standard start instead of the opening list (pairs of games then
    /// differ only by the book moves drawn from their seeds: use with the book).
    #[arg(long, conflicts_with_all = ["openings", "skip"])]
    pub from_start: bool,
    /// The book our engine plays from (`on`: the shipped one; `off`; or a file). Each side uses
    /// it as its level does, unless its settings say `book=off|on|T`.
    #[command(flatten)]
    pub book: BookArg,
    /// Parallel games (`--threads`; default: all cores).
    #[command(flatten)]
    pub threads: ThreadsArg,
    /// Write the games to this GGF file.
    #[arg(long)]
    pub ggf: Option<PathBuf>,
    /// Print one summary line (for scripts) instead of the report.
    #[arg(long)]
    pub brief: bool,
}

pub fn run(args: MatchArgs) -> CmdResult {
    let side = |name: &str, text: &str, dir: &Option<PathBuf>, tc: &Option<String>| {
        let control = tc
            .as_deref()
            .map(str::parse::<TimeControl>)
            .transpose()
            .map_err(|e| CliError::input(format!("--{name}-tc: {e}")))?;
        PlayerSpec::parse(text, dir.clone(), control)
            .map_err(|e| CliError::input(format!("--{name}: {e}")))
    };
    let book = args.book.load()?;
    let with_book = |mut spec: PlayerSpec| {
        if let PlayerSpec::Internal(s) = &mut spec {
            s.book = book;
        }
        spec
    };
    let a = with_book(side("a", &args.a, &args.a_dir, &args.a_tc)?);
    let b = with_book(side("b", &args.b, &args.b_dir, &args.b_tc)?);
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
    // No openings: every game from the standard start.
    let openings: Vec<Game> = if args.from_start {
        Vec::new()
    } else {
        pool.iter()
            .step_by(step)
            .take(needed)
            .map(|o| o.game())
            .collect()
    };
    let threads = args.threads.or_all_cores();
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
    })
    .map_err(CliError::input)?;
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
                if g.game.is_over() || g.forfeit.is_some() {
                    r.set_tag("RE", &format!("{:+}", g.black_score()));
                }
                if let Some(f) = &g.forfeit {
                    r.set_tag("C", &format!("{} forfeits: {}", f.color, f.reason));
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
        let (fa, fb) = (r.forfeits(Side::A).count(), r.forfeits(Side::B).count());
        if fa + fb > 0 {
            println!("forfeits: A {fa}, B {fb}");
        }
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
    let ((ta, ma), (tb, mb)) = r.time_used();
    let per_move = |t: Duration, m: usize| t.as_secs_f64() / m.max(1) as f64;
    println!(
        "time used: A {:.1} s ({:.3} s a move), B {:.1} s ({:.3} s a move)",
        ta.as_secs_f64(),
        per_move(ta, ma),
        tb.as_secs_f64(),
        per_move(tb, mb)
    );
    for side in [Side::A, Side::B] {
        for g in r.forfeits(side) {
            let f = g.forfeit.as_ref().expect("a forfeit");
            println!(
                "game {} (opening {}): {side:?} ({}) forfeits: {}",
                g.index + 1,
                g.opening + 1,
                f.color,
                f.reason
            );
        }
    }
}
