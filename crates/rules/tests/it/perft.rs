//! Published perft counts from the standard start (`../shared/data/perft/perft_startpos.csv`).

use virada_rules::{perft, Board, PerftMode};

const PASS_IS_PLY: [u64; 10] = [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284];
const PASS_NOT_PLY: [u64; 10] = [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005320, 24571420];

#[test]
fn perft_pass_is_ply_1_to_10() {
    for (i, &want) in PASS_IS_PLY.iter().enumerate() {
        let depth = i as u32 + 1;
        assert_eq!(
            perft(Board::start(), depth, PerftMode::PassIsPly),
            want,
            "depth {depth}"
        );
    }
}

#[test]
fn perft_pass_not_ply_1_to_10() {
    for (i, &want) in PASS_NOT_PLY.iter().enumerate() {
        let depth = i as u32 + 1;
        assert_eq!(
            perft(Board::start(), depth, PerftMode::PassNotPly),
            want,
            "depth {depth}"
        );
    }
}
