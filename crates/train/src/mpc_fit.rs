//! Fitting the engine's Multi-ProbCut model from our own searches (`virada bench mpc-fit`):
//! tooling that writes the evaluation's table `crates/engine/data/mpc-gen3.txt`, so it lives with the training
//! tools rather than in the engine.
//!
//! 1. [`sample_positions`] plays seeded self-play games (a shallow search with random moves
//!    mixed in, so positions vary) and keeps positions spread over the game.
//! 2. [`sample`] searches each position without selectivity to every depth `1..=max_depth`.
//! 3. [`fit`] regresses the deep value on the paired shallow value for every deep depth and
//!    range of empty squares ([`buckets`]): `deep = a * shallow + b`, with `sigma` the
//!    residual standard deviation.
//! 4. [`render_table`] writes that table file.

use virada_engine::eval::mpc::{shallow_depth, MpcParams, MPC_MIN_DEPTH};
use virada_engine::eval::SCALE;
use virada_engine::{Engine, EngineConfig, Limits, Selectivity};
use virada_rules::{Board, Square};

/// A position and its non-selective search values at depths `0..=max_depth` (index = depth;
/// index 0 is the static evaluation).
#[derive(Clone, Debug, PartialEq)]
pub struct FitSample {
    pub board: Board,
    pub values: Vec<i32>,
}

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut x = *state;
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// `count` positions from seeded self-play, each with at least `min_empties` empty squares
/// and at least one legal move, spread evenly over the phases.
pub fn sample_positions(count: usize, min_empties: u32, seed: u64) -> Vec<Board> {
    let mut rng = seed;
    let mut engine = Engine::new(EngineConfig {
        tt_mb: 8,
        threads: 1,
        ..EngineConfig::default()
    });
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let mut board = Board::start();
        // Each game contributes positions at a few random plies.
        let mut take = [0u32; 4];
        for t in &mut take {
            *t = min_empties
                + (splitmix(&mut rng) % u64::from(MAX_SAMPLED_EMPTIES + 1 - min_empties)) as u32;
        }
        loop {
            let moves = board.moves();
            if moves == 0 {
                if board.pass().moves() == 0 {
                    break;
                }
                board = board.pass();
                continue;
            }
            let e = board.empty_count();
            if e < min_empties {
                break;
            }
            if take.contains(&e) && out.len() < count {
                out.push(board);
            }
            let sq = if splitmix(&mut rng) & 3 == 0 {
                // A random legal move.
                let n = moves.count_ones() as u64;
                let k = splitmix(&mut rng) % n;
                let mut m = moves;
                for _ in 0..k {
                    m &= m - 1;
                }
                Square::lowest_of(m)
            } else {
                let shallow = Limits::midgame(2, Selectivity::DEFAULT);
                engine
                    .search(board, &shallow, None)
                    .best_move
                    .square()
                    .expect("has moves")
            };
            board = board.play_unchecked(sq);
        }
    }
    out
}

/// Searches `board` to each depth `1..=max_depth` at `selectivity` (exact: no selective
/// pruning) and without the exact-solve hand-off, one depth after the other with the table
/// kept, as iterative deepening does (the command line runs this over many boards in
/// parallel).
pub fn sample(
    engine: &mut Engine,
    board: Board,
    max_depth: u32,
    selectivity: Selectivity,
) -> FitSample {
    engine.clear();
    let mut values = vec![engine.evaluator().evaluate(&board)];
    for d in 1..=max_depth {
        let limits = Limits::midgame(d, selectivity);
        let r = engine.search(board, &limits, None);
        values.push((r.score * SCALE as f32).round() as i32);
    }
    FitSample { board, values }
}

impl FitSample {
    /// One journal line: `index player opponent v0 v1 ...` (discs as hexadecimal bitboards).
    pub fn to_journal_line(&self, index: usize) -> String {
        let mut s = format!(
            "{index} {:016x} {:016x}",
            self.board.player, self.board.opponent
        );
        for v in &self.values {
            s.push_str(&format!(" {v}"));
        }
        s
    }

    /// The index and sample of a [`FitSample::to_journal_line`] line.
    pub fn from_journal_line(line: &str) -> Result<(usize, FitSample), String> {
        let f: Vec<&str> = line.split_whitespace().collect();
        let bad = || format!("bad journal line {line:?}");
        if f.len() < 4 {
            return Err(bad());
        }
        let index = f[0].parse().map_err(|_| bad())?;
        let player = u64::from_str_radix(f[1], 16).map_err(|_| bad())?;
        let opponent = u64::from_str_radix(f[2], 16).map_err(|_| bad())?;
        let values = f[3..]
            .iter()
            .map(|v| v.parse().map_err(|_| bad()))
            .collect::<Result<Vec<i32>, String>>()?;
        Ok((
            index,
            FitSample {
                board: Board::new(player, opponent),
                values,
            },
        ))
    }
}

