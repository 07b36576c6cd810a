//! The [`Engine`] facade: one object owning the transposition table, the evaluation and the
//! thread count, used by the app server, the command line and external programs.

use crate::analysis::book_values;
use crate::analysis::{self, Analysis, GameAnalysis, ReviewEffort};
use crate::book::Book;
use crate::eval::{default_evaluator, Gen3Eval};
use crate::levels::{BookUse, Level, Mistakes};
use crate::random::splitmix64;
use crate::search::probcut_log::ProbcutLog;
use crate::search::{self, Limits, Observer, SearchResult, SearchSetup, Unobserved};
use crate::time::TimeSource;
use crate::tt::TranspositionTable;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;
use virada_rules::masks::{CORNERS, EDGES};
use virada_rules::{Board, Game, Move};

/// How to build an [`Engine`].
#[derive(Clone)]
pub struct EngineConfig {
    /// Transposition table size in MiB (one table, shared by the midgame search and the
    /// endgame solver).
    pub tt_mb: usize,
    /// Search threads (1 = deterministic node counts).
    pub threads: usize,
    /// The evaluation (default: [`default_evaluator`]).
    pub evaluator: Arc<Gen3Eval>,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            tt_mb: 64,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            evaluator: default_evaluator(),
        }
    }
}

impl std::fmt::Debug for EngineConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EngineConfig")
            .field("tt_mb", &self.tt_mb)
            .field("threads", &self.threads)
            .field("evaluator", &self.evaluator.name())
            .finish()
    }
}

/// The engine: create once, reuse for many searches (the table keeps what it learnt).
///
/// ```
/// use virada_engine::{Engine, EngineConfig, Limits};
/// use virada_rules::Board;
/// let mut engine = Engine::new(EngineConfig { tt_mb: 4, threads: 1, ..EngineConfig::default() });
/// let r = engine.search(Board::start(), &Limits::depth(4), None);
/// assert!(Board::start().legal_moves().contains(r.best_move.square().unwrap()));
/// let a = engine.analyze(Board::start(), &Limits::depth(3), None);
/// assert_eq!(a.moves.len(), 4); // a value for each legal move
/// ```
pub struct Engine {
    /// Shared by the midgame search and the endgame solver.
    tt: TranspositionTable,
    eval: Arc<Gen3Eval>,
    threads: usize,
    time_source: TimeSource,
    /// The opening book the levels play from (`None`: every move is searched).
    book: Option<&'static Book>,
    /// Where Multi-ProbCut's decisions are recorded (`virada bench probcut`), if anywhere.
    probcut_log: Option<Arc<ProbcutLog>>,
}

impl Engine {
    /// An engine with the given table size, threads and evaluation, and no opening book (see
    /// [`Engine::set_book`]): a library user gets plain search unless asking for the book.
    pub fn new(cfg: EngineConfig) -> Engine {
        Engine {
            tt: TranspositionTable::new(cfg.tt_mb),
            eval: cfg.evaluator,
            threads: cfg.threads.max(1),
            time_source: TimeSource::System,
            book: None,
            probcut_log: None,
        }
    }

    /// Sets the opening book the levels play from ([`Book::shipped`] for the default one;
    /// `None` to search every move). Applications (the app server, `virada play`, matches,
    /// the protocols) set it; a book loaded from a file lives as long as the program.
    pub fn set_book(&mut self, book: Option<&'static Book>) {
        self.book = book;
    }

