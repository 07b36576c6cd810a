//! `virada book build`, `extend` and `add`: the searching subcommands, with progress and ETA.

use super::{open, save, AddArgs, BuildArgs, ExtendArgs};
use crate::cmd::args::ThreadsArg;
use crate::cmd::{CliError, CmdResult};
use clap::Args;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use virada_engine::book::{Book, BookError};
use virada_engine::book_build::{
    BuildConfig, BuildProgress, BuildReport, BuildStatus, Builder, Research,
};
use virada_engine::{default_evaluator, openings};
use virada_rules::formats::transcript::Transcript;
use virada_rules::formats::{ggf, wthor};
use virada_rules::{Board, Game, Position};

/// What `build` and `extend` share: the search and the windows, the budgets, the journal.
#[derive(Args)]
pub struct GrowArgs {
    /// Midgame depth of each position's analysis (every legal move searched).
    #[arg(long, default_value_t = 12)]
    pub depth: u32,
    /// Book positions at most this many plies from the start.
    #[arg(long, default_value_t = 16)]
    pub max_ply: u32,
    /// Study moves at most this many discs worse than the best of their position.
    #[arg(long, default_value_t = 2.0)]
    pub move_window: f32,
    /// Study lines whose value stays within this many discs of the root's.
    #[arg(long, default_value_t = 4.0)]
    pub line_window: f32,
    /// Stop when the book holds this many positions.
    #[arg(long)]
    pub positions: Option<usize>,
    /// Stop after this wall time (e.g. 90s, 30m, 2h); run again to continue.
    #[arg(long, value_parser = parse_duration)]
    pub time: Option<Duration>,
    /// Decides which of equally urgent positions a position budget keeps.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Journal of finished searches (default: the output file + `.journal`).
    #[arg(long)]
    pub journal: Option<PathBuf>,
    /// Transposition table of each search thread, MiB.
    #[arg(long, default_value_t = 16)]
    pub tt_mb: usize,
    #[command(flatten)]
    pub threads: ThreadsArg,
}

/// `90s`, `30m`, `2h`, `1h30m` or plain seconds.
pub fn parse_duration(s: &str) -> Result<Duration, String> {
    let bad = || format!("{s:?} is not a duration (e.g. 90s, 30m, 2h, 1h30m)");
    let mut total = 0u64;
    let mut number = String::new();
    for c in s.trim().chars() {
        if c.is_ascii_digit() {
            number.push(c);
            continue;
        }
        let unit = match c {
            's' => 1,
            'm' => 60,
            'h' => 3600,
            _ => return Err(bad()),
        };
        total += number.parse::<u64>().map_err(|_| bad())? * unit;
        number.clear();
    }
    if !number.is_empty() {
        total += number.parse::<u64>().map_err(|_| bad())?;
    }
    if total == 0 {
        return Err(bad());
    }
    Ok(Duration::from_secs(total))
}

