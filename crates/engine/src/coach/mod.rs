//! The coach: why a move lost discs, named in the strategy vocabulary of RULES.md (corners,
//! X- and C-squares, mobility, frontier and quiet moves, edges, stable discs, parity, tempo,
//! wipe-outs, the exact endgame). Each explanation is a concrete claim a player can check on the
//! board: its kind, the squares to draw and the counts behind it, read from the positions after
//! the played and the better move and from both lines (the analysis's principal variations).
//! The text is rendered separately ([`Explanation::text`]) in English or pt-BR.
//!
//! One file per kind of explanation; [`explain`] asks each of them.

mod corner;
mod edges;
mod exact;
mod frontier;
mod lines;
mod mobility;
mod parity;
mod stability;
mod tempo;
mod text;
mod wipeout;

#[cfg(test)]
mod at_check;
#[cfg(test)]
mod test_util;

pub use text::Lang;

use crate::analysis::GameAnalysis;
use lines::Lines;
use virada_rules::{Board, Color, Game, Move, Square};

/// A move outside the book losing at least this many discs is explained.
pub const EXPLAIN_LOSS: f32 = 2.0;

/// A book move losing at least this many discs is explained like any other: the book's
/// openings are played by strong players, but a loss this size in the review's own search is
/// a mistake the player should hear about (a LIVRO badge alone said nothing about it).
pub const BOOK_EXPLAIN_LOSS: f32 = 4.0;

/// What an explanation says. The API names are [`Kind::as_str`].
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// The opponent can take a corner after the move (at once, or within the played line).
    CornerGiven,
    /// The better move takes a corner.
    CornerMissed,
    /// The move is an X-square next to an empty corner.
    XSquare,
    /// The move is a C-square next to an empty corner.
    CSquare,
    /// Legal moves of both sides after the played and the better move.
    Mobility,
    /// Frontier discs (next to empty squares) made by the move.
    Frontier,
    /// Discs flipped by the move that are left exposed on the frontier (not a quiet move).
    QuietMove,
    /// The move leaves an edge that can be attacked from one side.
    UnbalancedEdge,
    /// The opponent can wedge a disc between two of the mover's edge discs.
    Wedge,
    /// Stable edge discs anchored on a corner, a few plies on.
    EdgeAnchor,
    /// Stable discs of both sides, a few plies on.
    Stability,
    /// Endgame parity: even or odd empty regions and who moves last in them.
    Parity,
    /// The better move (or its line) forces the opponent to pass.
    PassForced,
    /// The played line makes the mover pass.
    PassAllowed,
    /// The opponent can flip every disc of the mover.
    WipeoutRisk,
    /// The solver's exact scores of both moves and its line.
    ExactLoss,
}

impl Kind {
    /// Every kind, in the order explanations are listed.
    pub const ALL: [Kind; 16] = [
        Kind::ExactLoss,
        Kind::CornerGiven,
        Kind::CornerMissed,
        Kind::XSquare,
        Kind::CSquare,
        Kind::WipeoutRisk,
        Kind::PassForced,
        Kind::PassAllowed,
        Kind::Parity,
        Kind::Mobility,
        Kind::Frontier,
        Kind::QuietMove,
        Kind::UnbalancedEdge,
        Kind::Wedge,
        Kind::EdgeAnchor,
        Kind::Stability,
    ];

    /// The API name (`corner_given`, `x_square`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::CornerGiven => "corner_given",
            Kind::CornerMissed => "corner_missed",
            Kind::XSquare => "x_square",
            Kind::CSquare => "c_square",
            Kind::Mobility => "mobility",
            Kind::Frontier => "frontier",
            Kind::QuietMove => "quiet_move",
            Kind::UnbalancedEdge => "unbalanced_edge",
            Kind::Wedge => "wedge",
            Kind::EdgeAnchor => "edge_anchor",
            Kind::Stability => "stability",
            Kind::Parity => "parity",
            Kind::PassForced => "pass_forced",
            Kind::PassAllowed => "pass_allowed",
            Kind::WipeoutRisk => "wipeout_risk",
            Kind::ExactLoss => "exact_loss",
        }
    }
}