    /// The opening book in use, if any.
    pub fn book(&self) -> Option<&'static Book> {
        self.book
    }

    /// The book move `book_use` plays on `board`, if there is a book, `board` is in it and
    /// `book_use` consults it. Deterministic for a seed, and the same (transformed) move for
    /// each of the 8 images of a position.
    pub fn book_move(&self, board: Board, book_use: BookUse, seed: u64) -> Option<Move> {
        match book_use {
            BookUse::Ignore => None,
            BookUse::Within { tolerance } => self
                .book?
                .choose_board(board, tolerance, seed)
                .filter(|&sq| board.is_legal(sq))
                .map(Move::Play),
        }
    }

    /// The evaluation in use.
    pub fn evaluator(&self) -> &Arc<Gen3Eval> {
        &self.eval
    }

    /// Number of search threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Changes the number of search threads.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }

    /// Changes where time limits read the time: the system clock (the default), or simulated
    /// time for deterministic tests of time management ([`TimeSource::PerNode`]).
    pub fn set_time_source(&mut self, source: TimeSource) {
        self.time_source = source;
    }

    /// Records Multi-ProbCut's probes and cuts in `log` from now on (`None`: stop recording).
    /// A measurement of the cuts; the search is the same either way.
    pub fn set_probcut_log(&mut self, log: Option<Arc<ProbcutLog>>) {
        self.probcut_log = log;
    }

    /// Forgets everything learnt (new game, or reproducible measurements).
    pub fn clear(&mut self) {
        self.tt.clear();
    }

    fn setup(&self) -> SearchSetup<'_> {
        SearchSetup {
            tt: &self.tt,
            eval: &self.eval,
            threads: self.threads,
            time_source: self.time_source,
            probcut_log: self.probcut_log.as_deref(),
        }
    }

    /// The best move of `board` (side to move's view) within `limits`. Setting `stop` from
    /// another thread ends the search at once with the best move found so far.
    pub fn search(
        &mut self,
        board: Board,
        limits: &Limits,
        stop: Option<Arc<AtomicBool>>,
    ) -> SearchResult {
        self.search_observed(board, limits, stop, &mut Unobserved)
    }

    /// [`Engine::search`], telling `observer` about each completed iteration (see
    /// [`Observer`]).
    pub fn search_observed(
        &mut self,
        board: Board,
        limits: &Limits,
        stop: Option<Arc<AtomicBool>>,
        observer: &mut dyn Observer,
    ) -> SearchResult {
        search::search(board, limits, &self.setup(), stop.as_ref(), observer)
    }

    /// A value for every legal move of `board`, best first, and the best line.
    /// [`Analysis::complete`] says whether the limits were reached or the analysis was cut
    /// short.
    pub fn analyze(
        &mut self,
        board: Board,
        limits: &Limits,
        stop: Option<Arc<AtomicBool>>,
    ) -> Analysis {
        self.analyze_observed(board, limits, stop, &mut Unobserved)
    }

    /// [`Engine::analyze`], telling `observer` about each completed iteration (its best move).
    /// With a book ([`Engine::set_book`]), a book position gets the book's values
    /// ([`MoveValue::book`](crate::MoveValue::book)): without a search when the book values
    /// every legal move, else after the search for the moves the book knows.
    pub fn analyze_observed(
        &mut self,
        board: Board,
        limits: &Limits,
        stop: Option<Arc<AtomicBool>>,
        observer: &mut dyn Observer,
    ) -> Analysis {
        if let Some(a) = self.book.and_then(|b| book_values::book_analysis(b, board)) {
            return a;
        }
        let mut a = analysis::analyze(board, limits, &self.setup(), stop.as_ref(), observer);
        if let Some(book) = self.book {
            book_values::overlay(book, board, &mut a);
        }
        a
    }

    /// For each played move of `game`, the best move's value and the played move's value, each
    /// position analysed within `limits`. With a `budget`, the whole review keeps to it: each
    /// ply gets a share of what is left, weighted like a game clock (the late midgame most,
    /// the solved endgame little), and at least one shallow iteration. A review cut short by
    /// the budget or `stop` says so ([`GameAnalysis::complete`]). With a book, a ply whose
    /// position the book values fully is judged by the book ([`PlyAnalysis::book`](crate::PlyAnalysis::book)), without
    /// a search: the loss of an opening error is the one theory gives.
    ///
    /// ```
    /// use std::time::Duration;
    /// use virada_engine::{Engine, EngineConfig, Limits};
    /// use virada_rules::formats::transcript::Transcript;
    /// use virada_rules::Position;
    /// let t: Transcript = "f5d6c3d3c4".parse().unwrap();
    /// let game = t.replay(Position::start()).unwrap();
    /// let mut engine = Engine::new(EngineConfig { tt_mb: 4, threads: 1, ..EngineConfig::default() });
    /// let review = engine.analyze_game(&game, &Limits::depth(4), Some(Duration::from_secs(60)), None);
    /// assert_eq!(review.plies.len(), 5);
    /// ```
    pub fn analyze_game(
        &mut self,
        game: &Game,
        limits: &Limits,
        budget: Option<Duration>,
        stop: Option<Arc<AtomicBool>>,
    ) -> GameAnalysis {
        analysis::analyze_game(
            game,
            limits,
            budget,
            &self.setup(),
            self.book,
            stop.as_ref(),
        )
    }

    /// [`Engine::analyze`] of `moves` only (legal moves of `board`; others are ignored), without
    /// the book: a deeper look at a few moves.
    pub fn analyze_moves(
        &mut self,
        board: Board,
        limits: &Limits,
        moves: &[Move],
        stop: Option<Arc<AtomicBool>>,
    ) -> Analysis {
        analysis::analyze_moves(
            board,
            limits,
            &self.setup(),
            stop.as_ref(),
            &mut Unobserved,
            Some(moves),
        )
    }

    /// The review of `game` within `effort`'s node budget: exact solves near the end, every
    /// other position valued as deep as its share of the budget allows, and every loss of
    /// [`ReviewEffort::recheck_loss`] discs or more searched again deeper (the two moves
    /// only) before it is reported. One thread gives the same review on any machine. With a
    /// book, book positions are judged by it. `stop` cuts the review short
    /// ([`GameAnalysis::complete`] is then false).
    ///
    /// ```
    /// use virada_engine::{Engine, EngineConfig, ReviewEffort};
    /// use virada_rules::formats::transcript::Transcript;
    /// use virada_rules::Position;
    /// let t: Transcript = "f5d6c3d3c4".parse().unwrap();
    /// let game = t.replay(Position::start()).unwrap();
    /// let mut engine = Engine::new(EngineConfig { tt_mb: 4, threads: 1, ..EngineConfig::default() });
    /// let review = engine.review_game(&game, &ReviewEffort::with_nodes(200_000), None);
    /// assert_eq!(review.plies.len(), 5);
    /// assert!(review.complete && review.nodes <= 200_000 + 50_000);
    /// ```
    pub fn review_game(
        &mut self,
        game: &Game,
        effort: &ReviewEffort,
        stop: Option<Arc<AtomicBool>>,
    ) -> GameAnalysis {
        analysis::review::review_game(game, effort, &self.setup(), self.book, stop.as_ref())
    }

    /// The move `level` plays on `board`. Deterministic for a given `seed` (beginner levels
    /// draw their mistakes from it; stronger levels ignore it).
    pub fn choose_move(
        &mut self,
        board: Board,
        level: Level,
        seed: u64,
        stop: Option<Arc<AtomicBool>>,
    ) -> Move {
        self.choose_move_with(board, level, &level.limits(), seed, stop)
    }

    /// Like [`Engine::choose_move`], with the level's limits replaced by `limits` (e.g. a game
    /// clock for the maximum level); the level's mistakes still apply.
    pub fn choose_move_with(
        &mut self,
        board: Board,
        level: Level,
        limits: &Limits,
        seed: u64,
        stop: Option<Arc<AtomicBool>>,
    ) -> Move {
        self.choose_move_observed(board, level, limits, seed, stop, &mut Unobserved)
    }

    /// [`Engine::choose_move_with`], telling `observer` about each completed iteration of the
    /// search (for a beginner level: of its analysis, before it picks its human-like move). The
    /// one implementation of a level: the app, the command line and matches all come here.
    /// In a book position a level that uses the book ([`Level::spec`]) plays a book move
    /// without searching (the observer then sees nothing).
    pub fn choose_move_observed(
        &mut self,
        board: Board,
        level: Level,
        limits: &Limits,
        seed: u64,
        stop: Option<Arc<AtomicBool>>,
        observer: &mut dyn Observer,
    ) -> Move {
        let book = level.spec().book;
        self.choose_move_using(board, level, limits, book, seed, stop, observer)
    }

    /// [`Engine::choose_move_observed`] with the level's use of the book replaced by
    /// `book` (`virada match --book off`, or a tolerance of one's own).
    #[allow(clippy::too_many_arguments)]
    pub fn choose_move_using(
        &mut self,
        board: Board,
        level: Level,
        limits: &Limits,
        book: BookUse,
        seed: u64,
        stop: Option<Arc<AtomicBool>>,
        observer: &mut dyn Observer,
    ) -> Move {
        if board.moves() == 0 {
            return Move::Pass;
        }
        if let Some(mv) = self.book_move(board, book, seed) {
            return mv;
        }
        match level.spec().mistakes {
            None => {
                self.search_observed(board, limits, stop, observer)
                    .best_move
            }
            Some(m) => {
                // The beginner's own shallow view, never the book's.
                let a = analysis::analyze(board, limits, &self.setup(), stop.as_ref(), observer);
                pick_human_like(&board, &a, m, seed ^ board.hash())
            }
        }
    }
}

