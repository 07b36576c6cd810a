//! Shallow searches on the ordering evaluation: the solver's move-ordering searches and its
//! Multi-ProbCut probes.
//!
//! The search carries the evaluation's pattern indices down the tree ([`IncrementalEval`],
//! copy-make): a node gets its parent's state and the move that leads to it, and applies the
//! move only when it needs the state (a leaf, or a node with children). The values are those
//! of evaluating every leaf from scratch (tested below).

use super::last::game_over_score;
use super::order::{fastest_first, weighted_mobility, MoveList};
use super::search::Searcher;
use crate::eval::incremental::IncrementalEval;
use virada_rules::movegen::legal_moves;
use virada_rules::{Board, Square};

/// The evaluation state of a node: its parent's state and the move (square, flips) leading
/// from the parent to the node, or the node's own state (`mv == None`).
#[derive(Clone, Copy)]
struct Lazy<'s, S> {
    base: &'s S,
    mv: Option<(u8, u64)>,
}

impl<S: Copy> Lazy<'_, S> {
    #[inline(always)]
    fn resolve<E: IncrementalEval<State = S> + ?Sized>(self, ev: &E) -> S {
        match self.mv {
            Some((sq, flips)) => ev.play(self.base, Square::from_index_unchecked(sq), flips),
            None => *self.base,
        }
    }
}

/// What each weighted reply left to the opponent costs a move in the ordering (hundredths of
/// a disc). Measured on FFO #45-#52 (1 thread, after the alpha floor): 50 -> 2,515 M nodes,
/// 100 -> 2,177 M, 200 -> 1,992 M, 300 -> 1,922 M (73.7 s against 83.0 s for 100), 450 ->
/// 1,999 M, 700 -> 2,300 M. #56 (2 threads): 1,110 M -> 1,094 M nodes.
const REPLY_WEIGHT: i32 = 300;