/// Largest number of empty squares [`sample_positions`] keeps.
pub const MAX_SAMPLED_EMPTIES: u32 = 56;

/// The ranges of empty squares fitted separately: `width` empties each from `min_empties`
/// up to [`MAX_SAMPLED_EMPTIES`], the first extended down to 0 and the last up to 64, so every
/// position has a line. The error of a shallow search's prediction changes along the game (it
/// is smallest in the opening): narrow ranges let the cuts follow it.
pub fn buckets(min_empties: u32, width: u32) -> Vec<(u8, u8)> {
    let width = width.max(1);
    let mut out: Vec<(u8, u8)> = Vec::new();
    let mut start = min_empties.min(MAX_SAMPLED_EMPTIES);
    while start + width - 1 <= MAX_SAMPLED_EMPTIES || out.is_empty() {
        out.push((start as u8, (start + width - 1).min(64) as u8));
        start += width;
    }
    out[0].0 = 0;
    out.last_mut().expect("one bucket at least").1 = 64;
    out
}

/// Least-squares lines `deep = a * shallow + b` per deep depth `MPC_MIN_DEPTH..=max_depth`
/// and range of empty squares in `ranges`. Buckets with fewer than 8 samples are skipped.
pub fn fit(samples: &[FitSample], max_depth: u32, ranges: &[(u8, u8)]) -> Vec<MpcParams> {
    let mut out = Vec::new();
    for d in MPC_MIN_DEPTH..=max_depth as i32 {
        let s = shallow_depth(d) as usize;
        for &(lo, hi) in ranges {
            let pairs: Vec<(f64, f64)> = samples
                .iter()
                .filter(|x| {
                    (lo as u32..=hi as u32).contains(&x.board.empty_count())
                        && x.values.len() > d as usize
                })
                .map(|x| (x.values[s] as f64, x.values[d as usize] as f64))
                .collect();
            let n = pairs.len() as f64;
            if pairs.len() < 8 {
                continue;
            }
            let mx = pairs.iter().map(|p| p.0).sum::<f64>() / n;
            let my = pairs.iter().map(|p| p.1).sum::<f64>() / n;
            let sxx: f64 = pairs.iter().map(|p| (p.0 - mx).powi(2)).sum();
            let sxy: f64 = pairs.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
            // A degenerate spread (all shallow values equal) falls back to slope 1.
            let a = if sxx > 1e-9 {
                (sxy / sxx).clamp(0.5, 1.5)
            } else {
                1.0
            };
            let b = my - a * mx;
            let rss: f64 = pairs.iter().map(|p| (p.1 - a * p.0 - b).powi(2)).sum();
            let sigma = (rss / (n - 2.0)).sqrt().max(1.0);
            out.push(MpcParams {
                depth: d as u8,
                empties_min: lo,
                empties_max: hi,
                a: a as f32,
                b: b as f32,
                sigma: sigma as f32,
            });
        }
    }
    out
}

