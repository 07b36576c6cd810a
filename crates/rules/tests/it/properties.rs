//! Property tests: symmetries commute with moves and flips, undo restores positions exactly,
//! canonical forms are invariant under symmetry, and perft agrees across backends.

use crate::common::{random_game, random_position};
use proptest::prelude::*;
use virada_rules::movegen::Backend;
use virada_rules::symmetry::canonical;
use virada_rules::{perft_with, Board, PerftMode, Symmetry};

proptest! {
    #![proptest_config(crate::common::proptest_config(300))]

    #[test]
    fn symmetries_commute_with_moves_and_flips(seed in any::<u64>()) {
        let b = random_position(seed).board();
        for s in Symmetry::ALL {
            let img = s.apply_board(b);
            prop_assert_eq!(img.moves(), s.apply(b.moves()), "{:?}", s);
            for sq in b.legal_moves() {
                let ssq = s.apply_square(sq);
                prop_assert_eq!(img.flips(ssq).0, s.apply(b.flips(sq).0));
                prop_assert_eq!(img.play_unchecked(ssq), s.apply_board(b.play_unchecked(sq)));
            }
            prop_assert_eq!(s.inverse().apply_board(img), b);
        }
    }

    #[test]
    fn canonical_form_is_symmetry_invariant(seed in any::<u64>()) {
        let b = random_position(seed).board();
        let (canon, sym) = canonical(b);
        prop_assert_eq!(sym.apply_board(b), canon);
        for s in Symmetry::ALL {
            prop_assert_eq!(canonical(s.apply_board(b)).0, canon);
        }
    }

    #[test]
    fn undo_restores_the_exact_position(seed in any::<u64>(), back in 0usize..70) {
        let mut game = random_game(seed);
        let full = game.clone();
        let k = back.min(game.ply());
        for _ in 0..k {
            game.undo();
        }
        prop_assert_eq!(game.position(), full.positions()[full.ply() - k]);
        prop_assert_eq!(game.moves(), &full.moves()[..full.ply() - k]);
        for _ in 0..k {
            game.redo();
        }
        prop_assert_eq!(game.position(), full.position());
        prop_assert_eq!(game.moves(), full.moves());
    }

    #[test]
    fn perft_backends_agree(seed in any::<u64>()) {
        let b: Board = random_position(seed).board();
        let counts: Vec<u64> = Backend::available()
            .into_iter()
            .map(|be| perft_with(be, b, 4, PerftMode::PassIsPly))
            .collect();
        prop_assert!(counts.windows(2).all(|w| w[0] == w[1]), "{:?}", counts);
    }
}
