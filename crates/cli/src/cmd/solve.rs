//! `virada solve`: exact (or win/loss/draw) endgame solving of positions.

use super::args::ThreadsArg;
use super::solve_input::{read_positions, SolveInput};
use super::{CliError, CmdResult};
use clap::Args;
use std::time::Duration;
use virada_engine::endgame::{self, ScoreBound, SolveMode, SolveOptions, SolveResult};
use virada_rules::moves::spaced;
use virada_rules::{Color, Move, Position};

/// Above this many empties an exact solve may take minutes to hours: warn.
const SLOW_EMPTIES: u32 = 30;

#[derive(Args)]
pub struct SolveArgs {
    /// A board string (64 squares a1..h8 with X/O/-, then the side to move), an OBF line (a
    /// board string then `; MOVE:score` pairs, which are checked), a move transcript from the
    /// standard start (e.g. f5d6c3d3c4), a GGF game, or an OBF file (one position a line).
    #[arg(allow_hyphen_values = true)]
    pub input: String,
    /// Only decide win/loss/draw (much faster than the exact score).
    #[arg(long)]
    pub wld: bool,
    /// Score every legal move, not only the best one.
    #[arg(long)]
    pub all_moves: bool,
    /// Results do not depend on the number of threads.
    #[command(flatten)]
    pub threads: ThreadsArg,
    /// Stop each solve after this many seconds and report the proven bounds.
    #[arg(long, allow_negative_numbers = true)]
    pub time: Option<f64>,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 128)]
    pub hash_mb: usize,
    /// One JSON object per position instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Options shared by `solve` and `bench ffo`.
pub fn solve_options(
    wld: bool,
    all_moves: bool,
    threads: Option<usize>,
    time: Option<f64>,
    hash_mb: usize,
) -> Result<SolveOptions, CliError> {
    let mut opts = SolveOptions {
        mode: if wld {
            SolveMode::Wld
        } else {
            SolveMode::Exact
        },
        all_moves,
        tt_mib: hash_mb.max(1),
        ..SolveOptions::default()
    };
    if let Some(t) = threads {
        if t == 0 || t > 256 {
            return Err(CliError::input(format!(
                "--threads {t}: give a number of threads from 1 to 256"
            )));
        }
        opts.threads = t;
    }
    if let Some(s) = time {
        if !(s.is_finite() && s > 0.0) {
            return Err(CliError::input(format!(
                "--time {s}: give a positive number of seconds"
            )));
        }
        opts.time_limit = Some(Duration::from_secs_f64(s));
    }
    Ok(opts)
}

pub fn run(args: SolveArgs) -> CmdResult {
    let opts = solve_options(
        args.wld,
        args.all_moves,
        args.threads.given(),
        args.time,
        args.hash_mb,
    )?;
    let inputs = read_positions(&args.input)?;
    let mut mismatches = 0usize;
    let mut incomplete = 0usize;
    let mut checked = 0usize;
    let mut nodes = 0u64;
    let mut seconds = 0f64;
    for input in &inputs {
        let board = input.position.board();
        let empties = board.empty_count();
        if empties > SLOW_EMPTIES && opts.time_limit.is_none() && !args.json {
            eprintln!(
                "warning: {}: {empties} empties; an exact solve may take very long \
                 (use --time S to stop after S seconds with the bounds proven so far)",
                input.label
            );
        }
        let result = endgame::solve(board, &opts);
        let verdict = check_expected(input, &result, opts.mode);
        checked += usize::from(verdict.is_some());
        if matches!(verdict, Some(false)) {
            mismatches += 1;
        }
        nodes += result.nodes;
        seconds += result.elapsed.as_secs_f64();
        if !result.complete {
            incomplete += 1;
        }
        if args.json {
            println!("{}", to_json(input, &result, opts.mode, verdict));
        } else {
            print_text(input, &result, opts.mode, verdict);
        }
    }
    if !args.json {
        let n = inputs.len();
        println!(
            "{n} position{} solved, {} complete, {} checked against expected scores: {}; \
             {nodes} nodes in {seconds:.3} s",
            if n == 1 { "" } else { "s" },
            n - incomplete,
            checked,
            if checked == 0 {
                "nothing to check".to_string()
            } else if mismatches == 0 {
                "all match".to_string()
            } else {
                format!("{mismatches} MISMATCH")
            }
        );
    }
    if mismatches > 0 {
        return Err(CliError::failed(format!(
            "{mismatches} of {} results do not match the expected scores",
            inputs.len()
        )));
    }
    if incomplete > 0 && inputs.iter().any(|i| i.expected_best.is_some()) {
        return Err(CliError::failed(format!(
            "{incomplete} of {} solves were stopped before proving a result",
            inputs.len()
        )));
    }
    Ok(())
}

/// Whether the result agrees with the expected scores of an OBF line (None: nothing to check).
pub fn check_expected(input: &SolveInput, r: &SolveResult, mode: SolveMode) -> Option<bool> {
    let expected = input.expected_best?;
    if !r.complete {
        return Some(false);
    }
    let score_ok = match mode {
        SolveMode::Exact => r.score.value() == Some(expected),
        SolveMode::Wld => r.score.wld() == Some(expected.signum()),
    };
    let best_ok = match mode {
        SolveMode::Exact => r.best_moves.iter().all(|m| {
            input
                .expected_moves
                .iter()
                .any(|(em, s)| em == m && *s == expected)
        }),
        SolveMode::Wld => r.best_moves.iter().all(|m| {
            input
                .expected_moves
                .iter()
                .any(|(em, s)| em == m && s.signum() == expected.signum())
        }),
    };
    let moves_ok = r.move_scores.iter().all(|(m, b)| {
        input
            .expected_moves
            .iter()
            .find(|(em, _)| em == m)
            .is_none_or(|(_, s)| b.lower <= *s && *s <= b.upper)
    });
    Some(score_ok && best_ok && moves_ok)
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::Black => "Black (X)",
        Color::White => "White (O)",
    }
}

