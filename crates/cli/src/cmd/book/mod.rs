//! `virada book ...`: build, grow, inspect and convert opening books (the engine's
//! `virada_engine::book` does the work; see docs/BOOK.md).

mod build;
mod recheck;

use super::args::{read_position_input, ThreadsArg};
use super::{CliError, CmdResult};
use build::GrowArgs;
use clap::{Args, Subcommand, ValueEnum};
use std::path::{Path, PathBuf};
use virada_engine::book::{write_edax, Book};
use virada_engine::book_build::verify;
use virada_engine::default_evaluator;
use virada_rules::formats::transcript::Transcript;
use virada_rules::{Move, Position};

#[derive(Args)]
pub struct BookArgs {
    #[command(subcommand)]
    pub what: BookWhat,
}

#[derive(Subcommand)]
pub enum BookWhat {
    /// Build a new book from the start position (and the XOT openings with --xot) by our own
    /// searches. Interrupted? Run the same command again: the journal resumes it.
    Build(BuildArgs),
    /// Grow an existing book: deeper, wider windows, more plies, re-searches.
    Extend(ExtendArgs),
    /// Add the lines of games (WTHOR .wtb, GGF, transcripts one a line): their positions are
    /// searched and added (the games' results are not used as values).
    Add(AddArgs),
    /// Negamax the whole book again (a position's value = the best of its moves').
    Fix(FixArgs),
    /// Positions, plies and search depths, size.
    Info(InfoArgs),
    /// The book moves of a position (board string, transcript, GGF, ...) with values and depth.
    Show(ShowBookArgs),
    /// Check a book: negamax consistency, and its values against deeper searches of a sample
    /// of its positions (mean error).
    Check(CheckArgs),
    /// Write a book in Virada's format or in Edax's book.dat format.
    Export(ExportArgs),
    /// Read a book (Virada's format or Edax's book.dat) and write it in Virada's format.
    Import(ImportArgs),
    /// The book moves WTHOR players chose that the book says lose 4+ discs, searched again
    /// deeper; with --out, the ones the book has wrong take the deeper values.
    Recheck(recheck::RecheckArgs),
}

#[derive(Args)]
pub struct BuildArgs {
    /// The book file to write (Virada's format).
    #[arg(long)]
    pub out: PathBuf,
    #[command(flatten)]
    pub grow: GrowArgs,
    /// Also start lines from each of the engine's XOT openings.
    #[arg(long)]
    pub xot: bool,
}

#[derive(Args)]
pub struct ExtendArgs {
    /// The book to grow (also the output unless --out is given).
    pub book: PathBuf,
    #[arg(long)]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub grow: GrowArgs,
    /// Also start lines from each of the engine's XOT openings.
    #[arg(long)]
    pub xot: bool,
    /// Search every position on the studied lines again (after the evaluation changed), not
    /// only those searched shallower than --depth.
    #[arg(long)]
    pub research_all: bool,
}

#[derive(Args)]
pub struct AddArgs {
    /// The book to add to (created if missing; also the output unless --out is given).
    pub book: PathBuf,
    /// Game files: .wtb, .ggf, or text with one transcript a line.
    #[arg(required = true)]
    pub games: Vec<PathBuf>,
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Search depth of each new position.
    #[arg(long, default_value_t = 12)]
    pub depth: u32,
    /// Positions up to this many plies into each game.
    #[arg(long, default_value_t = 20)]
    pub max_ply: u32,
    /// Stop after this wall time (e.g. 90s, 20m, 1h).
    #[arg(long, value_parser = build::parse_duration)]
    pub time: Option<std::time::Duration>,
    /// Journal of finished searches (default: the output file + `.journal`).
    #[arg(long)]
    pub journal: Option<PathBuf>,
    #[command(flatten)]
    pub threads: ThreadsArg,
}

#[derive(Args)]
pub struct FixArgs {
    pub book: PathBuf,
    #[arg(long)]
    pub out: Option<PathBuf>,
}

