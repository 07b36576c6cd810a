//! `virada analyze`: values of every move of a position, or a mistake table for a game.

use super::{CliError, CmdResult};
use clap::Args;
use std::path::Path;
use std::time::Duration;
use virada_engine::{Analysis, Engine, EngineConfig, Limits, PlyAnalysis};
use virada_rules::formats::ggf::read_ggf;
use virada_rules::formats::transcript::Transcript;
use virada_rules::{Color, Game, Move, Position};

#[derive(Args)]
pub struct AnalyzeArgs {
    /// A position (64-character board string and side to move), a move transcript from the
    /// start (`f5d6c3...`), or a file (`.ggf` game record, or a text file holding either).
    #[arg(allow_hyphen_values = true)]
    pub input: String,
    /// Search depth for each position.
    #[arg(long, conflicts_with = "time")]
    pub depth: Option<u32>,
    /// Seconds per position.
    #[arg(long)]
    pub time: Option<f64>,
    /// Solve exactly from this many empty squares.
    #[arg(long, default_value_t = 16)]
    pub exact: u32,
    /// Search threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

enum Input {
    Position(Position),
    Game(Game),
}

fn read_input(raw: &str) -> Result<Input, CliError> {
    let path = Path::new(raw);
    if path.is_file() {
        let text = std::fs::read_to_string(path)
            .map_err(|e| CliError::input(format!("cannot read {raw}: {e}")))?;
        let is_ggf = raw.to_lowercase().ends_with(".ggf") || text.trim_start().starts_with("(;");
        if is_ggf {
            let games = read_ggf(&text).map_err(|e| CliError::input(format!("{raw}: {e}")))?;
            let first = games
                .first()
                .ok_or_else(|| CliError::input(format!("{raw}: no game in the file")))?;
            let game = first
                .replay()
                .map_err(|e| CliError::input(format!("{raw}: {e}")))?;
            return Ok(Input::Game(game));
        }
        return parse_text(text.trim())
            .map_err(|e| CliError::input(format!("{raw}: {}", e.message)));
    }
    parse_text(raw.trim())
}

fn parse_text(text: &str) -> Result<Input, CliError> {
    if let Ok(pos) = text.parse::<Position>() {
        return Ok(Input::Position(pos));
    }
    let transcript: Transcript = text.parse().map_err(|e| {
        CliError::input(format!(
            "not a board (64 squares and side to move) nor a transcript: {e}"
        ))
    })?;
    let game = transcript
        .replay(Position::start())
        .map_err(|e| CliError::input(e.to_string()))?;
    Ok(Input::Game(game))
}

pub fn run(args: AnalyzeArgs) -> CmdResult {
    let limits = match (args.depth, args.time) {
        (_, Some(t)) if !(t > 0.0 && t.is_finite()) => {
            return Err(CliError::input(
                "--time must be a positive number of seconds",
            ))
        }
        (_, Some(t)) => Limits {
            time: Some(Duration::from_secs_f64(t)),
            exact_empties: Some(args.exact),
            ..Limits::default()
        },
        (d, None) => Limits {
            depth: Some(d.unwrap_or(10)),
            exact_empties: Some(args.exact),
            ..Limits::default()
        },
    };
    let mut cfg = EngineConfig::default();
    if let Some(t) = args.threads {
        cfg.threads = t.max(1);
    }
    let mut engine = Engine::new(cfg);
    match read_input(&args.input)? {
        Input::Position(pos) => {
            let a = engine.analyze(pos.board(), &limits, None);
            if args.json {
                println!("{}", position_json(&pos, &a));
            } else {
                print_position(&pos, &a);
            }
        }
        Input::Game(game) => {
            let plies = engine.analyze_game(&game, &limits, None, None).plies;
            if args.json {
                println!("{}", game_json(&game, &plies));
            } else {
                print_game(&game, &plies);
            }
        }
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
    println!("best line: {}", line(&a.pv));
    println!("{} nodes in {:.2} s", a.nodes, a.elapsed.as_secs_f64());
}

fn line(moves: &[Move]) -> String {
    moves
        .iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn print_game(game: &Game, plies: &[PlyAnalysis]) {
    println!("ply  side   played  value   best    value   loss");
    let mut total = [0.0f32; 2];
    for p in plies {
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
        println!(
            "{:>3}  {:<5}  {:<6} {:>+6.1}   {:<6} {:>+6.1}  {:>5.1}{}{mark}",
            p.ply + 1,
            p.color.name(),
            p.played.to_string(),
            p.played_value,
            p.best_move.to_string(),
            p.best_value,
            p.loss,
            if p.exact { " (exact)" } else { "" }
        );
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

fn game_json(game: &Game, plies: &[PlyAnalysis]) -> String {
    let rows: Vec<String> = plies
        .iter()
        .map(|p| {
            format!(
                "{{\"ply\":{},\"color\":\"{}\",\"played\":\"{}\",\"played_value\":{:.2},\"best\":\"{}\",\"best_value\":{:.2},\"loss\":{:.2},\"exact\":{}}}",
                p.ply + 1,
                p.color.name().to_lowercase(),
                p.played,
                p.played_value,
                p.best_move,
                p.best_value,
                p.loss,
                p.exact
            )
        })
        .collect();
    format!(
        "{{\"transcript\":\"{}\",\"moves\":[{}]}}",
        game,
        rows.join(",")
    )
}
