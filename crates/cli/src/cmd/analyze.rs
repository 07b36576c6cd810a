//! `virada analyze`: values of every move of a position, or a game's review: a mistake table
//! with the coach's explanations (the same as the server's analysis).

use super::args::{read_position_input, BookArg, ThreadsArg};
use super::{CliError, CmdResult};
use clap::{Args, ValueEnum};
use std::time::Duration;
use virada_engine::coach::{self, Lang};
use virada_engine::search::{DEFAULT_DEPTH, DEFAULT_EXACT_EMPTIES};
use virada_engine::{Analysis, Engine, EngineConfig, GameAnalysis, Limits, ReviewEffort};
use virada_rules::moves::spaced;
use virada_rules::{Color, Game, Position};

#[derive(Args)]
pub struct AnalyzeArgs {
    /// A position: a board string and side to move, an OBF line, a move transcript from the
    /// start (`f5d6c3`, `1. f5 d6 2. c3`: the position after it), a GGF game, or a file
    /// holding one of them. With `--game`, a transcript or GGF game to review.
    #[arg(allow_hyphen_values = true)]
    pub input: String,
    /// Review a whole game (transcript or GGF): every move's value against the best move.
    #[arg(long)]
    pub game: bool,
    /// Search depth for each position (default 10; with `--game`, a fixed-depth review
    /// instead of the standard one).
    #[arg(long, conflicts_with = "time")]
    pub depth: Option<u32>,
    /// Seconds per position (with `--game`, a fixed-time review instead of the standard one).
    #[arg(long)]
    pub time: Option<f64>,
    /// Solve exactly from this many empty squares (default 16; with `--game` and neither
    /// `--depth` nor `--time`: the standard review's 20).
    #[arg(long)]
    pub exact: Option<u32>,
    /// With `--game`: the standard review's node budget for the whole game (default: the
    /// server's, 400,000,000).
    #[arg(long, conflicts_with_all = ["depth", "time"])]
    pub nodes: Option<u64>,
    #[command(flatten)]
    pub threads: ThreadsArg,
    /// Print JSON instead of a table (with `--game`: the server's analysis object, see
    /// docs/API.md).
    #[arg(long)]
    pub json: bool,
    /// With `--game`: the opening book judging book positions (moves in the book are not
    /// explained).
    #[command(flatten)]
    pub book: BookArg,
    /// With `--game`: the language of the explanations.
    #[arg(long, value_enum, default_value_t = LangArg::En)]
    pub lang: LangArg,
}

/// `--lang`.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LangArg {
    En,
    /// Brazilian Portuguese.
    Pt,
}

impl LangArg {
    fn lang(self) -> Lang {
        match self {
            LangArg::En => Lang::En,
            LangArg::Pt => Lang::Pt,
        }
    }
}

pub fn run(args: AnalyzeArgs) -> CmdResult {
    // The standard review: a game, and neither a depth nor a time asked.
    let standard_review = args.game && args.depth.is_none() && args.time.is_none();
    let exact = args.exact.unwrap_or(DEFAULT_EXACT_EMPTIES);
    let limits = match (args.depth.unwrap_or(DEFAULT_DEPTH), args.time) {
        (_, Some(t)) if !(t > 0.0 && t.is_finite()) => {
            return Err(CliError::input(
                "--time must be a positive number of seconds",
            ))
        }
        (_, Some(t)) => Limits {
            time: Some(Duration::from_secs_f64(t)),
            exact_empties: Some(exact),
            ..Limits::default()
        },
        (d, None) => Limits {
            depth: Some(d),
            exact_empties: Some(exact),
            ..Limits::default()
        },
    };
    let input = read_position_input(&args.input)?;
    let mut cfg = EngineConfig::default();
    if let Some(t) = args.threads.given() {
        cfg.threads = t;
    }
    let mut engine = Engine::new(cfg);
    if args.game {
        let kind = input.kind();
        let Some(game) = input.game().cloned() else {
            return Err(CliError::input(format!(
                "--game reviews a game: give a transcript or a GGF game, not a {kind} \
                 (without --game, analyze gives the values of a position's moves)"
            )));
        };
        engine.set_book(args.book.load()?);
        let review = if standard_review {
            let mut effort = args
                .nodes
                .map_or(ReviewEffort::STANDARD, ReviewEffort::with_nodes);
            if let Some(e) = args.exact {
                effort.exact_empties = e;
            }
            engine.review_game(&game, &effort, None)
        } else {
            engine.analyze_game(&game, &limits, None, None)
        };
        if args.json {
            let view = virada_domain::analysis::analysis_view(&game, &review);
            println!("{}", view.to_json());
        } else {
            print_game(&game, &review, args.lang.lang());
        }
        return Ok(());
    }
    if args.nodes.is_some() {
        return Err(CliError::input(
            "--nodes is the node budget of a game's review: use it with --game",
        ));
    }
    let pos = input.position();
    if let Some(g) = input.game() {
        if !args.json {
            println!("After {} moves ({}):", g.ply(), input.kind());
        }
    }
    let a = engine.analyze(pos.board(), &limits, None);
    if args.json {
        println!("{}", position_json(&pos, &a));
    } else {
        print_position(&pos, &a);
    }
    Ok(())
}