#[derive(Args)]
pub struct InfoArgs {
    /// A book file (Virada's or Edax's format); default: the book shipped with Virada.
    pub book: Option<PathBuf>,
}

#[derive(Args)]
pub struct ShowBookArgs {
    /// A position: board string and side, transcript (`f5d6c3`), GGF game, or a file.
    #[arg(required = true, num_args = 1.., allow_hyphen_values = true)]
    pub input: Vec<String>,
    /// A book file; default: the book shipped with Virada. Give it before the position (a
    /// board string may start with `-`, so everything after the position is the position).
    #[arg(long)]
    pub book: Option<PathBuf>,
}

#[derive(Args)]
pub struct CheckArgs {
    /// A book file; default: the book shipped with Virada.
    pub book: Option<PathBuf>,
    /// Positions to search.
    #[arg(long, default_value_t = 40)]
    pub sample: usize,
    /// Depth of the searches (deeper than the book's).
    #[arg(long, default_value_t = 16)]
    pub depth: u32,
    /// Also search each sampled position to this depth alone (e.g. the book's depth), to
    /// compare the book's values with a plain search's.
    #[arg(long)]
    pub baseline: Option<u32>,
    /// Which positions the sample draws.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[command(flatten)]
    pub threads: ThreadsArg,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum BookFormat {
    /// Virada's `.vbk` (versioned, checksummed, every searched move).
    Virada,
    /// Edax's `book.dat` (links and one leaf per position, whole discs).
    Edax,
}

#[derive(Args)]
pub struct ExportArgs {
    /// A book file; default: the book shipped with Virada.
    pub book: Option<PathBuf>,
    #[arg(long)]
    pub out: PathBuf,
    #[arg(long, value_enum, default_value = "virada")]
    pub format: BookFormat,
}

#[derive(Args)]
pub struct ImportArgs {
    /// A book in Virada's format or Edax's book.dat.
    pub file: PathBuf,
    #[arg(long)]
    pub out: PathBuf,
}

/// Opens a book file with a clear error.
pub(super) fn open(path: &Path) -> Result<Book, CliError> {
    Book::open(path).map_err(|e| CliError::input(e.to_string()))
}

/// The book a command reads: a file, else the shipped one.
fn book_or_shipped(path: Option<&Path>) -> Result<Book, CliError> {
    match path {
        Some(p) => open(p),
        None => Book::shipped()
            .cloned()
            .ok_or_else(|| CliError::failed("this build ships no book; give a book file")),
    }
}

pub(super) fn save(book: &Book, path: &Path) -> CmdResult {
    book.save(path).map_err(|e| CliError::failed(e.to_string()))
}

pub fn run(args: BookArgs) -> CmdResult {
    match args.what {
        BookWhat::Build(a) => build::build(a),
        BookWhat::Extend(a) => build::extend(a),
        BookWhat::Add(a) => build::add(a),
        BookWhat::Fix(a) => {
            let mut book = open(&a.book)?;
            let before = book.check_negamax().len();
            let changed = book.fix();
            save(&book, a.out.as_deref().unwrap_or(&a.book))?;
            println!(
                "{} positions; {before} were inconsistent, {changed} changed value",
                book.len()
            );
            Ok(())
        }
        BookWhat::Info(a) => {
            let book = book_or_shipped(a.book.as_deref())?;
            print!("{}", book.info());
            if !book.meta().is_empty() {
                println!("made with:");
                for line in book.meta().lines() {
                    println!("  {line}");
                }
            }
            Ok(())
        }
        BookWhat::Show(a) => show(a),
        BookWhat::Check(a) => check(a),
        BookWhat::Recheck(a) => recheck::recheck(a),
        BookWhat::Export(a) => {
            let book = book_or_shipped(a.book.as_deref())?;
            let bytes = match a.format {
                BookFormat::Virada => book.to_bytes(),
                BookFormat::Edax => write_edax(&book),
            };
            std::fs::write(&a.out, &bytes)
                .map_err(|e| CliError::failed(format!("{}: {e}", a.out.display())))?;
            println!(
                "{} positions, {} bytes to {}",
                book.len(),
                bytes.len(),
                a.out.display()
            );
            Ok(())
        }
        BookWhat::Import(a) => {
            let book = open(&a.file)?;
            save(&book, &a.out)?;
            println!("{} positions to {}", book.len(), a.out.display());
            Ok(())
        }
    }
}

fn check(a: CheckArgs) -> CmdResult {
    let book = book_or_shipped(a.book.as_deref())?;
    let bad = book.check_negamax();
    println!(
        "{} positions; negamax: {}",
        book.len(),
        if bad.is_empty() {
            "consistent".to_string()
        } else {
            format!(
                "{} positions inconsistent (run `virada book fix`)",
                bad.len()
            )
        }
    );
    let started = std::time::Instant::now();
    let r = verify::check(
        &book,
        a.sample,
        a.depth,
        a.baseline,
        a.seed,
        a.threads.or_all_cores(),
        default_evaluator(),
    );
    println!(
        "{} positions searched to depth {} in {:.0} s: book - search mean {:+.2}, mean |error| \
         {:.2}, max {:.2} discs; same best move {:.0}%",
        r.positions.len(),
        r.depth,
        started.elapsed().as_secs_f64(),
        r.mean_error(),
        r.mean_abs_error(),
        r.max_abs_error(),
        100.0 * r.same_best_rate()
    );
    if let (Some(d), Some(abs), Some(mean)) = (
        a.baseline,
        r.baseline_mean_abs_error(),
        r.baseline_mean_error(),
    ) {
        println!(
            "a plain depth-{d} search of the same positions: search{d} - search{} mean \
             {mean:+.2}, mean |error| {abs:.2} discs",
            r.depth
        );
    }
    if bad.is_empty() {
        Ok(())
    } else {
        Err(CliError::failed("the book is not negamax-consistent"))
    }
}

fn show(a: ShowBookArgs) -> CmdResult {
    let book = book_or_shipped(a.book.as_deref())?;
    let input = read_position_input(&a.input.join(" "))?;
    let position = input.position();
    if let Some(game) = input.game() {
        // The line judged move by move, as far as the book knows it.
        println!("line: {}", Transcript::from_game(game));
        let positions = game.positions();
        for (ply, mv) in game.moves().iter().enumerate() {
            let Move::Play(sq) = mv else { continue };
            let Some(probe) = book.probe(&positions[ply]) else {
                println!("{:3}. {sq}  (out of book)", ply + 1);
                break;
            };
            let best = probe.best().expect("a book position has moves");
            match probe.value_of(*sq) {
                Some(m) if m.value >= best.value => {
                    println!("{:3}. {sq} {:+6.2}  a best move", ply + 1, m.value)
                }
                Some(m) => println!(
                    "{:3}. {sq} {:+6.2}  best {} {:+6.2}  loss {:.2}",
                    ply + 1,
                    m.value,
                    best.square,
                    best.value,
                    best.value - m.value
                ),
                None => println!(
                    "{:3}. {sq}  (not searched in the book)  best {} {:+6.2}",
                    ply + 1,
                    best.square,
                    best.value
                ),
            }
        }
    }
    print!("{}", position.to_diagram());
    print_probe(&book, &position);
    Ok(())
}

fn print_probe(book: &Book, position: &Position) {
    let Some(probe) = book.probe(position) else {
        println!("not in the book");
        return;
    };
    println!(
        "book value {:+.2} for {} (depth {}{})",
        probe.value,
        position.side_to_move(),
        probe.depth,
        if probe.exact { ", exact" } else { "" }
    );
    for m in &probe.moves {
        println!(
            "  {} {:+6.2}  depth {:2}{}{}",
            m.square,
            m.value,
            m.depth,
            if m.exact { " exact" } else { "" },
            if m.in_book { "  (book line)" } else { "" }
        );
    }
}
