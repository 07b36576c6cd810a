//! An independent model of the board for re-checking the coach's claims (`virada bench
//! coach-check`): a plain 8x8 array, its own move generator, flood fill, frontier and stability
//! count. It shares no code with the rules crate's bitboards or the engine's stability and
//! teaching facts that the coach's claims come from, so a claim it confirms was counted twice
//! by different code.

use std::collections::{BTreeMap, BTreeSet};

/// `(rank, file)`, both 0..8; a1 is (0, 0).
pub type Sq = (usize, usize);

/// 1 Black, -1 White, 0 empty; `[rank][file]`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Grid {
    pub cells: [[i8; 8]; 8],
    /// The side to move: 1 Black, -1 White.
    pub to_move: i8,
}

const DIRS: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

pub fn name(s: Sq) -> String {
    format!("{}{}", (b'a' + s.1 as u8) as char, s.0 + 1)
}

pub fn parse(t: &str) -> Option<Sq> {
    let b = t.as_bytes();
    if b.len() != 2 || !(b'a'..=b'h').contains(&b[0]) || !(b'1'..=b'8').contains(&b[1]) {
        return None;
    }
    Some(((b[1] - b'1') as usize, (b[0] - b'a') as usize))
}

fn on(r: i32, c: i32) -> bool {
    (0..8).contains(&r) && (0..8).contains(&c)
}

pub fn neighbours(s: Sq) -> impl Iterator<Item = Sq> {
    DIRS.iter().filter_map(move |&(dr, dc)| {
        let (r, c) = (s.0 as i32 + dr, s.1 as i32 + dc);
        on(r, c).then_some((r as usize, c as usize))
    })
}

pub const CORNERS: [Sq; 4] = [(0, 0), (0, 7), (7, 0), (7, 7)];

pub fn is_corner(s: Sq) -> bool {
    CORNERS.contains(&s)
}

pub fn is_edge(s: Sq) -> bool {
    s.0 == 0 || s.0 == 7 || s.1 == 0 || s.1 == 7
}

impl Grid {
    /// From a position's text: 64 squares a1..h8 (`X`, `O`, `-`), a space, `X` or `O`.
    pub fn from_text(text: &str) -> Option<Grid> {
        let chars: Vec<char> = text.chars().collect();
        if chars.len() < 66 {
            return None;
        }
        let mut cells = [[0i8; 8]; 8];
        for (i, ch) in chars[..64].iter().enumerate() {
            cells[i / 8][i % 8] = match ch {
                'X' => 1,
                'O' => -1,
                '-' => 0,
                _ => return None,
            };
        }
        let to_move = match chars[65] {
            'X' => 1,
            'O' => -1,
            _ => return None,
        };
        Some(Grid { cells, to_move })
    }

    pub fn at(&self, s: Sq) -> i8 {
        self.cells[s.0][s.1]
    }

    /// The discs `who` flips by playing on `s`.
    pub fn flips(&self, s: Sq, who: i8) -> Vec<Sq> {
        if self.at(s) != 0 {
            return Vec::new();
        }
        let mut out = Vec::new();
        for (dr, dc) in DIRS {
            let mut run = Vec::new();
            let (mut r, mut c) = (s.0 as i32 + dr, s.1 as i32 + dc);
            while on(r, c) && self.cells[r as usize][c as usize] == -who {
                run.push((r as usize, c as usize));
                r += dr;
                c += dc;
            }
            if !run.is_empty() && on(r, c) && self.cells[r as usize][c as usize] == who {
                out.extend(run);
            }
        }
        out
    }

    /// The legal moves of `who`, a1 order.
    pub fn moves_of(&self, who: i8) -> Vec<Sq> {
        (0..64)
            .map(|i| (i / 8, i % 8))
            .filter(|&s| !self.flips(s, who).is_empty())
            .collect()
    }

    pub fn moves(&self) -> Vec<Sq> {
        self.moves_of(self.to_move)
    }

    /// Plays `s` for the side to move (it must be legal); the other side moves next.
    pub fn play(&self, s: Sq) -> Option<Grid> {
        let f = self.flips(s, self.to_move);
        if f.is_empty() {
            return None;
        }
        let mut n = *self;
        for x in f {
            n.cells[x.0][x.1] = self.to_move;
        }
        n.cells[s.0][s.1] = self.to_move;
        n.to_move = -self.to_move;
        Some(n)
    }

    /// A pass: only when the side to move has no move and the other has one.
    pub fn pass(&self) -> Option<Grid> {
        if !self.moves().is_empty() || self.moves_of(-self.to_move).is_empty() {
            return None;
        }
        let mut n = *self;
        n.to_move = -self.to_move;
        Some(n)
    }

    /// A move by name (`"pass"` or a square).
    pub fn apply(&self, mv: &str) -> Option<Grid> {
        if mv == "pass" || mv == "--" || mv == "PA" {
            self.pass()
        } else {
            self.play(parse(mv)?)
        }
    }

    pub fn discs(&self, who: i8) -> Vec<Sq> {
        (0..64)
            .map(|i| (i / 8, i % 8))
            .filter(|&s| self.at(s) == who)
            .collect()
    }

    pub fn empty_count(&self) -> usize {
        self.discs(0).len()
    }

    /// Discs of `who` next to an empty square.
    pub fn frontier(&self, who: i8) -> BTreeSet<Sq> {
        self.discs(who)
            .into_iter()
            .filter(|&s| neighbours(s).any(|n| self.at(n) == 0))
            .collect()
    }

