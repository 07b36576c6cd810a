use super::patterns::*;
use super::state::Gen3State;
use super::weights::*;
use super::*;
use crate::eval::pattern_weights::{WeightsError, HEADER_LEN};
use virada_rules::Symmetry;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn random_boards(n: usize, seed: u64) -> Vec<Board> {
    let mut r = Rng(seed);
    (0..n)
        .map(|_| {
            let a = r.next();
            let b = r.next() & !a;
            Board::new(a, b)
        })
        .collect()
}

fn random_weights(seed: u64) -> Gen3Weights {
    let mut w = Gen3Weights::zeros("gen3-test", 100);
    let mut r = Rng(seed);
    for x in w.weights.iter_mut() {
        *x = (r.next() % 601) as i16 - 300;
    }
    w
}

#[test]
fn instance_counts_and_sizes() {
    for (p, pat) in PATTERNS.iter().enumerate() {
        assert_eq!(
            pat.instances().len(),
            INSTANCES_PER_PATTERN[p],
            "{}",
            pat.name
        );
        assert!(pat.len() <= 10, "{}", pat.name);
    }
    assert_eq!(INSTANCES_PER_PATTERN.iter().sum::<usize>(), NUM_INSTANCES);
    // Distinct shapes: no two patterns have the same square set under a symmetry.
    for (i, a) in PATTERNS.iter().enumerate() {
        for b in &PATTERNS[i + 1..] {
            assert!(
                Symmetry::ALL.iter().all(|s| s.apply(a.mask) != b.mask),
                "{} {}",
                a.name,
                b.name
            );
        }
    }
    // Every square is covered.
    let mut cover = 0u64;
    for p in PATTERNS.iter() {
        for s in p.instances() {
            cover |= s.apply(p.mask);
        }
    }
    assert_eq!(cover, u64::MAX);
    assert_eq!(WEIGHTS_PER_PHASE, 610_902 + 66);
}

#[test]
fn fast_indices_match_slow_reference() {
    for b in random_boards(300, 0x1234_5678_9ABC_DEF1) {
        let f = indices(&b);
        let mut k = 0;
        for pat in PATTERNS.iter() {
            for s in pat.instances() {
                let slow = instance_index_slow(&b, pat, s);
                assert_eq!(f[k], slow, "{} {s:?} {b:?}", pat.name);
                assert!((slow as usize) < pat.size());
                k += 1;
            }
        }
        for p in PATTERNS.iter() {
            assert_eq!(gather(b.player, p.mask), gather_portable(b.player, p.mask));
            assert_eq!(
                gather_portable(b.player, p.mask).count_ones(),
                (b.player & p.mask).count_ones()
            );
        }
    }
}

#[test]
fn symmetric_boards_have_the_same_tied_feature_multiset() {
    let maps = tie_maps();
    let tied = |b: &Board| {
        let f = indices(b);
        let mut out: Vec<Vec<u16>> = vec![Vec::new(); PATTERNS.len()];
        for (k, v) in f.iter().enumerate() {
            let p = INSTANCE_PATTERN[k] as usize;
            out[p].push(maps[p][*v as usize]);
        }
        for v in out.iter_mut() {
            v.sort_unstable();
        }
        out
    };
    for b in random_boards(40, 99) {
        let base = tied(&b);
        for s in Symmetry::ALL {
            assert_eq!(tied(&s.apply_board(b)), base, "{s:?}");
        }
    }
}

#[test]
fn tie_maps_are_idempotent() {
    for (p, map) in tie_maps().iter().enumerate() {
        assert_eq!(map.len(), PATTERNS[p].size());
        for (i, &m) in map.iter().enumerate() {
            assert!(m as usize <= i);
            assert_eq!(map[m as usize], m, "{}", PATTERNS[p].name);
        }
    }
    // corner2x5 has no self-symmetry; the 3x3 corner has one (its diagonal).
    assert!(tie_maps()[2]
        .iter()
        .enumerate()
        .all(|(i, &m)| i == m as usize));
    assert!(tie_maps()[1]
        .iter()
        .enumerate()
        .any(|(i, &m)| i != m as usize));
}