impl Searcher<'_> {
    /// Plain alpha-beta on the ordering evaluation, `depth` plies (for move ordering and
    /// Multi-ProbCut only; a pass uses a ply). Fail-soft; finished games score
    /// `100 * disc difference`.
    pub(crate) fn eval_search(
        &mut self,
        player: u64,
        opponent: u64,
        depth: u32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let eval = self.shared.eval;
        let state = eval.state(&Board::new(player, opponent));
        let at = Lazy {
            base: &state,
            mv: None,
        };
        self.eval_node(eval, player, opponent, at, depth, alpha, beta)
    }

    /// Values every move of `list` (moves of `player`) by a `depth`-ply [`Self::eval_search`]
    /// of its child, less [`REPLY_WEIGHT`] per weighted reply, plus a large bonus for `hint`;
    /// then sorts. Values at or below `floor` are only upper bounds (`-i32::MAX`: all exact).
    pub(crate) fn order_by_search(
        &mut self,
        list: &mut MoveList,
        player: u64,
        opponent: u64,
        depth: u32,
        hint: Option<u8>,
        floor: i32,
    ) {
        let eval = self.shared.eval;
        let state = eval.state(&Board::new(player, opponent));
        self.value_moves(eval, &state, list, player, opponent, depth, hint, floor);
        list.sort();
    }

    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn value_moves<E: IncrementalEval + ?Sized>(
        &mut self,
        ev: &E,
        state: &E::State,
        list: &mut MoveList,
        player: u64,
        opponent: u64,
        depth: u32,
        hint: Option<u8>,
        floor: i32,
    ) {
        for item in list.as_mut_slice() {
            let (cp, co) = item.child(player, opponent);
            let at = Lazy {
                base: state,
                mv: Some((item.sq, item.flips)),
            };
            let mut v = -self.eval_node(ev, cp, co, at, depth, -i32::MAX, -floor);
            // Fewer replies still matters for the solver's tree size: a move that leaves the
            // opponent few replies is cheaper to prove.
            v -= REPLY_WEIGHT * weighted_mobility(cp, co);
            if Some(item.sq) == hint {
                v += 1 << 24;
            }
            item.value = v;
        }
    }

    /// [`Self::eval_search`] of the node `(player, opponent)` whose state is `at`.
    #[allow(clippy::too_many_arguments)]
    fn eval_node<E: IncrementalEval + ?Sized>(
        &mut self,
        ev: &E,
        player: u64,
        opponent: u64,
        at: Lazy<'_, E::State>,
        depth: u32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        self.nodes += 1;
        if depth == 0 {
            let board = Board::new(player, opponent);
            return match at.mv {
                Some((sq, flips)) => {
                    ev.evaluate_after(&board, at.base, Square::from_index_unchecked(sq), flips)
                }
                None => ev.evaluate_with(&board, at.base),
            };
        }
        let moves = legal_moves(player, opponent);
        if moves == 0 {
            if legal_moves(opponent, player) == 0 {
                return 100 * game_over_score(player, opponent);
            }
            let passed = ev.pass(&at.resolve(ev));
            let at = Lazy {
                base: &passed,
                mv: None,
            };
            return -self.eval_node(ev, opponent, player, at, depth - 1, -beta, -alpha);
        }
        let state = at.resolve(ev);
        let mut list = MoveList::empty();
        list.fill(player, opponent, moves);
        if depth > 1 {
            fastest_first(&mut list, player, opponent, None);
        }
        let mut best = -i32::MAX;
        let mut alpha = alpha;
        for item in list.as_slice() {
            let (cp, co) = item.child(player, opponent);
            let v = if depth == 1 {
                // The leaves right here, without a call each (what `eval_node` does at
                // depth 0).
                self.nodes += 1;
                let board = Board::new(cp, co);
                -ev.evaluate_after(
                    &board,
                    &state,
                    Square::from_index_unchecked(item.sq),
                    item.flips,
                )
            } else {
                let child = Lazy {
                    base: &state,
                    mv: Some((item.sq, item.flips)),
                };
                -self.eval_node(ev, cp, co, child, depth - 1, -beta, -alpha)
            };
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::endgame::search::Pool;
    use crate::endgame::search::Shared;
    use crate::eval::gen3::weights::Gen3Weights;
    use crate::eval::Gen3Eval;
    use crate::tt::TranspositionTable;
    use std::sync::atomic::{AtomicBool, AtomicU64};

    /// The from-scratch reference: every leaf calls `Gen3Eval::evaluate`.
    fn reference(eval: &Gen3Eval, p: u64, o: u64, depth: u32, alpha: i32, beta: i32) -> i32 {
        if depth == 0 {
            return eval.evaluate(&Board::new(p, o));
        }
        let moves = legal_moves(p, o);
        if moves == 0 {
            if legal_moves(o, p) == 0 {
                return 100 * game_over_score(p, o);
            }
            return -reference(eval, o, p, depth - 1, -beta, -alpha);
        }
        let mut list = MoveList::new(p, o, moves);
        if depth > 1 {
            fastest_first(&mut list, p, o, None);
        }
        let (mut best, mut alpha) = (-i32::MAX, alpha);
        for item in list.as_slice() {
            let (cp, co) = item.child(p, o);
            let v = -reference(eval, cp, co, depth - 1, -beta, -alpha);
            if v > best {
                best = v;
                alpha = alpha.max(v);
                if v >= beta {
                    break;
                }
            }
        }
        best
    }

    /// Random positions reached by random play, `empties` squares left (passes included).
    fn random_positions(seed: u64, count: usize) -> Vec<Board> {
        let mut s = seed;
        let mut next = move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        let mut out = Vec::new();
        while out.len() < count {
            let stop_at = 8 + next() % 40;
            let mut b = Board::start();
            while !b.is_game_over() && u64::from(b.empty_count()) > stop_at {
                let m = b.moves();
                if m == 0 {
                    b = b.pass();
                    continue;
                }
                let mut pick = m;
                for _ in 0..next() % u64::from(m.count_ones()) {
                    pick &= pick - 1;
                }
                b = b.play_unchecked(Square::lowest_of(pick));
            }
            if !b.is_game_over() {
                out.push(b);
            }
        }
        out
    }

    fn check(eval: &Gen3Eval, positions: &[Board]) {
        let tt = TranspositionTable::new(1);
        let shared = Shared {
            tt: &tt,
            eval,
            stop: AtomicBool::new(false),
            external_stop: None,
            clock: crate::time::Stopwatch::start(crate::time::TimeSource::System),
            deadline: None,
            node_limit: None,
            nodes: AtomicU64::new(0),
            pool: Pool::new(1),
        };
        let mut s = Searcher::new(&shared);
        let (mut full_nodes, mut floor_nodes) = (0, 0);
        for b in positions {
            let (p, o) = (b.player, b.opponent);
            for depth in 0..=4 {
                for (alpha, beta) in [(-i32::MAX, i32::MAX), (-150, -149), (99, 100)] {
                    let want = reference(eval, p, o, depth, alpha, beta);
                    let got = s.eval_search(p, o, depth, alpha, beta);
                    assert_eq!(got, want, "{b:?} depth {depth} window {alpha},{beta}");
                }
            }
            // Move ordering: same values as one search per child.
            let moves = legal_moves(p, o);
            if moves.count_ones() >= 2 {
                let mut list = MoveList::new(p, o, moves);
                let hint = Some(list.as_slice()[1].sq);
                let before = s.nodes;
                s.order_by_search(&mut list, p, o, 2, hint, -i32::MAX);
                full_nodes += s.nodes - before;
                for item in list.as_slice() {
                    let (cp, co) = item.child(p, o);
                    let mut want = -reference(eval, cp, co, 2, -i32::MAX, i32::MAX)
                        - REPLY_WEIGHT * weighted_mobility(cp, co);
                    if Some(item.sq) == hint {
                        want += 1 << 24;
                    }
                    assert_eq!(item.value, want, "{b:?} move {}", item.sq);
                }
                let values: Vec<i32> = list.as_slice().iter().map(|m| m.value).collect();
                assert!(values.windows(2).all(|w| w[0] >= w[1]), "{values:?}");
                // With a floor: exact above it, an upper bound at or below it.
                // (The hint changes values, not the searches: the full-window count above
                // compares.)
                let floor = 50;
                let before = s.nodes;
                let mut list = MoveList::new(p, o, moves);
                s.order_by_search(&mut list, p, o, 2, None, floor);
                floor_nodes += s.nodes - before;
                for item in list.as_slice() {
                    let (cp, co) = item.child(p, o);
                    let exact = -reference(eval, cp, co, 2, -i32::MAX, i32::MAX);
                    let got = item.value + REPLY_WEIGHT * weighted_mobility(cp, co);
                    if exact > floor {
                        assert_eq!(got, exact, "{b:?} move {} above the floor", item.sq);
                    } else {
                        assert!(
                            exact <= got && got <= floor,
                            "{b:?} move {}: {got}",
                            item.sq
                        );
                    }
                }
            }
        }
        // The floor is there to save work.
        assert!(floor_nodes < full_nodes, "{floor_nodes} vs {full_nodes}");
    }

    #[test]
    fn incremental_values_equal_from_scratch() {
        let mut w = Gen3Weights::zeros("gen3-test", 100);
        let mut x = 7u64;
        for v in w.weights.iter_mut() {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            *v = (x >> 55) as i16 - 256;
        }
        check(
            &Gen3Eval::new(w),
            &random_positions(0x5A5A_1234_0F0F_9876, 30),
        );
    }

    #[test]
    fn shipped_evaluation_values_equal_from_scratch() {
        let eval = crate::eval::default_evaluator();
        check(&eval, &random_positions(0x1234_5678_9ABC_DEF1, 60));
    }
}
