use super::patterns::*;
use super::state::Gen3State;
use super::weights::*;
use super::*;
use crate::eval::weights_file::{WeightsError, HEADER_LEN};
use virada_rules::Symmetry;

use crate::random::SplitMix as Rng;

fn random_boards(n: usize, seed: u64) -> Vec<Board> {
    let mut r = Rng(seed);
    (0..n)
        .map(|_| {
            let a = r.next_u64();
            let b = r.next_u64() & !a;
            Board::new(a, b)
        })
        .collect()
}

fn random_weights(seed: u64) -> Gen3Weights {
    let mut w = Gen3Weights::zeros("gen3-test", 100);
    let mut r = Rng(seed);
    for x in w.weights.iter_mut() {
        *x = (r.next_u64() % 601) as i16 - 300;
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

/// The tie map by its definition: every index decoded digit by digit and re-encoded through
/// each self-symmetry of the pattern.
fn tie_map_by_definition(p: &Pattern, order: DigitOrder) -> Vec<u16> {
    let squares = p.squares_in(order);
    let n = squares.len();
    let perms: Vec<Vec<usize>> = Symmetry::ALL
        .iter()
        .filter(|s| s.apply(p.mask) == p.mask)
        .map(|s| {
            squares
                .iter()
                .map(|&q| {
                    let img = s.apply(1u64 << q).trailing_zeros() as u8;
                    squares.iter().position(|&x| x == img).unwrap()
                })
                .collect()
        })
        .collect();
    (0..p.size())
        .map(|idx| {
            let mut best = idx;
            for perm in &perms {
                let (mut img, mut v) = (0, idx);
                for &to in perm {
                    img += (v % 3) * 3usize.pow(to as u32);
                    v /= 3;
                }
                best = best.min(img);
            }
            assert!(n > 0);
            best as u16
        })
        .collect()
}

#[test]
fn tie_maps_follow_their_definition() {
    for order in [DigitOrder::Decreasing, DigitOrder::Increasing] {
        for (p, map) in tie_maps_in(order).iter().enumerate() {
            assert_eq!(
                map,
                &tie_map_by_definition(&PATTERNS[p], order),
                "{}",
                PATTERNS[p].name
            );
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
            for _ in 0..(r.next_u64() % m.count_ones() as u64) {
                pick &= pick - 1;
            }
            let sq = Square::lowest_of(pick);
            let flips = b.flips(sq).0;
            let child = b.play_unchecked(sq);
            let after = st.indices_after(sq, flips);
            let value_after = eval.evaluate_after(&child, &st, sq, flips);
            let leaf_after = eval.evaluate_leaf(&child, &st, Some((sq, flips)), child.moves());
            st = eval.play(&st, sq, flips);
            b = child;
            assert_eq!(st, Gen3State::new(&b));
            assert_eq!(&after, st.indices());
            assert_eq!(eval.evaluate_with(&b, &st), eval.evaluate(&b));
            assert_eq!(value_after, eval.evaluate(&b));
            assert_eq!(leaf_after, value_after);
            assert_eq!(eval.evaluate_leaf(&b, &st, None, b.moves()), value_after);
            positions += 1;
        }
    }
    assert!(positions > 30 * 50);
}

/// The pattern sum of incremental indices along random games is the same on the AVX2 path
/// (when the CPU has it) and the portable one, and equals the from-scratch sum; so does the
/// sum at the largest index of every instance (the gathers' reads at the end of the table).
#[test]
fn simd_and_portable_pattern_sums_agree_along_random_games() {
    use super::sum::{avx2_available, pattern_sum, pattern_sum_portable, pattern_sum_simd};
    let w = random_weights(17);
    let eval = Gen3Eval::new(w.clone());
    let mut r = Rng(0x9E37_79B9_7F4A_7C15);
    let mut positions = 0;
    for _ in 0..30 {
        let mut b = Board::start();
        let mut st = eval.state(&b);
        while !b.is_game_over() {
            let m = b.moves();
            if m == 0 {
                b = b.pass();
                st = eval.pass(&st);
                continue;
            }
            let mut pick = m;
            for _ in 0..(r.next_u64() % m.count_ones() as u64) {
                pick &= pick - 1;
            }
            let sq = Square::lowest_of(pick);
            st = eval.play(&st, sq, b.flips(sq).0);
            b = b.play_unchecked(sq);
            let table = eval.tables.phase(phase_of_empties(b.empty_count()));
            let scratch = pattern_sum_portable(table, &indices(&b));
            assert_eq!(pattern_sum_portable(table, st.indices()), scratch);
            assert_eq!(pattern_sum(table, st.indices()), scratch);
            if let Some(simd) = pattern_sum_simd(table, st.indices()) {
                assert_eq!(simd, scratch);
            }
            positions += 1;
        }
    }
    assert!(positions > 30 * 50);
    let table = eval.tables.phase(3);
    let top = [u16::MAX; NUM_INSTANCES];
    let want: i32 = (0..NUM_INSTANCES)
        .map(|k| table[INSTANCE_OFFSETS[k] as usize + u16::MAX as usize] as i32)
        .sum();
    assert_eq!(pattern_sum_portable(table, &top), want);
    assert_eq!(pattern_sum_simd(table, &top).is_some(), avx2_available());
    if let Some(simd) = pattern_sum_simd(table, &top) {
        assert_eq!(simd, want);
    }
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
fn lookups_stay_inside_their_phase_for_any_index() {
    // The lookups skip bounds checks because a phase's table is padded for any `u16` index
    // (std checks `get_unchecked` in builds with debug assertions, as the tests are): the
    // largest indices read another table of the same phase or the zero padding after it.
    let w = random_weights(13);
    let eval = Gen3Eval::new(w.clone());
    for b in [Board::start(), Board::new(0, 0)] {
        let phase = w.phase(phase_of_empties(b.empty_count()));
        let read = |at: usize| phase.get(at).map_or(0, |&x| x as i32);
        let want: i32 = (0..NUM_INSTANCES)
            .map(|k| read(INSTANCE_OFFSETS[k] as usize + u16::MAX as usize))
            .chain(global_offsets(&b, b.moves()).map(read))
            .sum();
        assert_eq!(eval.evaluate_indices(&b, &[u16::MAX; NUM_INSTANCES]), want);
    }
    assert_eq!(eval.weights(), w);
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
        err.contains("pattern set id is 1, this build needs 5"),
        "{err}"
    );
    let mut enc = bytes.clone();
    enc[28] = 5;
    assert!(Gen3Weights::from_bytes(&enc)
        .unwrap_err()
        .to_string()
        .contains("payload encoding"));
    // A gen2 file (format version 1) is refused with a reason.
    let mut gen2 = bytes.clone();
    gen2[8] = 1;
    let err = Gen3Weights::from_bytes(&gen2).unwrap_err().to_string();
    assert!(
        err.contains("format version 1 is not supported (this build reads 2)"),
        "{err}"
    );
    assert!(Gen3Weights::from_bytes(b"nonsense").is_err());
}

#[test]
fn phases() {
    assert_eq!(phase_of_empties(0), 0);
    assert_eq!(phase_of_empties(2), 0);
    assert_eq!(phase_of_empties(3), 1);
    assert_eq!(phase_of_empties(60), 29);
    assert_eq!(phase_of_empties(64), 29);
}

/// Weights that respect the pattern ties, smooth across phases, with zeros, extremes and
/// arbitrary jumps.
fn tied_weights(seed: u64) -> Gen3Weights {
    let mut w = Gen3Weights::zeros("gen3-compact", 64);
    let mut r = Rng(seed);
    let reps = compact::representatives();
    for q in 0..NUM_PHASES {
        for &e in reps {
            let i = q * WEIGHTS_PER_PHASE + e as usize;
            let prev = if q == 0 {
                0
            } else {
                w.weights[i - WEIGHTS_PER_PHASE]
            };
            w.weights[i] = match r.next_u64() % 10 {
                0..=3 => 0,
                4..=6 => prev.saturating_add((r.next_u64() % 21) as i16 - 10),
                7 => prev,
                8 => [i16::MIN, i16::MAX, -1, 1][(r.next_u64() % 4) as usize],
                _ => r.next_u64() as i16,
            };
        }
    }
    let maps = tie_maps();
    for q in 0..NUM_PHASES {
        let base = q * WEIGHTS_PER_PHASE;
        for (p, map) in maps.iter().enumerate() {
            for (i, &m) in map.iter().enumerate() {
                let o = TABLE_OFFSETS[p];
                w.weights[base + o + i] = w.weights[base + o + m as usize];
            }
        }
    }
    w
}

#[test]
fn compact_weights_round_trip_and_corruption_is_refused() {
    let w = tied_weights(11);
    let bytes = w.to_bytes_compact().expect("ties hold");
    assert!(bytes.len() < w.to_bytes().len(), "{} bytes", bytes.len());
    assert_eq!(u32::from_le_bytes(bytes[28..32].try_into().unwrap()), 1);
    let back = Gen3Weights::from_bytes(&bytes).unwrap();
    assert_eq!(back, w);
    // The same evaluation as the raw file, its phases built on first use.
    let raw = Gen3Eval::from_bytes(w.to_bytes()).unwrap();
    assert_eq!(raw.phases_built(), NUM_PHASES);
    let packed = Gen3Eval::from_bytes(bytes.clone()).unwrap();
    assert_eq!(packed.phases_built(), 0);
    let boards = random_boards(200, 3);
    let mut phases: Vec<usize> = boards
        .iter()
        .map(|b| phase_of_empties(b.empty_count()))
        .collect();
    for b in &boards {
        assert_eq!(raw.evaluate(b), packed.evaluate(b));
    }
    phases.sort();
    phases.dedup();
    assert_eq!(packed.phases_built(), phases.len());
    assert_eq!(packed.weights(), back);
    assert_eq!(packed.phases_built(), NUM_PHASES);
    // Weights that break a tie cannot be packed (write them raw).
    let mut untied = w.clone();
    let (o, map) = (TABLE_OFFSETS[0], &tie_maps()[0]);
    let i = (0..map.len()).find(|&i| map[i] as usize != i).unwrap();
    untied.weights[o + i] = untied.weights[o + map[i] as usize].wrapping_add(1);
    assert!(untied.to_bytes_compact().is_none());
    // Damage anywhere in the payload fails the checksum; so does a cut or an extra byte.
    for at in [HEADER_LEN, HEADER_LEN + 12_345, bytes.len() - 1] {
        let mut bad = bytes.clone();
        bad[at] ^= 0x41;
        assert!(matches!(
            Gen3Weights::from_bytes(&bad),
            Err(WeightsError::BadChecksum { .. })
        ));
    }
    assert!(Gen3Weights::from_bytes(&bytes[..bytes.len() - 1]).is_err());
    let mut long = bytes.clone();
    long.push(0);
    assert!(Gen3Weights::from_bytes(&long).is_err());
    // A damaged payload with a matching checksum is refused by the decoder, with a reason.
    let mut forged = bytes[..bytes.len() - 1].to_vec();
    let sum = crate::checksum::fnv1a64(&forged[HEADER_LEN..]);
    forged[32..40].copy_from_slice(&sum.to_le_bytes());
    let err = Gen3Weights::from_bytes(&forged).unwrap_err().to_string();
    assert!(err.contains("corrupt") && err.contains("compact"), "{err}");
}

#[test]
fn compact_decoder_refuses_malformed_streams() {
    use compact::{decode, encode, representatives, CompactError};
    let total = (NUM_PHASES * representatives().len()) as u32;
    let varint = |mut v: u32| {
        let mut out = Vec::new();
        while v >= 0x80 {
            out.push(v as u8 | 0x80);
            v >>= 7;
        }
        out.push(v as u8);
        out
    };
    // All zero: one run.
    let zeros = varint(total);
    assert_eq!(
        encode(&vec![0; NUM_PHASES * WEIGHTS_PER_PHASE]).unwrap(),
        zeros
    );
    assert!(decode(&zeros).unwrap().iter().all(|&w| w == 0));
    assert_eq!(decode(&[]), Err(CompactError::Truncated));
    assert_eq!(decode(&varint(total - 1)), Err(CompactError::Truncated));
    let mut extra = zeros.clone();
    extra.push(0);
    assert_eq!(decode(&extra), Err(CompactError::TrailingBytes(1)));
    assert!(matches!(
        decode(&varint(total + 1)),
        Err(CompactError::Malformed(0, _))
    ));
    assert!(matches!(
        decode(&[0x80, 0x80, 0x80, 0x80, 0x80, 0x01]),
        Err(CompactError::Malformed(0, _))
    ));
    // A zero where a non-zero difference belongs.
    let mut z = varint(0);
    z.extend(varint(0));
    assert!(matches!(decode(&z), Err(CompactError::Malformed(1, _))));
    // The first entry rises by 32767 in phase 0 and again in phase 1: outside i16.
    let per = representatives().len() as u32;
    let mut over = varint(0);
    over.extend(varint(2 * 32767));
    over.extend(varint(per - 1));
    over.extend(varint(2 * 32767));
    over.extend(varint(total - per - 1));
    let err = decode(&over).unwrap_err().to_string();
    assert!(err.contains("i16"), "{err}");
    // The phase-at-a-time decoder checks the whole stream when it is made.
    use compact::PhaseDecoder;
    assert!(PhaseDecoder::new(zeros.clone().into(), 0).is_ok());
    for bad in [over, extra, z, varint(total - 1)] {
        assert!(PhaseDecoder::new(bad.into(), 0).is_err());
    }
    let mut at_two = vec![7u8; 2];
    at_two.extend(&zeros);
    assert!(PhaseDecoder::new(at_two.into(), 2).is_ok());
}

#[test]
fn shipped_gen3_weights_load_and_are_sane() {
    let e = Gen3Eval::embedded().expect("shipped gen3 weights load");
    assert!(e.name().starts_with("gen3"), "{}", e.name());
    assert_eq!(
        u32::from_le_bytes(EMBEDDED_GEN3[28..32].try_into().unwrap()),
        ENCODING_COMPACT
    );
    assert_eq!(shipped().name(), e.name());
    // Loading builds no phase table; the start position needs one.
    assert_eq!(e.phases_built(), 0);
    let _ = e.evaluate(&Board::start());
    assert_eq!(e.phases_built(), 1);
    // The start is nearly balanced (the shipped fit says -3.29 discs: the phases of 57-60
    // empties hold a handful of distinct positions and take their group's coarse table, see
    // docs/TRAINING.md); a nearly full board where the side to move owns 50 discs including
    // the corners is a big win for it, and a big loss for the other side.
    let start = e.evaluate(&Board::start());
    assert!(start.abs() < 400, "start {start}");
    let empty = (1u64 << 20) | (1u64 << 43);
    let opponent = 0x0000_3C3C_3C00_0000u64 & !empty;
    let won = Board::new(!(opponent | empty), opponent);
    assert!(e.evaluate(&won) > 2000, "{}", e.evaluate(&won));
    assert!(
        e.evaluate(&won.pass()) < -2000,
        "{}",
        e.evaluate(&won.pass())
    );
}