#[test]
fn incremental_equals_from_scratch_along_random_games() {
    let eval = Gen3Eval::new(random_weights(5));
    let mut r = Rng(0x2545_F491_4F6C_DD1D);
    let mut positions = 0;
    for _ in 0..30 {
        let mut b = Board::start();
        let mut st = eval.state(&b);
        while !b.is_game_over() {
            let m = b.moves();
            if m == 0 {
                b = b.pass();
                st = eval.pass(&st);
                assert_eq!(st, Gen3State::new(&b));
                continue;
            }
            let mut pick = m;
            for _ in 0..(r.next() % m.count_ones() as u64) {
                pick &= pick - 1;
            }
            let sq = Square::lowest_of(pick);
            let flips = b.flips(sq).0;
            let child = b.play_unchecked(sq);
            let after = st.indices_after(sq, flips);
            let value_after = eval.evaluate_after(&child, &st, sq, flips);
            st = eval.play(&st, sq, flips);
            b = child;
            assert_eq!(st, Gen3State::new(&b));
            assert_eq!(&after, st.indices());
            assert_eq!(eval.evaluate_with(&b, &st), eval.evaluate(&b));
            assert_eq!(value_after, eval.evaluate(&b));
            positions += 1;
        }
    }
    assert!(positions > 30 * 50);
}

#[test]
fn evaluation_is_the_sum_of_its_table_entries() {
    let w = random_weights(11);
    let eval = Gen3Eval::new(w.clone());
    for b in random_boards(50, 3) {
        if b.is_game_over() {
            continue;
        }
        let phase = phase_of_empties(b.empty_count());
        let t = w.phase(phase);
        let f = indices(&b);
        let mut want: i32 = (0..NUM_INSTANCES)
            .map(|k| t[INSTANCE_OFFSETS[k] as usize + f[k] as usize] as i32)
            .sum();
        want += t[PARITY_OFFSET + (b.empty_count() & 1) as usize] as i32;
        want += t[MOBILITY_OFFSET + (b.moves().count_ones() as usize).min(31)] as i32;
        want += t[OPP_MOBILITY_OFFSET + (b.pass().moves().count_ones() as usize).min(31)] as i32;
        assert_eq!(eval.evaluate_centidiscs(&b), want);
    }
    // A declared scale of 200 units per disc halves the values.
    let mut half = w;
    half.units_per_disc = 200;
    let b = Board::start();
    let v = Gen3Eval::new(half).evaluate_centidiscs(&b);
    assert_eq!(v, (eval.evaluate_centidiscs(&b) as i64 * 100 / 200) as i32);
}

#[test]
fn weights_round_trip_and_corruption_is_refused() {
    let w = random_weights(7);
    let bytes = w.to_bytes();
    assert_eq!(bytes.len(), HEADER_LEN + 2 * NUM_PHASES * WEIGHTS_PER_PHASE);
    assert_eq!(Gen3Weights::from_bytes(&bytes).unwrap(), w);
    let mut flipped = bytes.clone();
    flipped[HEADER_LEN + 1_000_003] ^= 0x10;
    assert!(matches!(
        Gen3Weights::from_bytes(&flipped),
        Err(WeightsError::BadChecksum { .. })
    ));
    assert!(matches!(
        Gen3Weights::from_bytes(&bytes[..bytes.len() - 2]),
        Err(WeightsError::Truncated { .. })
    ));
    let mut long = bytes.clone();
    long.push(0);
    assert!(matches!(
        Gen3Weights::from_bytes(&long),
        Err(WeightsError::TrailingBytes { .. })
    ));
    let mut set = bytes.clone();
    set[12] = 1;
    let err = Gen3Weights::from_bytes(&set).unwrap_err().to_string();
    assert!(
        err.contains("pattern set id is 1, this build needs 3"),
        "{err}"
    );
    let mut enc = bytes.clone();
    enc[28] = 5;
    assert!(Gen3Weights::from_bytes(&enc)
        .unwrap_err()
        .to_string()
        .contains("payload encoding"));
    // The common loader tells the generations apart by the header.
    let e = load_weights_bytes(&bytes).unwrap();
    assert_eq!(e.name(), "gen3-test");
    assert!(e.as_pattern_eval().is_none());
    let gen2 = crate::eval::pattern_eval::EMBEDDED_WEIGHTS;
    assert!(load_weights_bytes(gen2)
        .unwrap()
        .as_pattern_eval()
        .is_some());
    let err = load_weights_bytes(&flipped).err().unwrap();
    assert!(err.contains("corrupt"), "{err}");
    assert!(load_weights_bytes(b"nonsense").is_err());
}

#[test]
fn phases() {
    assert_eq!(phase_of_empties(0), 0);
    assert_eq!(phase_of_empties(2), 0);
    assert_eq!(phase_of_empties(3), 1);
    assert_eq!(phase_of_empties(60), 29);
    assert_eq!(phase_of_empties(64), 29);
}
