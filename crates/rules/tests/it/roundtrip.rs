//! parse(format(x)) == x for every format, on random games and positions.

use crate::common::{random_game, random_position, Rng};
use proptest::prelude::*;
use virada_rules::formats::ggf::{read_ggf, write_ggf, GgfGame};
use virada_rules::formats::obf::{read_obf, write_obf, ObfEntry, ObfMove};
use virada_rules::formats::transcript::Transcript;
use virada_rules::formats::wthor::{read_wtb, write_wtb, WthorFile, WthorGame, WthorHeader};
use virada_rules::formats::xot::{read_xot, write_xot, XotOpening};
use virada_rules::{Game, Move, Position, Square};

proptest! {
    #![proptest_config(crate::common::proptest_config(300))]

    #[test]
    fn transcript_round_trip(seed in any::<u64>()) {
        let game = random_game(seed);
        let t = Transcript::from_game(&game);
        let text = t.to_string();
        prop_assert!(!text.contains("pa"));
        let parsed: Transcript = text.parse().unwrap();
        prop_assert_eq!(&parsed, &t);
        // Replaying inserts exactly the passes the game had.
        let replayed = parsed.replay(Position::start()).unwrap();
        prop_assert_eq!(replayed.moves(), game.moves());
        // Explicit passes survive a round trip and replay the same.
        let explicit = Transcript::new(game.moves().to_vec());
        let back: Transcript = explicit.to_string().parse().unwrap();
        prop_assert_eq!(&back, &explicit);
        let again = back.replay(Position::start()).unwrap();
        prop_assert_eq!(again.moves(), game.moves());
        // The numbered form players paste parses to the same moves.
        let numbered: String = t
            .moves()
            .iter()
            .enumerate()
            .map(|(i, m)| if i % 2 == 0 { format!("{}. {} ", i / 2 + 1, m) } else { format!("{m}, ") })
            .collect();
        prop_assert_eq!(numbered.to_uppercase().parse::<Transcript>().unwrap(), t);
    }

    #[test]
    fn board_string_round_trip(seed in any::<u64>()) {
        let p = random_position(seed);
        prop_assert_eq!(p.to_string().parse::<Position>().unwrap(), p);
    }

    #[test]
    fn obf_round_trip(seed in any::<u64>()) {
        let p = random_position(seed);
        let mut rng = Rng::new(seed);
        let moves = p
            .legal_moves()
            .iter()
            .map(|sq| ObfMove {
                mv: Move::Play(sq),
                score: (rng.below(4) != 0).then(|| rng.below(129) as i32 - 64),
            })
            .collect();
        let entries = vec![ObfEntry { position: p, moves }, ObfEntry::new(p.with_side_swapped())];
        let text = write_obf(&entries);
        prop_assert_eq!(read_obf(&text).unwrap(), entries);
    }

    #[test]
    fn ggf_round_trip(seed in any::<u64>(), tags in proptest::collection::vec(("[A-Z]{2,3}", ".*"), 0..5)) {
        let start = random_position(seed);
        let mut rng = Rng::new(seed ^ 1);
        let game = crate::common::random_game_from(start, &mut rng, 80);
        let mut record = GgfGame::from_game(&game);
        for (name, value) in tags {
            if name != "BO" && name != "GM" && name != "TY" {
                record.tags.push((name, value));
            }
        }
        if let Some(m) = record.moves.first_mut() {
            m.annotation = Some("1.25/3".into());
        }
        let text = write_ggf(&[record.clone(), record.clone()]);
        let back = read_ggf(&text).unwrap();
        prop_assert_eq!(&back, &vec![record.clone(), record]);
        let again = back[0].replay().unwrap();
        prop_assert_eq!(again.moves(), game.moves());
    }

    #[test]
    fn wthor_round_trip(seeds in proptest::collection::vec(any::<u64>(), 1..8)) {
        let games: Vec<Game> = seeds.iter().map(|&s| random_game(s)).collect();
        let records: Vec<WthorGame> = games
            .iter()
            .enumerate()
            .map(|(i, g)| WthorGame::from_game(g, i as u16, 2 * i as u16, 7, 33).unwrap())
            .collect();
        let file = WthorFile { header: WthorHeader::for_games(2024, records.len() as u32), games: records };
        let back = read_wtb(&write_wtb(&file)).unwrap();
        prop_assert_eq!(&back, &file);
        for (record, game) in back.games.iter().zip(&games) {
            let replayed = record.replay().unwrap();
            prop_assert_eq!(replayed.moves(), game.moves());
            prop_assert_eq!(
                virada_rules::formats::wthor::black_score(&replayed.position()),
                record.black_discs
            );
        }
    }

    #[test]
    fn xot_round_trip(seeds in proptest::collection::vec(any::<u64>(), 1..20)) {
        let openings: Vec<XotOpening> = seeds
            .iter()
            .map(|&s| {
                let mut rng = Rng::new(s);
                let g = crate::common::random_game_from(Position::start(), &mut rng, 8);
                let squares: Vec<Square> = g.moves().iter().filter_map(|m| m.square()).collect();
                XotOpening::new(squares.try_into().unwrap()).unwrap()
            })
            .collect();
        prop_assert_eq!(read_xot(&write_xot(&openings)).unwrap(), openings);
    }
}