fn print_position(pos: &Position, a: &Analysis) {
    print!("{}", pos.to_diagram());
    println!(
        "{} to move. Values: final disc difference for {}.",
        pos.side_to_move().name(),
        pos.side_to_move().name()
    );
    if a.moves.is_empty() {
        println!("The game is over.");
        return;
    }
    println!("move   value  exact  depth");
    for m in &a.moves {
        println!(
            "{:<5} {:>+6.1}  {:<5}  {:>5}",
            m.mv.to_string(),
            m.value,
            if m.exact { "yes" } else { "no" },
            m.depth
        );
    }
    println!("best line: {}", spaced(&a.pv));
    println!("{} nodes in {:.2} s", a.nodes, a.elapsed.as_secs_f64());
}

fn print_game(game: &Game, review: &GameAnalysis, lang: Lang) {
    let numbers = coach::move_numbers(game);
    let explained = coach::explain_game(game, review);
    println!("ply  side   played    value   best    value   loss");
    let mut total = [0.0f32; 2];
    for p in &review.plies {
        let side = match p.color {
            Color::Black => 0,
            Color::White => 1,
        };
        total[side] += p.loss;
        let mark = if p.loss >= 6.0 {
            "  ?? blunder"
        } else if p.loss >= 2.0 {
            "  ? mistake"
        } else {
            ""
        };
        let label = coach::move_label(numbers.get(p.ply).copied().unwrap_or(0), p.color);
        println!(
            "{:>3}  {:<5}  {:<9} {:>+6.1}   {:<6} {:>+6.1}  {:>5.1}{}{}{mark}",
            p.ply + 1,
            p.color.name(),
            format!("{label} {}", p.played),
            p.played_value,
            p.best_move.to_string(),
            p.best_value,
            p.loss,
            if p.exact { " (exact)" } else { "" },
            if p.book { " (book)" } else { "" },
        );
        let reasons = explained.iter().find(|e| e.ply == p.ply);
        for e in reasons.map_or(&[][..], |e| &e.explanations) {
            println!("       - {}", e.text(lang));
        }
    }
    println!(
        "total disc loss: Black {:.1}, White {:.1}",
        total[0], total[1]
    );
    if let Some(r) = game.result() {
        let (b, w) = r.wof();
        println!("final score {b}-{w} (WOF, Black-White)");
    }
}

fn position_json(pos: &Position, a: &Analysis) -> String {
    let moves: Vec<String> = a
        .moves
        .iter()
        .map(|m| {
            format!(
                "{{\"move\":\"{}\",\"value\":{:.2},\"exact\":{},\"depth\":{}}}",
                m.mv, m.value, m.exact, m.depth
            )
        })
        .collect();
    let pv: Vec<String> = a.pv.iter().map(|m| format!("\"{m}\"")).collect();
    format!(
        "{{\"position\":\"{pos}\",\"moves\":[{}],\"pv\":[{}],\"nodes\":{},\"seconds\":{:.3}}}",
        moves.join(","),
        pv.join(","),
        a.nodes,
        a.elapsed.as_secs_f64()
    )
}