/// A beginner's choice: among moves losing at most `max_loss` discs against the best, draw
/// one with weight `exp(-loss / temperature) * naturalness`.
fn pick_human_like(board: &Board, a: &Analysis, m: Mistakes, seed: u64) -> Move {
    let Some(best) = a.best() else {
        return Move::Pass;
    };
    let mut weights = Vec::with_capacity(a.moves.len());
    for mv in &a.moves {
        let loss = best.value - mv.value;
        if loss > m.max_loss {
            continue;
        }
        let natural = mv
            .mv
            .square()
            .map_or(1.0, |sq| naturalness(board, sq.index()));
        weights.push((mv.mv, (-loss / m.temperature).exp() * natural));
    }
    let total: f32 = weights.iter().map(|w| w.1).sum();
    let mut x = (splitmix64(seed) >> 40) as f32 / (1u64 << 24) as f32 * total;
    for (mv, w) in &weights {
        if x < *w {
            return *mv;
        }
        x -= w;
    }
    best.mv
}

/// How attractive a move looks to someone who just learnt the rules: flipping many discs
/// feels good, edges look safe, a corner is obvious.
fn naturalness(board: &Board, sq: usize) -> f32 {
    let flips = board
        .flips(virada_rules::Square::from_index_unchecked(sq as u8))
        .count() as f32;
    let bit = 1u64 << sq;
    let mut w = 1.0 + 0.25 * flips;
    if bit & CORNERS != 0 {
        w *= 3.0;
    } else if bit & EDGES != 0 {
        w *= 1.3;
    }
    w
}
