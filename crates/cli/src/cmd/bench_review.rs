//! `virada bench review`: how often the review is wrong about a mistake. Draws WTHOR games with
//! a fixed seed, reviews each (the standard review, a node budget of one's own, or the old
//! fixed-depth review), and searches every flagged move outside the book (a loss of 2 discs or
//! more) again, deeper: the played and the suggested move at `--check-depth`, exact from
//! `--check-exact` empties, with an engine of its own. A flag whose loss in that check is
//! under 1 disc is a false flag. Prints each flag, the false-flag rate, and the review's nodes
//! and CPU time per game.

use super::bench_coach::draw;
use super::{CliError, CmdResult};
use clap::{Args, ValueEnum};
use std::path::PathBuf;
use virada_engine::{Book, Engine, EngineConfig, GameAnalysis, Limits, ReviewEffort};
use virada_rules::formats::transcript::Transcript;
use virada_rules::{Board, Color, Move, Position};

#[derive(Args)]
pub struct ReviewBenchArgs {
    /// Data directory (with wthor/).
    #[arg(long, default_value = "../shared/data")]
    pub data: PathBuf,
    /// Games to draw.
    #[arg(long, default_value_t = 8)]
    pub games: usize,
    /// Seed of the draw.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Draw from the WTHOR files of these years.
    #[arg(long, default_value_t = 1980)]
    pub from_year: u16,
    #[arg(long, default_value_t = 2015)]
    pub to_year: u16,
    /// The review measured.
    #[arg(long, value_enum, default_value_t = ReviewKind::Standard)]
    pub review: ReviewKind,
    /// With `--review standard`: the node budget of a game (default: the server's).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Depth of the check.
    #[arg(long, default_value_t = 16)]
    pub check_depth: u32,
    /// The check solves exactly from this many empty squares.
    #[arg(long, default_value_t = 20)]
    pub check_exact: u32,
    /// Transposition table of each engine, MiB.
    #[arg(long, default_value_t = 256)]
    pub tt_mb: usize,
}

/// Which review to measure.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ReviewKind {
    /// The review with a node budget and re-checks ([`ReviewEffort`]).
    Standard,
    /// The review before it: every position at depth 8, exact from 14 empties.
    Depth8,
}

/// A flagged move outside the book.
const FLAG_LOSS: f32 = 2.0;
/// A flag whose checked loss is under this is false.
const FALSE_BELOW: f32 = 1.0;

/// CPU time of the calling thread so far, seconds (Linux; `None` elsewhere).
fn thread_cpu_seconds() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = s.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}

