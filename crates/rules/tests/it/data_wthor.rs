//! Every game of the WTHOR database replays legally, and its recorded final count agrees with
//! the replay except for the documented recording errors (about 0.3%).

use virada_rules::formats::wthor::{black_score, read_players, read_tournaments, read_wtb};

#[test]
fn every_wthor_game_replays() {
    let Some(dir) = virada_testdata::dir("wthor") else {
        return;
    };
    let files = crate::common::files_with_suffix(&dir, ".wtb");
    assert!(!files.is_empty(), "no .wtb files in {}", dir.display());
    let (mut games, mut mismatches, mut unfinished) = (0usize, 0usize, 0usize);
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let file = read_wtb(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(file.header.game_count as usize, file.games.len());
        for (i, record) in file.games.iter().enumerate() {
            let game = record
                .replay()
                .unwrap_or_else(|e| panic!("{} game {}: {e}", path.display(), i + 1));
            games += 1;
            if !game.is_over() {
                unfinished += 1;
            }
            if black_score(&game.position()) != record.black_discs {
                mismatches += 1;
            }
        }
    }
    println!("{games} games, {mismatches} final counts differ, {unfinished} unfinished");
    assert_eq!(games, 137_548);
    assert!(mismatches * 100 < games, "{mismatches} of {games} differ");
}

#[test]
fn wthor_name_files() {
    let Some(dir) = virada_testdata::dir("wthor") else {
        return;
    };
    let players = read_players(&std::fs::read(dir.join("WTH.JOU")).unwrap()).unwrap();
    let tournaments = read_tournaments(&std::fs::read(dir.join("WTH.TRN")).unwrap()).unwrap();
    assert!(players.len() > 1000, "{}", players.len());
    assert!(tournaments.len() > 100, "{}", tournaments.len());
    assert!(players.iter().any(|p| p.starts_with("Tastet")));
    assert!(tournaments.iter().any(|t| t.starts_with("World")));
}
