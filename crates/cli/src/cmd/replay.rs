//! `virada replay`: validates GGF files, WTHOR `.wtb` files or a transcript and prints results.

use super::{CliError, CmdResult};
use clap::Args;
use std::path::Path;
use virada_rules::formats::transcript::Transcript;
use virada_rules::formats::{ggf, wthor, FormatError};
use virada_rules::{Game, Position};

#[derive(Args)]
pub struct ReplayArgs {
    /// A `.ggf` or `.wtb` file, a text file of transcripts (one a line), or a transcript.
    #[arg(required = true, num_args = 1.., allow_hyphen_values = true)]
    pub input: Vec<String>,
}

/// Counts of a validation run over many games.
#[derive(Default)]
struct Tally {
    games: usize,
    finished: usize,
    /// WTHOR only: recorded final count differs from the replay.
    score_mismatches: usize,
    illegal: usize,
    first_illegal: Option<String>,
}

impl Tally {
    fn add(&mut self, index: usize, outcome: Result<Game, FormatError>) -> Option<Game> {
        self.games += 1;
        match outcome {
            Ok(g) => {
                self.finished += usize::from(g.is_over());
                Some(g)
            }
            Err(e) => {
                self.illegal += 1;
                self.first_illegal
                    .get_or_insert_with(|| e.at_game(index + 1).to_string());
                None
            }
        }
    }

    fn report(&self) -> CmdResult {
        println!(
            "{} games, {} legal ({} finished), {} illegal",
            self.games,
            self.games - self.illegal,
            self.finished,
            self.illegal
        );
        if self.score_mismatches > 0 {
            println!(
                "{} recorded final counts disagree with the replay (recording errors; the replay is right)",
                self.score_mismatches
            );
        }
        match &self.first_illegal {
            Some(first) => Err(CliError::failed(format!("first illegal move: {first}"))),
            None => Ok(()),
        }
    }
}

fn read_text(path: &Path) -> Result<String, CliError> {
    std::fs::read_to_string(path).map_err(|e| CliError::input(format!("{}: {e}", path.display())))
}

fn replay_wtb(path: &Path) -> CmdResult {
    let bytes =
        std::fs::read(path).map_err(|e| CliError::input(format!("{}: {e}", path.display())))?;
    let file =
        wthor::read_wtb(&bytes).map_err(|e| CliError::input(format!("{}: {e}", path.display())))?;
    let mut tally = Tally::default();
    for (i, record) in file.games.iter().enumerate() {
        if let Some(g) = tally.add(i, record.replay()) {
            if wthor::black_score(&g.position()) != record.black_discs {
                tally.score_mismatches += 1;
            }
        }
    }
    tally.report()
}

fn replay_ggf(path: &Path) -> CmdResult {
    let games = ggf::read_ggf(&read_text(path)?)
        .map_err(|e| CliError::input(format!("{}: {e}", path.display())))?;
    let mut tally = Tally::default();
    for (i, g) in games.iter().enumerate() {
        tally.add(i, g.replay());
    }
    if games.len() == 1 && tally.illegal == 0 {
        let game = games[0]
            .replay()
            .map_err(|e| CliError::failed(e.to_string()))?;
        print_game(&game);
    }
    tally.report()
}

fn print_game(game: &Game) {
    println!("{} plies: {}", game.ply(), Transcript::from_game(game));
    match game.result() {
        Some(r) => println!(
            "game over: Black {} - White {} (WOF; discs {}-{})",
            r.wof().0,
            r.wof().1,
            r.black_discs,
            r.white_discs
        ),
        None => {
            let p = game.position();
            println!(
                "unfinished: {} to move, discs Black {} - White {}",
                p.side_to_move(),
                p.black().count(),
                p.white().count()
            );
        }
    }
}

fn replay_transcripts(text: &str) -> CmdResult {
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let mut transcripts = Vec::with_capacity(lines.len());
    for (i, line) in lines.iter().enumerate() {
        let t: Transcript = line.parse().map_err(|e: FormatError| {
            let where_ = if lines.len() > 1 {
                format!("line {}: ", i + 1)
            } else {
                String::new()
            };
            CliError::input(format!("{where_}{e}"))
        })?;
        transcripts.push(t);
    }
    if transcripts.len() == 1 {
        let game = transcripts[0]
            .replay(Position::start())
            .map_err(|e| CliError::failed(e.to_string()))?;
        print_game(&game);
        return Ok(());
    }
    let mut tally = Tally::default();
    for (i, t) in transcripts.iter().enumerate() {
        tally.add(i, t.replay(Position::start()));
    }
    tally.report()
}

pub fn run(args: ReplayArgs) -> CmdResult {
    let joined = args.input.join(" ");
    let path = Path::new(&joined);
    if !path.is_file() {
        let looks_like_path = joined.contains(['/', '\\'])
            || [".wtb", ".ggf", ".txt"]
                .iter()
                .any(|e| joined.to_ascii_lowercase().ends_with(e));
        if looks_like_path {
            return Err(CliError::input(format!("{joined}: no such file")));
        }
        return replay_transcripts(&joined);
    }
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    match ext.as_str() {
        "wtb" => replay_wtb(path),
        "ggf" => replay_ggf(path),
        _ => replay_transcripts(&read_text(path)?),
    }
}
