//! Re-states the midgame puzzles with the engine as built, after its evaluation or search
//! changed: their stated scores are the values of a depth-16 search of the shipped engine
//! (docs/PUZZLES.md), so `virada puzzles verify` refuses them once the engine searches
//! differently. Each puzzle's start goes through the finder again (ladder, stated search,
//! themes, initial rating); a start that is no longer a puzzle is dropped and named.
//!
//! `cargo run --release -p virada-engine --example restate_midgame_puzzles -- <in> <out>
//! [<journal>]` (the default evaluation: the shipped weights, or the file `VIRADA_WEIGHTS`
//! names). With a journal the run resumes: each start's outcome is appended to it as soon as
//! it is known (the restated puzzle's line, or `dropped <id>`), and a start already in the
//! journal is not searched again, so a killed run continues with the same command.
use std::collections::HashMap;
use std::io::Write;

use virada_engine::puzzles::{parse_puzzle_file, MidgameConfig, MidgameFinder, Puzzle, PuzzleKind};

/// One start's outcome: the restated puzzle, or `None` when it is no longer a puzzle.
type Outcome = Option<Puzzle>;

/// The outcomes already in the journal, by the start's id. A last line cut by a killed run has
/// no newline: it is cut off the file here, so that the next append starts a line.
fn read_journal(path: &str) -> Result<HashMap<String, Outcome>, String> {
    let mut text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(HashMap::new()),
        Err(e) => return Err(format!("{path}: {e}")),
    };
    if !text.is_empty() && !text.ends_with('\n') {
        let whole = text.rfind('\n').map_or(0, |i| i + 1);
        text.truncate(whole);
        std::fs::write(path, &text).map_err(|e| format!("{path}: {e}"))?;
    }
    let mut done = HashMap::new();
    for (n, line) in text.lines().enumerate() {
        if let Some(id) = line.strip_prefix("dropped ") {
            done.insert(id.to_string(), None);
        } else {
            let p: Puzzle = line.parse().map_err(|e| format!("{path}:{}: {e}", n + 1))?;
            done.insert(p.id.clone(), Some(p));
        }
    }
    Ok(done)
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (input, output, journal) = match &args[..] {
        [i, o] => (i, o, None),
        [i, o, j] => (i, o, Some(j)),
        _ => return Err("usage: restate_midgame_puzzles <in> <out> [<journal>]".into()),
    };
    let text = std::fs::read_to_string(input).map_err(|e| format!("{input}: {e}"))?;
    let puzzles = parse_puzzle_file(&text).map_err(|e| format!("{input}: {e}"))?;
    if let Some(p) = puzzles.iter().find(|p| p.kind != PuzzleKind::Midgame) {
        return Err(format!("{input}: {} is not a midgame puzzle", p.id));
    }
    let mut done = match journal {
        Some(j) => read_journal(j)?,
        None => HashMap::new(),
    };
    let mut append = match journal {
        Some(j) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(j)
                .map_err(|e| format!("{j}: {e}"))?,
        ),
        None => None,
    };
    let mut out: String = text
        .lines()
        .take_while(|l| l.starts_with('#'))
        .map(|l| format!("{l}\n"))
        .collect();
    let mut finder = MidgameFinder::new(MidgameConfig::default());
    let mut dropped = Vec::new();
    for (i, p) in puzzles.iter().enumerate() {
        let outcome = match done.remove(&p.id) {
            Some(known) => known,
            None => {
                let found = finder.midgame(p.start);
                if let (Some(file), Some(j)) = (append.as_mut(), journal) {
                    let line = match &found {
                        Some(q) => format!("{q}\n"),
                        None => format!("dropped {}\n", p.id),
                    };
                    file.write_all(line.as_bytes())
                        .map_err(|e| format!("{j}: {e}"))?;
                }
                found
            }
        };
        match outcome {
            Some(q) => out.push_str(&format!("{q}\n")),
            None => dropped.push(p.id.clone()),
        }
        eprintln!("{}/{} ({} dropped)", i + 1, puzzles.len(), dropped.len());
    }
    std::fs::write(output, out).map_err(|e| format!("{output}: {e}"))?;
    eprintln!(
        "{output}: {} kept, {} dropped {dropped:?}",
        puzzles.len() - dropped.len(),
        dropped.len()
    );
    Ok(())
}
