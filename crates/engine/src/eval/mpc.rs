//! Multi-ProbCut: the error model relating shallow and deep search values.
//!
//! For a deep search of depth `d` the model uses a shallow search of depth
//! [`shallow_depth`]`(d)` and predicts `deep ≈ a * shallow + b` with residual standard
//! deviation `sigma`, separately for ranges of empty squares. The parameters live in
//! a table fitted for one evaluation from our own searches by `virada bench mpc-fit` (see
//! `docs/SEARCH.md`): the error model depends on the evaluation's accuracy, so each evaluation
//! owns its table ([`crate::eval::Gen3Eval::mpc`]). [`MpcModel`] lays a table out for the
//! search's lookups.

/// Smallest deep depth a table may have a line for: depth 2, whose shallow search is the
/// static evaluation (depth 0). A table without depth-2 lines starts at its smallest depth
/// ([`min_depth`]).
pub const MPC_MIN_DEPTH: i32 = 2;

/// Deepest depth [`MpcModel`] holds a line for (deeper searches use this depth's line).
pub const MODEL_MAX_DEPTH: i32 = 60;

/// One fitted line of the model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MpcParams {
    /// Deep search depth.
    pub depth: u8,
    /// Smallest number of empty squares the line covers.
    pub empties_min: u8,
    /// Largest number of empty squares the line covers.
    pub empties_max: u8,
    /// Slope of deep on shallow.
    pub a: f32,
    /// Intercept (evaluation units).
    pub b: f32,
    /// Residual standard deviation (evaluation units).
    pub sigma: f32,
}

impl MpcParams {
    /// One line of a table file: `depth empties_min empties_max a b sigma`.
    pub fn to_line(&self) -> String {
        format!(
            "{} {} {} {:.4} {:.1} {:.1}",
            self.depth, self.empties_min, self.empties_max, self.a, self.b, self.sigma
        )
    }

    /// Whether the line covers positions with `empties` empty squares.
    pub fn covers(&self, empties: u32) -> bool {
        (self.empties_min as u32..=self.empties_max as u32).contains(&empties)
    }
}

/// A table file: one [`MpcParams::to_line`] a line; `#` starts a comment line.
pub fn parse_table(text: &str) -> Result<Vec<MpcParams>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let bad = |what: &str| format!("line {}: {what} in {l:?}", i + 1);
            if f.len() != 6 {
                return Err(bad("expected `depth empties_min empties_max a b sigma`"));
            }
            let int = |s: &str| s.parse::<u8>().map_err(|_| bad("not a whole number"));
            let real = |s: &str| s.parse::<f32>().map_err(|_| bad("not a number"));
            Ok(MpcParams {
                depth: int(f[0])?,
                empties_min: int(f[1])?,
                empties_max: int(f[2])?,
                a: real(f[3])?,
                b: real(f[4])?,
                sigma: real(f[5])?,
            })
        })
        .collect()
}

/// The shallow depth paired with deep depth `d`: about half, with the same parity as `d`
/// (odd and even depths disagree systematically in Othello, so pairs keep one parity).
pub fn shallow_depth(d: i32) -> i32 {
    let h = d / 2;
    if (d - h) % 2 == 1 {
        (h - 1).max(0)
    } else {
        h
    }
}

/// The smallest deep depth `table` has a line for (no line: never).
pub fn min_depth(table: &[MpcParams]) -> i32 {
    table
        .iter()
        .map(|p| p.depth as i32)
        .min()
        .unwrap_or(i32::MAX)
        .max(MPC_MIN_DEPTH)
}

/// The model for a deep search of `depth` at `empties`, from `table`. Depths beyond the fitted
/// range reuse the deepest fitted line covering `empties` with sigma grown by 5% per extra ply
/// (errors grow with depth); depths below the table's smallest line have none.
pub fn params(table: &[MpcParams], depth: i32, empties: u32) -> Option<MpcParams> {
    if depth < MPC_MIN_DEPTH {
        return None;
    }
    let mut best: Option<MpcParams> = None;
    for p in table.iter().filter(|p| p.covers(empties)) {
        if p.depth as i32 == depth {
            return Some(*p);
        }
        if (p.depth as i32) < depth && !matches!(best, Some(b) if b.depth >= p.depth) {
            best = Some(*p);
        }
    }
    best.map(|p| MpcParams {
        sigma: p.sigma * (1.0 + 0.05 * (depth - p.depth as i32) as f32),
        depth: depth as u8,
        ..p
    })
}