/// The text of the evaluation's table file (`crates/engine/data/mpc-gen3.txt`) for
/// `params`, recording how it was made.
pub fn render_table(
    params: &[MpcParams],
    command: &str,
    samples: usize,
    eval_name: &str,
) -> String {
    let mut s = format!(
        "# Multi-ProbCut parameters fitted from our own searches (evaluation {eval_name}).\n\
         #\n\
         # Generated by `{command}`\n\
         # from {samples} self-play positions: for each deep depth and range of empty squares,\n\
         # `deep = a * shallow + b` with residual standard deviation `sigma` (evaluation units,\n\
         # hundredths of a disc). Regenerate after changing the evaluation or the search.\n\
         # depth empties_min empties_max a b sigma\n"
    );
    for p in params {
        s.push_str(&p.to_line());
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn journal_lines_round_trip() {
        let s = FitSample {
            board: Board::start().play_unchecked("f5".parse().unwrap()),
            values: vec![12, -340, 0, 77],
        };
        let line = s.to_journal_line(41);
        assert_eq!(FitSample::from_journal_line(&line), Ok((41, s)));
        assert!(FitSample::from_journal_line("3 zz 00 1").is_err());
        assert!(FitSample::from_journal_line("3 00").is_err());
    }

    #[test]
    fn fit_recovers_a_known_line() {
        // Depth 3 = 0.9 * depth 1 + 50 and depth 2 = 1.1 * static - 30, exactly: the fit finds
        // both lines (depth 2 is predicted by the static evaluation) with a tiny sigma.
        let samples: Vec<FitSample> = (0..40)
            .map(|i| {
                let mut values = vec![0; 5];
                values[0] = 500 - i * 29;
                values[1] = i * 37 - 600;
                values[2] = (1.1 * values[0] as f64 - 30.0) as i32;
                values[3] = (0.9 * values[1] as f64 + 50.0) as i32;
                FitSample {
                    board: Board::start(),
                    values,
                }
            })
            .collect();
        let p = fit(&samples, 3, &[(0, 64)]);
        assert_eq!(p.len(), 2, "{p:?}");
        assert_eq!((p[0].depth, p[1].depth), (2, 3), "{p:?}");
        assert!((p[0].a - 1.1).abs() < 0.01, "{p:?}");
        assert!((p[0].b + 30.0).abs() < 2.0, "{p:?}");
        assert!((p[1].a - 0.9).abs() < 0.01, "{p:?}");
        assert!((p[1].b - 50.0).abs() < 2.0, "{p:?}");
        assert!(p.iter().all(|l| l.sigma <= 1.5), "{p:?}");
        let text = render_table(&p, "virada bench mpc-fit", 40, "gen3-G05");
        assert!(text.contains("(evaluation gen3-G05)"));
        // The engine reads back what was written (to the printed precision).
        let back = virada_engine::eval::mpc::parse_table(&text).unwrap();
        assert_eq!(back.len(), p.len());
        for (x, y) in back.iter().zip(&p) {
            assert_eq!(
                (x.depth, x.empties_min, x.empties_max),
                (y.depth, y.empties_min, y.empties_max)
            );
            assert!(
                (x.a - y.a).abs() < 1e-4 && (x.sigma - y.sigma).abs() < 0.06,
                "{x:?} {y:?}"
            );
        }
    }

    #[test]
    fn buckets_cover_every_number_of_empties_once() {
        assert_eq!(
            buckets(12, 4),
            vec![
                (0, 15),
                (16, 19),
                (20, 23),
                (24, 27),
                (28, 31),
                (32, 35),
                (36, 39),
                (40, 43),
                (44, 47),
                (48, 51),
                (52, 64)
            ]
        );
        for (min, width) in [(12, 4), (5, 7), (22, 40), (60, 3), (12, 1)] {
            let b = buckets(min, width);
            for e in 0..=64u8 {
                let n = b.iter().filter(|r| (r.0..=r.1).contains(&e)).count();
                assert_eq!(n, 1, "{min} {width}: {e} empties in {b:?}");
            }
        }
    }

    #[test]
    fn lines_are_fitted_per_range_of_empties() {
        // The same shallow values predict depth 3 with a different intercept in two ranges.
        let b20 = Board::start();
        let mut b40 = b20;
        for _ in 0..20 {
            let m = b40.moves();
            b40 = if m == 0 {
                b40.pass()
            } else {
                b40.play_unchecked(Square::lowest_of(m))
            };
        }
        assert!(b40.empty_count() < 48, "{}", b40.empty_count());
        let samples: Vec<FitSample> = (0..40)
            .map(|i| {
                let (board, b) = if i % 2 == 0 { (b20, 100) } else { (b40, -200) };
                let x = i * 31 - 600;
                FitSample {
                    board,
                    values: vec![0, x, 0, x + b],
                }
            })
            .collect();
        let ranges = [(0, 47), (48, 64)];
        let p: Vec<_> = fit(&samples, 3, &ranges)
            .into_iter()
            .filter(|l| l.depth == 3)
            .collect();
        assert_eq!(p.len(), 2, "{p:?}");
        assert_eq!((p[0].empties_min, p[0].empties_max), (0, 47));
        assert!(
            (p[0].b + 200.0).abs() < 1.0 && (p[1].b - 100.0).abs() < 1.0,
            "{p:?}"
        );
        assert!(
            p.iter().all(|l| (l.a - 1.0).abs() < 1e-3 && l.sigma <= 1.5),
            "{p:?}"
        );
    }

    #[test]
    fn sampled_positions_are_playable() {
        let b = sample_positions(6, 20, 7);
        assert_eq!(b.len(), 6);
        assert!(b.iter().all(|x| x.moves() != 0 && x.empty_count() >= 20));
        assert_eq!(b, sample_positions(6, 20, 7), "seeded");
    }
}