/// Which line's board a claim is read on.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum LineKind {
    /// The position before the move.
    Before,
    /// The played move's line (the move, then the opponent's best answers).
    Played,
    /// The better move's line.
    Best,
}

impl LineKind {
    /// The API name (`before`, `played`, `best`).
    pub fn as_str(self) -> &'static str {
        match self {
            LineKind::Before => "before",
            LineKind::Played => "played",
            LineKind::Best => "best",
        }
    }
}

/// The board a claim holds on: `ply` plies into `line` from the position before the move (1 =
/// right after the played or the better move; `Before` is always 0). Its squares are drawn on
/// that board: each holds a disc there, or is an empty square the claim is about (a legal move
/// there, an empty corner next to the X- or C-square, the empty region, the wedge's gap).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct At {
    pub line: LineKind,
    pub ply: usize,
}

impl At {
    pub const BEFORE: At = At {
        line: LineKind::Before,
        ply: 0,
    };

    pub fn played(ply: usize) -> At {
        At {
            line: LineKind::Played,
            ply,
        }
    }

    pub fn best(ply: usize) -> At {
        At {
            line: LineKind::Best,
            ply,
        }
    }
}

/// One reason a move lost discs, as data: what to draw and the counts behind the claim.
#[derive(Clone, Debug, PartialEq)]
pub struct Explanation {
    pub kind: Kind,
    /// Who played the move.
    pub mover: Color,
    pub played: Square,
    /// The better move it is compared with.
    pub best: Square,
    /// Squares to highlight (the corner, the X-square, the discs counted, ...).
    pub squares: Vec<Square>,
    /// The counts behind the claim, by name (each kind's names are listed in docs/API.md).
    pub numbers: Vec<(&'static str, i32)>,
    /// The line the claim is read from, from the position before the move (the played or the
    /// better move first); empty when the claim needs none.
    pub line: Vec<Move>,
    /// The board the claim holds on, where its squares are drawn.
    pub at: At,
}

impl Explanation {
    /// The number called `name` (0 if this kind has none by that name).
    pub fn number(&self, name: &str) -> i32 {
        self.numbers
            .iter()
            .find(|(n, _)| *n == name)
            .map_or(0, |&(_, v)| v)
    }

    /// One short sentence in `lang`.
    pub fn text(&self, lang: Lang) -> String {
        text::render(self, lang)
    }
}

/// A move to explain: the position before it (side to move = the mover), the played and the
/// better move, their values and both lines.
#[derive(Clone, Copy, Debug)]
pub struct Mistake<'a> {
    pub before: Board,
    pub mover: Color,
    pub played: Square,
    pub best: Square,
    /// Values of both moves for the mover (final disc difference).
    pub played_value: f32,
    pub best_value: f32,
    /// Both values are proven by the solver.
    pub exact: bool,
    /// The better move's line (principal variation), starting with `best`.
    pub best_line: &'a [Move],
    /// The line after the played move (the opponent's best answers), starting with `played`.
    pub played_line: &'a [Move],
}

impl Mistake<'_> {
    /// Discs lost against the better move.
    pub fn loss(&self) -> f32 {
        (self.best_value - self.played_value).max(0.0)
    }
}

/// Every explanation that holds for `m`, in [`Kind::ALL`] order. Empty when the played move is
/// the better one or either move is not legal.
pub fn explain(m: &Mistake) -> Vec<Explanation> {
    if m.played == m.best || !m.before.is_legal(m.played) || !m.before.is_legal(m.best) {
        return Vec::new();
    }
    let lines = Lines::new(m);
    let found = [
        exact::exact_loss(m, &lines),
        corner::corner_given(m, &lines),
        corner::corner_missed(m),
        corner::x_square(m),
        corner::c_square(m),
        wipeout::wipeout_risk(m, &lines),
        tempo::pass_forced(m, &lines),
        tempo::pass_allowed(m, &lines),
        parity::parity(m, &lines),
        mobility::mobility(m, &lines),
        frontier::frontier(m, &lines),
        frontier::quiet_move(m, &lines),
        edges::unbalanced_edge(m, &lines),
        edges::wedge(m, &lines),
        edges::edge_anchor(m, &lines),
        stability::stability(m, &lines),
    ];
    found
        .into_iter()
        .flatten()
        .map(|c| Explanation {
            kind: c.kind,
            mover: m.mover,
            played: m.played,
            best: m.best,
            squares: c.squares,
            numbers: c.numbers,
            line: c.line,
            at: c.at,
        })
        .collect()
}

