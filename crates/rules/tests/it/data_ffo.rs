//! Every FFO OBF line parses, lists exactly the legal moves, and prints back unchanged.

use std::collections::HashSet;
use virada_rules::formats::obf::{read_obf, ObfEntry};
use virada_rules::Move;

#[test]
fn ffo_lines_parse_and_list_the_legal_moves() {
    let Some(dir) = virada_testdata::dir("ffo") else {
        return;
    };
    let files = crate::common::files_with_suffix(&dir, ".obf");
    assert_eq!(files.len(), 4, "{files:?}");
    let mut count = 0;
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let entries = read_obf(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let lines = text
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('%'));
        for (entry, line) in entries.iter().zip(lines) {
            let listed: HashSet<Move> = entry.moves.iter().map(|m| m.mv).collect();
            assert_eq!(listed.len(), entry.moves.len(), "duplicate move in {line}");
            let legal: HashSet<Move> = entry
                .position
                .legal_moves()
                .iter()
                .map(Move::Play)
                .collect();
            assert_eq!(listed, legal, "{line}");
            assert!(entry.moves.iter().all(|m| m.score.is_some()));
            assert_eq!(entry.to_string(), line.trim_end());
            assert_eq!(line.parse::<ObfEntry>().unwrap(), *entry);
            count += 1;
        }
    }
    assert_eq!(count, 79);
}

#[test]
fn ffo_40_to_59_best_scores() {
    let Some(dir) = virada_testdata::dir("ffo") else {
        return;
    };
    let text = std::fs::read_to_string(dir.join("fforum-40-59.obf")).unwrap();
    let best: Vec<i32> = read_obf(&text)
        .unwrap()
        .iter()
        .map(|e| e.best_score().unwrap())
        .collect();
    // The README's cross-checked best scores for #40..#59.
    let want = [
        38, 0, 6, -12, -14, 6, -8, 4, 28, 16, 10, 6, 0, -2, -2, 0, 2, -10, 4, 64,
    ];
    assert_eq!(best, want);
}
