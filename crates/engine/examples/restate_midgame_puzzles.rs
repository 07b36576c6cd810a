//! Re-states the midgame puzzles with the engine as built, after its evaluation or search
//! changed: their stated scores are the values of a depth-16 search of the shipped engine
//! (docs/PUZZLES.md), so `virada puzzles verify` refuses them once the engine searches
//! differently. Each puzzle's start goes through the finder again (ladder, stated search,
//! themes, initial rating); a start that is no longer a puzzle is dropped and named.
//!
//! `cargo run --release -p virada-engine --example restate_midgame_puzzles -- <in> <out>`
//! (the default evaluation: the shipped weights, or the file `VIRADA_WEIGHTS` names).
use virada_engine::puzzles::{parse_puzzle_file, MidgameConfig, MidgameFinder, PuzzleKind};

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [input, output] = &args[..] else {
        return Err("usage: restate_midgame_puzzles <in> <out>".into());
    };
    let text = std::fs::read_to_string(input).map_err(|e| format!("{input}: {e}"))?;
    let puzzles = parse_puzzle_file(&text).map_err(|e| format!("{input}: {e}"))?;
    if let Some(p) = puzzles.iter().find(|p| p.kind != PuzzleKind::Midgame) {
        return Err(format!("{input}: {} is not a midgame puzzle", p.id));
    }
    let mut out: String = text
        .lines()
        .take_while(|l| l.starts_with('#'))
        .map(|l| format!("{l}\n"))
        .collect();
    let mut finder = MidgameFinder::new(MidgameConfig::default());
    let mut dropped = Vec::new();
    for (i, p) in puzzles.iter().enumerate() {
        match finder.midgame(p.start) {
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