fn hms(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// Prints a progress line at most every few seconds and saves the book after each round.
struct Printer {
    out: PathBuf,
    last: Instant,
}

impl BuildProgress for Printer {
    fn analysed(&mut self, s: &BuildStatus) {
        if self.last.elapsed() < Duration::from_secs(5) {
            return;
        }
        self.last = Instant::now();
        eprintln!(
            "round {}: {}/{} analysed ({} from the journal), book {} positions, {} searched, \
             elapsed {}, round ETA {}",
            s.round,
            s.done,
            s.planned,
            s.from_journal,
            s.positions,
            s.searched,
            hms(s.elapsed),
            s.eta.map_or("?".into(), hms)
        );
        let _ = std::io::stderr().flush();
    }

    fn round_done(&mut self, s: &BuildStatus, book: &Book) -> Result<(), BookError> {
        eprintln!(
            "round {} done: book {} positions, elapsed {}",
            s.round,
            book.len(),
            hms(s.elapsed)
        );
        book.save(&self.out)
    }
}

fn config(g: &GrowArgs, xot: bool) -> Result<BuildConfig, CliError> {
    if g.depth == 0 || g.depth > 40 {
        return Err(CliError::input("--depth must be 1 to 40"));
    }
    if g.max_ply > 59 {
        return Err(CliError::input("--max-ply must be at most 59"));
    }
    if !(g.move_window >= 0.0 && g.line_window >= 0.0) {
        return Err(CliError::input("the windows must be 0 or more discs"));
    }
    let mut roots = vec![Board::start()];
    if xot {
        roots.extend(openings::builtin().iter().map(|o| o.position().board()));
    }
    Ok(BuildConfig {
        depth: g.depth,
        max_ply: g.max_ply,
        move_window: g.move_window,
        line_window: g.line_window,
        max_positions: g.positions,
        max_searches: None,
        time: g.time,
        threads: g.threads.or_all_cores(),
        tt_mb: g.tt_mb.clamp(1, 4096),
        seed: g.seed,
        roots,
        research: Research::Shallower,
        evaluator: default_evaluator(),
    })
}

fn journal_path(given: Option<&Path>, out: &Path) -> PathBuf {
    given.map(Path::to_path_buf).unwrap_or_else(|| {
        let mut p = out.as_os_str().to_owned();
        p.push(".journal");
        PathBuf::from(p)
    })
}

fn grow(book: Book, cfg: BuildConfig, out: &Path, journal: &Path) -> CmdResult {
    let threads = cfg.threads;
    let mut builder = Builder::new(book, cfg);
    let resumed = builder
        .journal(journal)
        .map_err(|e| CliError::input(e.to_string()))?;
    eprintln!(
        "journal {}: {resumed} finished searches to reuse; {threads} threads",
        journal.display()
    );
    let mut printer = Printer {
        out: out.to_path_buf(),
        last: Instant::now(),
    };
    let report = builder
        .grow(&mut printer)
        .map_err(|e| CliError::failed(e.to_string()))?;
    let book = builder.into_book();
    save(&book, out)?;
    print_report(&report, &book, out);
    Ok(())
}

fn print_report(r: &BuildReport, book: &Book, out: &Path) {
    println!(
        "{:?} after {} rounds in {}: {} positions added, {} searched again, {} searches ({} from \
         the journal); book {} positions to {}",
        r.reason,
        r.rounds,
        hms(r.elapsed),
        r.added,
        r.researched,
        r.searched,
        r.from_journal,
        book.len(),
        out.display()
    );
}

pub fn build(a: BuildArgs) -> CmdResult {
    let cfg = config(&a.grow, a.xot)?;
    let journal = journal_path(a.grow.journal.as_deref(), &a.out);
    grow(Book::new(), cfg, &a.out, &journal)
}

pub fn extend(a: ExtendArgs) -> CmdResult {
    let book = open(&a.book)?;
    let mut cfg = config(&a.grow, a.xot)?;
    if a.research_all {
        cfg.research = Research::All;
    }
    let out = a.out.unwrap_or_else(|| a.book.clone());
    let journal = journal_path(a.grow.journal.as_deref(), &out);
    grow(book, cfg, &out, &journal)
}

/// The games of a file: `.wtb`, `.ggf`, else transcripts one a line.
fn read_games(path: &Path) -> Result<Vec<Game>, CliError> {
    let at = |e: &dyn std::fmt::Display| CliError::input(format!("{}: {e}", path.display()));
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    let mut games = Vec::new();
    match ext.as_str() {
        "wtb" => {
            let bytes = std::fs::read(path).map_err(|e| at(&e))?;
            let file = wthor::read_wtb(&bytes).map_err(|e| at(&e))?;
            for (i, g) in file.games.iter().enumerate() {
                games.push(g.replay().map_err(|e| at(&e.at_game(i + 1)))?);
            }
        }
        "ggf" => {
            let text = std::fs::read_to_string(path).map_err(|e| at(&e))?;
            for (i, g) in ggf::read_ggf(&text).map_err(|e| at(&e))?.iter().enumerate() {
                games.push(g.replay().map_err(|e| at(&e.at_game(i + 1)))?);
            }
        }
        _ => {
            let text = std::fs::read_to_string(path).map_err(|e| at(&e))?;
            for (i, line) in text.lines().enumerate() {
                if line.trim().is_empty() || line.trim_start().starts_with('#') {
                    continue;
                }
                let t: Transcript = line
                    .parse()
                    .map_err(|e| at(&format!("line {}: {e}", i + 1)))?;
                games.push(
                    t.replay(Position::start())
                        .map_err(|e| at(&format!("line {}: {e}", i + 1)))?,
                );
            }
        }
    }
    Ok(games)
}

pub fn add(a: AddArgs) -> CmdResult {
    let book = if a.book.exists() {
        open(&a.book)?
    } else {
        Book::new()
    };
    let mut boards = Vec::new();
    let mut games = 0;
    for path in &a.games {
        for g in read_games(path)? {
            games += 1;
            let keep = (a.max_ply as usize + 1).min(g.positions().len());
            boards.extend(g.positions()[..keep].iter().map(|p| p.board()));
        }
    }
    let g = GrowArgs {
        depth: a.depth,
        max_ply: a.max_ply,
        move_window: 0.0,
        line_window: 0.0,
        positions: None,
        time: a.time,
        seed: 0,
        journal: a.journal.clone(),
        tt_mb: 16,
        threads: a.threads,
    };
    let cfg = config(&g, false)?;
    let out = a.out.unwrap_or_else(|| a.book.clone());
    let journal = journal_path(a.journal.as_deref(), &out);
    let mut builder = Builder::new(book, cfg);
    builder
        .journal(&journal)
        .map_err(|e| CliError::input(e.to_string()))?;
    eprintln!(
        "{games} games, {} positions along their first {} plies",
        boards.len(),
        a.max_ply
    );
    let mut printer = Printer {
        out: out.clone(),
        last: Instant::now(),
    };
    let report = builder
        .add_positions(&boards, &mut printer)
        .map_err(|e| CliError::failed(e.to_string()))?;
    let book = builder.into_book();
    save(&book, &out)?;
    print_report(&report, &book, &out);
    Ok(())
}