/// What one kind's check found (the explanation without the move it belongs to).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Claim {
    pub kind: Kind,
    pub squares: Vec<Square>,
    pub numbers: Vec<(&'static str, i32)>,
    pub line: Vec<Move>,
    /// Where the claim holds (right after the played move unless the kind says otherwise).
    pub at: At,
}

impl Claim {
    /// A claim comparing the lines after `plies` plies: the discs (or squares) of some kind
    /// the mover (`own`) and the opponent hold after the played line and after the best line.
    /// Numbers: `plies`, `own_played`, `opponent_played`, `own_best`, `opponent_best`. It holds
    /// `plies` into the played line (the caller says so when its squares are the best line's).
    pub fn both_lines(
        kind: Kind,
        squares: Vec<Square>,
        plies: usize,
        [own_played, opponent_played, own_best, opponent_best]: [u64; 4],
    ) -> Claim {
        let n = |x: u64| x.count_ones() as i32;
        Claim::new(
            kind,
            squares,
            vec![
                ("plies", plies as i32),
                ("own_played", n(own_played)),
                ("opponent_played", n(opponent_played)),
                ("own_best", n(own_best)),
                ("opponent_best", n(opponent_best)),
            ],
        )
        .at(At::played(plies))
    }

    pub fn new(kind: Kind, squares: Vec<Square>, numbers: Vec<(&'static str, i32)>) -> Claim {
        Claim {
            kind,
            squares,
            numbers,
            line: Vec::new(),
            at: At::played(1),
        }
    }

    /// The claim holds at `at` (its squares are drawn there).
    pub fn at(mut self, at: At) -> Claim {
        self.at = at;
        self
    }

    /// The number called `name` (0 if none).
    #[cfg(test)]
    pub fn number(&self, name: &str) -> i32 {
        self.numbers
            .iter()
            .find(|(n, _)| *n == name)
            .map_or(0, |&(_, v)| v)
    }

    pub fn with_line(mut self, line: &[Move]) -> Claim {
        self.line = line.to_vec();
        self
    }
}

/// The explanations of one judged move of a game.
#[derive(Clone, Debug, PartialEq)]
pub struct PlyExplanations {
    /// Index of the move in the game (0 = the first move), as in [`crate::PlyAnalysis::ply`].
    pub ply: usize,
    pub explanations: Vec<Explanation>,
}

/// Explains every move of `game` that `review` judged outside the book and that lost at least
/// [`EXPLAIN_LOSS`] discs, and every book move that lost at least [`BOOK_EXPLAIN_LOSS`]. The played move's line is the review of the next position (its best
/// line), after any forced passes.
pub fn explain_game(game: &Game, review: &GameAnalysis) -> Vec<PlyExplanations> {
    let moves = game.moves();
    let positions = game.positions();
    let mut out = Vec::new();
    for p in &review.plies {
        let (Move::Play(played), Move::Play(best)) = (p.played, p.best_move) else {
            continue;
        };
        let threshold = if p.book {
            BOOK_EXPLAIN_LOSS
        } else {
            EXPLAIN_LOSS
        };
        if p.loss < threshold || p.ply >= moves.len() {
            continue;
        }
        let mut played_line = vec![Move::Play(played)];
        let mut next = p.ply + 1;
        while next < moves.len() && moves[next] == Move::Pass {
            played_line.push(Move::Pass);
            next += 1;
        }
        if let Some(r) = review.ply(next) {
            played_line.extend(&r.pv);
        }
        let best_line: Vec<Move> = if p.pv.first() == Some(&Move::Play(best)) {
            p.pv.clone()
        } else {
            vec![Move::Play(best)]
        };
        let before = positions[p.ply];
        let m = Mistake {
            before: before.board(),
            mover: before.side_to_move(),
            played,
            best,
            played_value: p.played_value,
            best_value: p.best_value,
            exact: p.exact,
            best_line: &best_line,
            played_line: &played_line,
        };
        out.push(PlyExplanations {
            ply: p.ply,
            explanations: explain(&m),
        });
    }
    out
}

/// The move number of every ply of `game`, as a move list numbers them: a row per Black move
/// and the White move after it (`3. f3 e3`); a White move that opens a row (after a pass of
/// Black or at the start) gets its own number (`3... e3`).
pub fn move_numbers(game: &Game) -> Vec<u32> {
    let mut row = 0;
    let mut open = false;
    game.positions()
        .iter()
        .take(game.moves().len())
        .map(|pos| {
            let white = pos.side_to_move() == Color::White;
            if !white || !open {
                row += 1;
            }
            open = !white;
            row
        })
        .collect()
}

/// "3." for Black's move numbered 3, "3..." for White's.
pub fn move_label(number: u32, mover: Color) -> String {
    match mover {
        Color::Black => format!("{number}."),
        Color::White => format!("{number}..."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::PlyAnalysis;
    use virada_rules::formats::transcript::Transcript;
    use virada_rules::Position;

    fn game(t: &str) -> Game {
        t.parse::<Transcript>()
            .unwrap()
            .replay(Position::start())
            .unwrap()
    }

    #[test]
    fn moves_numbered_as_the_move_list() {
        let g = game("f5d6c3d3c4");
        assert_eq!(move_numbers(&g), [1, 1, 2, 2, 3]);
        assert_eq!(move_label(3, Color::Black), "3.");
        assert_eq!(move_label(2, Color::White), "2...");
    }

    #[test]
    fn nothing_to_explain_for_the_best_move() {
        let b = Board::start();
        let line = [Move::Play(Square::D3)];
        let m = Mistake {
            before: b,
            mover: Color::Black,
            played: Square::D3,
            best: Square::D3,
            played_value: 0.0,
            best_value: 0.0,
            exact: false,
            best_line: &line,
            played_line: &line,
        };
        assert!(explain(&m).is_empty());
    }

    #[test]
    fn a_game_review_is_explained_outside_the_book_and_for_big_book_losses() {
        // A review written by hand: each judged move compared with another legal move.
        let g = game("f5d6c3d3c4");
        let ply = |i: usize, book: bool, loss: f32| {
            let pos = g.positions()[i];
            let played = g.moves()[i];
            let best = pos
                .board()
                .legal_moves()
                .iter()
                .map(Move::Play)
                .find(|m| *m != played)
                .unwrap();
            PlyAnalysis {
                ply: i,
                color: pos.side_to_move(),
                played,
                played_value: -loss,
                best_move: best,
                best_value: 0.0,
                loss,
                exact: false,
                depth: 4,
                book,
                pv: vec![best],
            }
        };
        let review = GameAnalysis {
            plies: vec![
                ply(0, true, 5.0),
                ply(1, false, 1.0),
                ply(2, false, 6.0),
                ply(3, true, 3.0),
            ],
            nodes: 0,
            elapsed: std::time::Duration::ZERO,
            complete: true,
        };
        let out = explain_game(&g, &review);
        // The book move losing 5 and ply 2 are explained; the small loss and the book move
        // losing 3 are not.
        let plies: Vec<usize> = out.iter().map(|e| e.ply).collect();
        assert_eq!(plies, [0, 2]);
    }

    #[test]
    fn a_searched_review_gives_lines_from_the_best_move() {
        use crate::{Engine, EngineConfig, Limits};
        // The game of the CLI test: Black's 8th move b7 gives the corner a8 away.
        let g = game("d3c3b3f4f3e3f6c6f5c5b5e6d6a3b7");
        let mut engine = Engine::new(EngineConfig {
            tt_mb: 4,
            threads: 1,
            ..EngineConfig::default()
        });
        let limits = Limits {
            depth: Some(4),
            exact_empties: Some(8),
            ..Limits::default()
        };
        let review = engine.analyze_game(&g, &limits, None, None);
        for p in &review.plies {
            assert_eq!(p.pv.first(), Some(&p.best_move), "ply {}", p.ply);
        }
        let out = explain_game(&g, &review);
        let last = out.iter().find(|e| e.ply == 14).expect("b7 is a mistake");
        let kinds: Vec<Kind> = last.explanations.iter().map(|e| e.kind).collect();
        assert!(kinds.contains(&Kind::XSquare) && kinds.contains(&Kind::CornerGiven));
    }
}