pub fn run(args: ReviewBenchArgs) -> CmdResult {
    if args.from_year > args.to_year {
        return Err(CliError::input("--from-year is after --to-year"));
    }
    let games = draw(
        &args.data.join("wthor"),
        args.from_year..=args.to_year,
        args.games,
        args.seed,
    )?;
    let config = EngineConfig {
        tt_mb: args.tt_mb,
        threads: 1,
        ..EngineConfig::default()
    };
    let mut reviewer = Engine::new(config.clone());
    reviewer.set_book(Book::shipped());
    let mut checker = Engine::new(config);
    let effort = args
        .nodes
        .map_or(ReviewEffort::STANDARD, ReviewEffort::with_nodes);
    let what = match args.review {
        ReviewKind::Standard => format!(
            "review: {} nodes a game, exact from {}, re-check of losses of {}+ {} plies deeper",
            effort.nodes, effort.exact_empties, effort.recheck_loss, effort.recheck_plies
        ),
        ReviewKind::Depth8 => "review: depth 8, exact from 14 (the old review)".to_string(),
    };
    println!(
        "review check: {} WTHOR games {}-{}, seed {}; {what}; check: played and suggested move \
         at depth {}, exact from {} empties, one thread",
        args.games, args.from_year, args.to_year, args.seed, args.check_depth, args.check_exact
    );
    let check_limits = Limits {
        depth: Some(args.check_depth),
        exact_empties: Some(args.check_exact),
        ..Limits::default()
    };
    let (mut flags, mut false_flags, mut best_in_check) = (0usize, 0usize, 0usize);
    let (mut nodes, mut cpu) = (0u64, 0.0f64);
    for (i, d) in games.iter().enumerate() {
        let before = thread_cpu_seconds();
        let review: GameAnalysis = match args.review {
            ReviewKind::Standard => reviewer.review_game(&d.game, &effort, None),
            ReviewKind::Depth8 => {
                let limits = Limits {
                    depth: Some(8),
                    exact_empties: Some(14),
                    ..Limits::default()
                };
                reviewer.analyze_game(&d.game, &limits, None, None)
            }
        };
        let spent = match (before, thread_cpu_seconds()) {
            (Some(a), Some(b)) => b - a,
            _ => review.elapsed.as_secs_f64(),
        };
        nodes += review.nodes;
        cpu += spent;
        let flagged: Vec<_> = review
            .plies
            .iter()
            .filter(|p| !p.book && p.loss >= FLAG_LOSS)
            .collect();
        println!(
            "game {}: WTH_{}.wtb #{} {}: {} flags, {} nodes, {spent:.1} s CPU{}",
            i + 1,
            d.year,
            d.index,
            Transcript::from_game(&d.game),
            flagged.len(),
            review.nodes,
            if review.complete { "" } else { " (incomplete)" }
        );
        for p in flagged {
            let pos: Position = d.game.positions()[p.ply];
            let board = pos.board();
            let moves = [p.best_move, p.played];
            let check = checker.analyze_moves(board, &check_limits, &moves, None);
            let value = |mv: Move| check.value_of(mv).map(|m| m.value);
            let (Some(best), Some(played)) = (value(p.best_move), value(p.played)) else {
                return Err(CliError::failed(format!(
                    "the check of ply {} has no value for {} or {}",
                    p.ply + 1,
                    p.best_move,
                    p.played
                )));
            };
            let checked_loss = (best - played).max(0.0);
            flags += 1;
            let is_false = checked_loss < FALSE_BELOW;
            false_flags += usize::from(is_false);
            best_in_check += usize::from(played >= best);
            println!(
                "  ply {:>2} {:<5} {} empties: played {} {:+.1}, suggested {} {:+.1}, loss {:.1}{} \
                 | check: {} {:+.1}, {} {:+.1}, loss {:.1}{}",
                p.ply + 1,
                color_name(p.color),
                board.empty_count(),
                p.played,
                p.played_value,
                p.best_move,
                p.best_value,
                p.loss,
                if p.exact {
                    " exact".to_string()
                } else {
                    format!(" depth {}", p.depth)
                },
                p.played,
                played,
                p.best_move,
                best,
                checked_loss,
                if is_false {
                    format!("  FALSE  {}", position_text(board, p.color))
                } else {
                    String::new()
                },
            );
        }
    }
    let n = games.len().max(1) as f64;
    println!(
        "flags (non-book, loss {FLAG_LOSS}+): {flags}; false (checked loss under {FALSE_BELOW}): \
         {false_flags} = {:.1}% ({best_in_check} where the played move checks at least as good)",
        100.0 * false_flags as f64 / flags.max(1) as f64
    );
    println!(
        "review cost: {:.0} M nodes and {:.1} s CPU a game (one thread)",
        nodes as f64 / n / 1e6,
        cpu / n
    );
    Ok(())
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "Black",
        Color::White => "White",
    }
}

/// The position as a board string with the side to move (`X` Black, `O` White).
fn position_text(board: Board, mover: Color) -> String {
    let (black, white) = match mover {
        Color::Black => (board.player, board.opponent),
        Color::White => (board.opponent, board.player),
    };
    Position::from_colors(black, white, mover).map_or_else(|| "?".to_string(), |p| p.to_string())
}