/// A line as the search uses it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Line {
    pub a: f32,
    pub b: f32,
    pub sigma: f32,
}

/// A table's [`params`] for every depth up to [`MODEL_MAX_DEPTH`] and every number of empty
/// squares, so the search finds a line with one index instead of scanning the table.
#[derive(Clone, Debug)]
pub struct MpcModel {
    /// `lines[depth * 65 + empties]`.
    lines: Box<[Option<Line>]>,
    min_depth: i32,
}

impl MpcModel {
    pub fn new(table: &[MpcParams]) -> MpcModel {
        let mut lines = Vec::with_capacity((MODEL_MAX_DEPTH as usize + 1) * 65);
        for depth in 0..=MODEL_MAX_DEPTH {
            for empties in 0..=64 {
                lines.push(params(table, depth, empties).map(|p| Line {
                    a: p.a,
                    b: p.b,
                    sigma: p.sigma,
                }));
            }
        }
        MpcModel {
            lines: lines.into_boxed_slice(),
            min_depth: min_depth(table),
        }
    }

    /// The line for a deep search of `depth` at `empties` (depths beyond
    /// [`MODEL_MAX_DEPTH`] use its line).
    #[inline]
    pub fn line(&self, depth: i32, empties: u32) -> Option<Line> {
        let d = depth.clamp(0, MODEL_MAX_DEPTH) as usize;
        self.lines[d * 65 + empties.min(64) as usize]
    }

    /// The smallest depth with a line.
    pub fn min_depth(&self) -> i32 {
        self.min_depth
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::gen3::mpc_table::mpc_table_gen3;

    #[test]
    fn shallow_depths_keep_parity() {
        assert_eq!(
            shallow_depth(2),
            0,
            "depth 2 is predicted by the static evaluation"
        );
        for d in 3..30 {
            let s = shallow_depth(d);
            assert!(s >= 1 && s < d, "{d} -> {s}");
            assert_eq!((d - s) % 2, 0, "{d} -> {s}");
        }
    }

    #[test]
    fn every_number_of_empties_has_exactly_one_line_a_depth() {
        let table = mpc_table_gen3();
        for d in min_depth(table)..=10 {
            for e in 0..=64 {
                let n = table
                    .iter()
                    .filter(|p| p.depth as i32 == d && p.covers(e))
                    .count();
                assert_eq!(n, 1, "depth {d}, {e} empties");
            }
        }
    }

    #[test]
    fn every_depth_and_number_of_empties_has_parameters() {
        let table = mpc_table_gen3();
        for e in [0, 10, 30, 50, 64] {
            for d in min_depth(table)..25 {
                let p = params(table, d, e).expect("fitted");
                assert!(p.sigma > 0.0 && p.a > 0.0, "{p:?}");
            }
        }
        assert!(params(table, 1, 30).is_none());
        assert!(params(table, min_depth(table) - 1, 30).is_none());
    }

    #[test]
    fn deeper_than_fitted_grows_sigma() {
        let table = mpc_table_gen3();
        let deepest = table.iter().map(|p| p.depth as i32).max().unwrap();
        let last = params(table, deepest, 30).unwrap();
        let beyond = params(table, deepest + 4, 30).unwrap();
        assert_eq!((beyond.a, beyond.b), (last.a, last.b));
        assert!((beyond.sigma / last.sigma - 1.2).abs() < 1e-4, "{beyond:?}");
    }

    #[test]
    fn the_model_gives_the_tables_lines() {
        for (name, table) in [("gen3", mpc_table_gen3()), ("empty", &[][..])] {
            let model = MpcModel::new(table);
            assert_eq!(model.min_depth(), min_depth(table));
            for d in 0..=MODEL_MAX_DEPTH + 2 {
                for e in 0..=64 {
                    let want = params(table, d.min(MODEL_MAX_DEPTH), e).map(|p| Line {
                        a: p.a,
                        b: p.b,
                        sigma: p.sigma,
                    });
                    assert_eq!(model.line(d, e), want, "{name}: depth {d}, {e} empties");
                }
            }
        }
    }
}
