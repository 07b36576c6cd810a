//! The midgame search on the gen3 evaluation: without selectivity its value is the plain
//! negamax value over `Gen3Eval::evaluate` (the incremental indices change speed, never
//! values), and its selective cuts come from the evaluation's own Multi-ProbCut table.

use std::sync::Arc;
use virada_engine::eval::gen3::{weights::Gen3Weights, Gen3Eval};
use virada_engine::eval::{final_value, SCALE};
use virada_engine::{Engine, EngineConfig, Limits, Selectivity};
use virada_rules::{Board, Position};

fn engine(eval: Arc<Gen3Eval>) -> Engine {
    Engine::new(EngineConfig {
        tt_mb: 8,
        threads: 1,
        evaluator: eval,
    })
}

/// Pseudo-random weights: enough structure for search to differ between moves.
fn weights() -> Gen3Weights {
    let mut w = Gen3Weights::zeros("gen3-test", 100);
    let mut s = 42u64;
    for x in w.weights.iter_mut() {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        *x = (s % 401) as i16 - 200;
    }
    w
}

/// Plain negamax over `evaluate`, as the midgame search counts depth: a pass uses no ply and a
/// finished game scores exactly.
fn negamax(eval: &Gen3Eval, board: &Board, depth: u32) -> i32 {
    let moves = board.legal_moves();
    if moves.is_empty() {
        let passed = board.pass();
        if passed.legal_moves().is_empty() {
            return final_value(board);
        }
        return -negamax(eval, &passed, depth);
    }
    if depth == 0 {
        return eval.evaluate(board);
    }
    moves
        .iter()
        .map(|sq| -negamax(eval, &board.play_unchecked(sq), depth - 1))
        .max()
        .expect("a legal move")
}

#[test]
fn search_without_selectivity_gives_the_negamax_value() {
    let gen3 = Arc::new(Gen3Eval::new(weights()));
    let mut e = engine(gen3.clone());
    let positions = [
        "---------------------------OX------XO--------------------------- X",
        "----------O-------OXOO----OXXOO---XXXOOX----XXX-----X----------- X",
        "-----O----OOOO---OOOXOX-XOXXOOOO--XXXOOO--XXOOX----XXXX---X--X-- O",
        "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X",
    ];
    for s in positions {
        let b = s.parse::<Position>().expect("test position").board();
        for depth in [1, 2, 4] {
            let limits = Limits::midgame(depth, Selectivity::EXACT);
            e.clear();
            let r = e.search(b, &limits, None);
            let want = negamax(&gen3, &b, depth);
            assert_eq!(
                (r.score * SCALE as f32).round() as i32,
                want,
                "{s} depth {depth}"
            );
            assert!(b
                .legal_moves()
                .contains(r.best_move.square().expect("a move")));
        }
    }
}

/// Nodes of depth-3 searches of `positions` (the root's children are depth-2 nodes) with
/// `selectivity`.
fn depth3_nodes(eval: Arc<Gen3Eval>, positions: &[&str], selectivity: Selectivity) -> u64 {
    let mut e = engine(eval);
    let mut nodes = 0;
    for s in positions {
        e.clear();
        let b = s.parse::<Position>().expect("test position").board();
        let limits = Limits::midgame(3, selectivity);
        nodes += e.search(b, &limits, None).nodes;
    }
    nodes
}

/// The shipped gen3 Multi-ProbCut table has lines for depth 2 (predicted by the static
/// evaluation): a depth-3 search cuts nodes with selectivity on. The same weights with an
/// empty table search the same tree as without selectivity: the cuts are the evaluation's.
#[test]
fn the_evaluations_own_table_decides_the_cuts() {
    let positions = [
        "---------------------------OX------XO--------------------------- X",
        "----------O-------OXOO----OXXOO---XXXOOX----XXX-----X----------- X",
        "-----O----OOOO---OOOXOX-XOXXOOOO--XXXOOO--XXOOX----XXXX---X--X-- O",
        "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X",
        "--O-----X-OOOO--XXOOOOXXXXXXOXXXXXXOXOX-XOXOOO--XXOOO----XXX---- O",
    ];
    let gen3 = Arc::new(Gen3Eval::embedded().expect("shipped gen3"));
    let (exact, cut) = (
        depth3_nodes(gen3.clone(), &positions, Selectivity::EXACT),
        depth3_nodes(gen3.clone(), &positions, Selectivity::TIME_LIMITED),
    );
    assert!(cut < exact, "gen3: {cut} nodes cut, {exact} exact");
    let uncut = Arc::new(Gen3Eval::with_mpc_table(gen3.weights(), &[]));
    assert_eq!(
        depth3_nodes(uncut, &positions, Selectivity::TIME_LIMITED),
        exact,
        "no table, no cuts"
    );
}