    /// The empty region (8-connected) holding the empty square `s`, by flood fill.
    pub fn region(&self, s: Sq) -> BTreeSet<Sq> {
        let mut seen = BTreeSet::from([s]);
        let mut todo = vec![s];
        while let Some(x) = todo.pop() {
            for n in neighbours(x) {
                if self.at(n) == 0 && seen.insert(n) {
                    todo.push(n);
                }
            }
        }
        seen
    }

    /// The stable discs of `who`: edge discs no play on their edge can flip, discs whose four
    /// lines are full, and, repeated until nothing changes, discs that along each of the four
    /// axes have a full line, or a neighbour off the board or stable and of their colour. The
    /// edge part is an exhaustive game on the 8 squares of each edge.
    pub fn stable(&self, who: i8) -> BTreeSet<Sq> {
        let g = &self.cells;
        let mut stable = [[false; 8]; 8];
        let edges: [Vec<Sq>; 4] = [
            (0..8).map(|c| (0, c)).collect(),
            (0..8).map(|c| (7, c)).collect(),
            (0..8).map(|r| (r, 0)).collect(),
            (0..8).map(|r| (r, 7)).collect(),
        ];
        let mut memo = BTreeMap::new();
        for edge in &edges {
            let line: [i8; 8] = std::array::from_fn(|i| g[edge[i].0][edge[i].1]);
            let keep = edge_keeps(line, &mut memo);
            for i in 0..8 {
                if keep[i] && line[i] == who {
                    stable[edge[i].0][edge[i].1] = true;
                }
            }
        }
        let axes = [(0, 1), (1, 0), (1, 1), (1, -1)];
        let full = |s: Sq, (dr, dc): (i32, i32)| {
            [1, -1].iter().all(|k| {
                let (mut r, mut c) = (s.0 as i32 + dr * k, s.1 as i32 + dc * k);
                while on(r, c) {
                    if g[r as usize][c as usize] == 0 {
                        return false;
                    }
                    r += dr * k;
                    c += dc * k;
                }
                true
            })
        };
        for r in 0..8 {
            for c in 0..8 {
                if g[r][c] == who && axes.iter().all(|&a| full((r, c), a)) {
                    stable[r][c] = true;
                }
            }
        }
        loop {
            let mut grew = false;
            for r in 0..8 {
                for c in 0..8 {
                    if g[r][c] != who || stable[r][c] {
                        continue;
                    }
                    let held = axes.iter().all(|&(dr, dc)| {
                        full((r, c), (dr, dc))
                            || [1, -1].iter().any(|k| {
                                let (nr, nc) = (r as i32 + dr * k, c as i32 + dc * k);
                                !on(nr, nc) || stable[nr as usize][nc as usize]
                            })
                    });
                    if held {
                        stable[r][c] = true;
                        grew = true;
                    }
                }
            }
            if !grew {
                break;
            }
        }
        (0..64)
            .map(|i| (i / 8, i % 8))
            .filter(|s| stable[s.0][s.1])
            .collect()
    }
}

/// Which squares of an edge keep their disc's colour whatever either side plays on the edge's
/// empty squares (a play may come from another direction, so either side may play any of them).
fn edge_keeps(line: [i8; 8], memo: &mut BTreeMap<[i8; 8], [bool; 8]>) -> [bool; 8] {
    if let Some(k) = memo.get(&line) {
        return *k;
    }
    let mut keep: [bool; 8] = std::array::from_fn(|i| line[i] != 0);
    for x in 0..8 {
        if line[x] != 0 {
            continue;
        }
        for who in [1i8, -1] {
            let mut next = line;
            next[x] = who;
            for d in [-1i32, 1] {
                let mut i = x as i32 + d;
                let mut run = Vec::new();
                while (0..8).contains(&i) && line[i as usize] == -who {
                    run.push(i as usize);
                    i += d;
                }
                if !run.is_empty() && (0..8).contains(&i) && line[i as usize] == who {
                    for j in run {
                        next[j] = who;
                    }
                }
            }
            let child = edge_keeps(next, memo);
            for i in 0..8 {
                keep[i] = keep[i] && next[i] == line[i] && child[i];
            }
        }
    }
    memo.insert(line, keep);
    keep
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start() -> Grid {
        let mut cells = [[0i8; 8]; 8];
        cells[3][3] = -1;
        cells[4][4] = -1;
        cells[3][4] = 1;
        cells[4][3] = 1;
        Grid { cells, to_move: 1 }
    }

    #[test]
    fn the_start_has_four_moves_and_no_stable_disc() {
        let g = start();
        let names: Vec<String> = g.moves().into_iter().map(name).collect();
        assert_eq!(names, ["d3", "c4", "f5", "e6"]);
        let after = g.apply("d3").unwrap();
        assert_eq!(after.moves().len(), 3);
        assert!(after.apply("a1").is_none() && after.pass().is_none());
        assert!(g.stable(1).is_empty());
        assert_eq!(g.region((0, 0)).len(), 60);
    }

    #[test]
    fn a_corner_disc_is_stable() {
        let mut g = start();
        g.cells[0][0] = 1;
        g.cells[0][1] = 1;
        g.cells[0][2] = -1;
        let s = g.stable(1);
        assert!(s.contains(&(0, 0)) && s.contains(&(0, 1)), "{s:?}");
        assert!(!g.stable(-1).contains(&(0, 2)));
    }
}
