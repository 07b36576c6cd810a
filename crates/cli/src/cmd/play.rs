//! `virada play`: a terminal game against the engine, or between two people.

use super::args::{read_position_input, BookArg};
use super::{CliError, CmdResult};
use clap::{Args, ValueEnum};
use std::io::{BufRead, Write};
use virada_engine::levels::{DEFAULT_LEVEL, MAX_LEVEL, MIN_LEVEL};
use virada_engine::openings::builtin;
use virada_engine::{opening_names, Engine, EngineConfig, Level, Limits};
use virada_rules::{Color, Game, Move, Position, Scoring, Status};

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Side {
    Black,
    White,
}

#[derive(Args)]
pub struct PlayArgs {
    /// Engine level, 1 (beginner) to 21 (maximum).
    #[arg(
        long,
        default_value_t = DEFAULT_LEVEL,
        value_parser = clap::value_parser!(u8).range(i64::from(MIN_LEVEL)..=i64::from(MAX_LEVEL))
    )]
    pub level: u8,
    /// Your colour (Black moves first).
    #[arg(long, value_enum, default_value_t = Side::Black)]
    pub color: Side,
    /// Two people play each other; the engine only gives hints.
    #[arg(long)]
    pub two_players: bool,
    /// Start from a random balanced 8-move opening (XOT).
    #[arg(long, conflicts_with = "position")]
    pub xot: bool,
    /// Start from this position: a board string and side to move, a transcript (its moves can
    /// be taken back), a GGF game, or a file holding one.
    #[arg(long, allow_hyphen_values = true)]
    pub position: Option<String>,
    /// Seed for the XOT opening, the beginner levels' choices and the book moves the middle
    /// levels draw (default: from the clock).
    #[arg(long)]
    pub seed: Option<u64>,
    #[command(flatten)]
    pub book: BookArg,
}

pub fn run(args: PlayArgs) -> CmdResult {
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64)
    });
    let mut game = if let Some(text) = &args.position {
        let mut game = read_position_input(text)
            .map_err(|e| CliError::input(format!("--position: {e}")))?
            .into_game();
        game.play_forced_passes();
        game
    } else if args.xot {
        let list = builtin();
        let o = list[(seed % list.len() as u64) as usize];
        println!("XOT opening: {o}");
        o.game()
    } else {
        Game::new()
    };
    let human = match args.color {
        Side::Black => Color::Black,
        Side::White => Color::White,
    };
    let level = Level::new(args.level);
    let mut engine = Engine::new(EngineConfig::default());
    engine.set_book(args.book.load()?);
    let mut opening = None;
    if !args.two_players {
        println!("{}", virada_domain::level_text::describe_en(level));
    }
    println!("Type a move (e.g. d3), or: hint, undo, quit.");
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    loop {
        let pos = game.position();
        print_board(&pos);
        let named = opening_names::recognize(game.positions()).map(|r| r.name);
        if named.is_some() && named != opening {
            println!("Opening: {}", named.map_or("", |n| n.en));
        }
        opening = named;
        let to_move = match game.status() {
            Status::Ended(result) => {
                let (b, w) = result.score(Scoring::Wof);
                let verdict = match result.winner() {
                    Some(c) => format!("{} wins", c.name()),
                    None => "Draw".to_string(),
                };
                println!("Game over: {verdict}, {b}-{w} (WOF score; Black-White).");
                return Ok(());
            }
            Status::Ongoing { to_move, must_pass } => {
                if must_pass {
                    println!("{} has no legal move and passes.", to_move.name());
                    game.play(Move::Pass)
                        .map_err(|e| CliError::failed(e.to_string()))?;
                    continue;
                }
                to_move
            }
        };
        if !args.two_players && to_move != human {
            let seed = seed ^ game.ply() as u64;
            let from_book = engine.book_move(pos.board(), level.spec().book, seed);
            let mv = match from_book {
                Some(mv) => mv,
                None => engine.choose_move(pos.board(), level, seed, None),
            };
            let how = if from_book.is_some() {
                " from its book"
            } else {
                ""
            };
            println!("{} (engine) plays {mv}{how}.", to_move.name());
            game.play(mv).map_err(|e| CliError::failed(e.to_string()))?;
            continue;
        }
        print!("{} to move> ", to_move.name());
        std::io::stdout().flush().ok();
        let Some(line) = lines.next() else {
            println!();
            return Ok(());
        };
        let line = line.map_err(|e| CliError::failed(format!("cannot read input: {e}")))?;
        let cmd = line.trim().to_lowercase();
        match cmd.as_str() {
            "" => {}
            "quit" | "q" | "exit" => return Ok(()),
            "undo" | "u" => undo(&mut game, args.two_players, human),
            "hint" | "h" => {
                let a = engine.analyze(pos.board(), &Limits::depth(8), None);
                let values: Vec<String> = a
                    .moves
                    .iter()
                    .map(|m| {
                        let mark = if m.book {
                            " (book)"
                        } else if m.exact {
                            "!"
                        } else {
                            ""
                        };
                        format!("{} {:+.1}{mark}", m.mv, m.value)
                    })
                    .collect();
                println!(
                    "Hint (disc difference you can expect; ! = exact, (book) = opening book): {}",
                    values.join(", ")
                );
            }
            _ => match cmd.parse::<Move>() {
                Ok(mv) => {
                    if let Err(e) = game.play(mv) {
                        println!("{}", e.reason);
                    }
                }
                Err(_) => println!(
                    "'{}' is not a move (like d3) or a command (hint, undo, quit).",
                    line.trim()
                ),
            },
        }
    }
}

/// Takes back the last move, and against the engine also the engine's reply, so the human is
/// to move again.
fn undo(game: &mut Game, two_players: bool, human: Color) {
    let undone = if two_players {
        game.undo_turn()
    } else {
        game.undo_to_turn(human)
    };
    if !undone {
        println!("Nothing to undo.");
    }
}

fn print_board(pos: &Position) {
    println!();
    print!("{}", pos.to_diagram());
    let counts = pos.disc_counts();
    let legal: Vec<String> = pos.legal_moves().iter().map(|s| s.to_string()).collect();
    println!(
        "Black (X) {}  White (O) {}   legal: {}",
        counts.black_discs,
        counts.white_discs,
        if legal.is_empty() {
            "none".to_string()
        } else {
            legal.join(" ")
        }
    );
}