/// The score as text, with win/draw/loss wording in WLD mode.
pub fn score_text(score: &ScoreBound, mode: SolveMode) -> String {
    match (mode, score.wld()) {
        (SolveMode::Wld, Some(1)) => format!("win ({score})"),
        (SolveMode::Wld, Some(0)) => "draw (0)".to_string(),
        (SolveMode::Wld, Some(_)) => format!("loss ({score})"),
        _ => score.to_string(),
    }
}

fn print_text(input: &SolveInput, r: &SolveResult, mode: SolveMode, verdict: Option<bool>) {
    let pos: &Position = &input.position;
    println!(
        "{}: {} empties, {} to move",
        input.label,
        r.empties,
        side_name(pos.side_to_move())
    );
    if r.best_moves.is_empty() && r.complete && r.move_scores.is_empty() {
        let counts = pos.disc_counts();
        println!(
            "  the game is over: {} discs black, {} white; final score {} for the side to move",
            counts.black_discs, counts.white_discs, r.score
        );
        return;
    }
    if r.complete && r.best_moves.first() == Some(&Move::Pass) {
        println!(
            "  {} has no legal move and must pass",
            side_name(pos.side_to_move())
        );
    }
    if !r.complete && r.score == ScoreBound::UNKNOWN {
        println!("  STOPPED before anything was proven (score between -64 and +64)");
    } else if !r.complete {
        println!(
            "  STOPPED before the end: proven score {} (not exact){}",
            r.score,
            if r.best_moves.is_empty() {
                String::new()
            } else {
                format!(", best so far {}", spaced(&r.best_moves))
            }
        );
    } else {
        println!(
            "  best: {}  score: {}",
            spaced(&r.best_moves),
            score_text(&r.score, mode)
        );
        if !r.pv.is_empty() {
            let to_end = pv_reaches_the_end(pos, &r.pv);
            println!(
                "  pv: {}{}",
                spaced(&r.pv),
                match (mode, to_end) {
                    (_, true) => " (to the end of the game)",
                    (SolveMode::Wld, false) => " (win/loss/draw solves prove only the first move)",
                    (SolveMode::Exact, false) => "",
                }
            );
        }
    }
    if !r.move_scores.is_empty() {
        let all: Vec<String> = r
            .move_scores
            .iter()
            .map(|(m, b)| format!("{m}:{}", score_text(b, mode)))
            .collect();
        println!("  moves: {}", all.join("  "));
    }
    let secs = r.elapsed.as_secs_f64();
    println!(
        "  nodes {}  time {:.3} s  {:.2} Mnodes/s",
        r.nodes,
        secs,
        r.nodes as f64 / secs.max(1e-9) / 1e6
    );
    if let (Some(ok), Some(exp)) = (verdict, input.expected_best) {
        println!(
            "  expected {} ({}): {}",
            ScoreBound::exact(exp),
            spaced(
                input
                    .expected_moves
                    .iter()
                    .filter(|(_, s)| *s == exp)
                    .map(|(m, _)| *m)
            ),
            if ok { "OK" } else { "MISMATCH" }
        );
    }
}

/// Whether playing `pv` from `pos` is legal and ends the game.
pub fn pv_reaches_the_end(pos: &Position, pv: &[Move]) -> bool {
    let mut p = *pos;
    for &mv in pv {
        match p.play(mv) {
            Ok(next) => p = next,
            Err(_) => return false,
        }
    }
    p.is_game_over()
}

fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn json_bound(b: &ScoreBound) -> String {
    format!(
        "{{\"lower\":{},\"upper\":{},\"exact\":{}}}",
        b.lower,
        b.upper,
        b.is_exact()
    )
}

fn json_moves(moves: &[Move]) -> String {
    let v: Vec<String> = moves.iter().map(|m| json_string(&m.to_string())).collect();
    format!("[{}]", v.join(","))
}

fn to_json(input: &SolveInput, r: &SolveResult, mode: SolveMode, verdict: Option<bool>) -> String {
    let move_scores: Vec<String> = r
        .move_scores
        .iter()
        .map(|(m, b)| {
            format!(
                "{{\"move\":{},\"score\":{}}}",
                json_string(&m.to_string()),
                json_bound(b)
            )
        })
        .collect();
    format!(
        "{{\"label\":{},\"position\":{},\"empties\":{},\"mode\":{},\"complete\":{},\
         \"best_moves\":{},\"score\":{},\"pv\":{},\"move_scores\":[{}],\"nodes\":{},\
         \"seconds\":{:.6},\"expected\":{},\"matches\":{}}}",
        json_string(&input.label),
        json_string(&input.position.to_string()),
        r.empties,
        json_string(match mode {
            SolveMode::Exact => "exact",
            SolveMode::Wld => "wld",
        }),
        r.complete,
        json_moves(&r.best_moves),
        json_bound(&r.score),
        json_moves(&r.pv),
        move_scores.join(","),
        r.nodes,
        r.elapsed.as_secs_f64(),
        input
            .expected_best
            .map_or("null".to_string(), |v| v.to_string()),
        verdict.map_or("null".to_string(), |v| v.to_string()),
    )
}
