//! The search keeps gen3's indices incrementally; a wrapper that hides the gen3 evaluation forces
//! the from-scratch path. Both must search the same tree (same moves, values, node counts).

use std::sync::Arc;
use virada_engine::eval::gen3::{weights::Gen3Weights, Gen3Eval};
use virada_engine::eval::pattern_eval::PatternEval;
use virada_engine::{Engine, EngineConfig, Evaluator, Limits, Selectivity};
use virada_rules::{Board, Position};

struct FromScratch(Gen3Eval);

impl Evaluator for FromScratch {
    fn name(&self) -> &str {
        self.0.name()
    }

    fn evaluate(&self, board: &Board) -> i32 {
        self.0.evaluate(board)
    }
}

fn engine(eval: Arc<dyn Evaluator>) -> Engine {
    Engine::new(EngineConfig {
        tt_mb: 8,
        threads: 1,
        evaluator: eval,
    })
}

/// Pseudo-random weights (no gen3 weights are shipped yet): enough structure for search to
/// differ between moves.
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

#[test]
fn incremental_and_from_scratch_gen3_searches_agree() {
    let gen3 = Gen3Eval::new(weights());
    let mut incremental = engine(Arc::new(gen3.clone()));
    let mut scratch = engine(Arc::new(FromScratch(gen3)));
    assert!(incremental.evaluator().as_gen3_eval().is_some());
    assert!(scratch.evaluator().as_gen3_eval().is_none());
    let positions = [
        "---------------------------OX------XO--------------------------- X",
        "----------O-------OXOO----OXXOO---XXXOOX----XXX-----X----------- X",
        "-----O----OOOO---OOOXOX-XOXXOOOO--XXXOOO--XXOOX----XXXX---X--X-- O",
        "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X",
    ];
    for s in positions {
        let b = s.parse::<Position>().expect("test position").board();
        for depth in [1, 4, 8] {
            let limits = Limits {
                depth: Some(depth),
                exact_empties: Some(0),
                ..Limits::default()
            };
            incremental.clear();
            scratch.clear();
            let a = incremental.search(b, &limits, None);
            let z = scratch.search(b, &limits, None);
            assert_eq!(
                (a.best_move, a.score, a.nodes, &a.pv),
                (z.best_move, z.score, z.nodes, &z.pv),
                "{s} depth {depth}"
            );
        }
    }
}

/// Nodes of depth-3 searches of `positions` (the root's children are depth-2 nodes) with
/// `selectivity`.
fn depth3_nodes(eval: Arc<dyn Evaluator>, positions: &[&str], selectivity: Selectivity) -> u64 {
    let mut e = engine(eval);
    let mut nodes = 0;
    for s in positions {
        e.clear();
        let b = s.parse::<Position>().expect("test position").board();
        let limits = Limits {
            depth: Some(3),
            exact_empties: Some(0),
            selectivity: Some(selectivity),
            ..Limits::default()
        };
        nodes += e.search(b, &limits, None).nodes;
    }
    nodes
}

/// The shipped gen3 Multi-ProbCut table has lines for depth 2 (predicted by the static
/// evaluation), the gen2 table starts at depth 3: a depth-3 search cuts nodes with gen3's
/// selectivity on and is the same tree as without it for gen2.
#[test]
fn only_gen3_cuts_depth_two_nodes() {
    let positions = [
        "---------------------------OX------XO--------------------------- X",
        "----------O-------OXOO----OXXOO---XXXOOX----XXX-----X----------- X",
        "-----O----OOOO---OOOXOX-XOXXOOOO--XXXOOO--XXOOX----XXXX---X--X-- O",
        "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X",
        "--O-----X-OOOO--XXOOOOXXXXXXOXXXXXXOXOX-XOXOOO--XXOOO----XXX---- O",
    ];
    let gen3: Arc<dyn Evaluator> = Arc::new(Gen3Eval::embedded().expect("shipped gen3"));
    let gen2: Arc<dyn Evaluator> = Arc::new(PatternEval::embedded().expect("shipped gen2"));
    let (g3_exact, g3_cut) = (
        depth3_nodes(gen3.clone(), &positions, Selectivity::EXACT),
        depth3_nodes(gen3, &positions, Selectivity::TIME_LIMITED),
    );
    assert!(
        g3_cut < g3_exact,
        "gen3: {g3_cut} nodes cut, {g3_exact} exact"
    );
    let (g2_exact, g2_cut) = (
        depth3_nodes(gen2.clone(), &positions, Selectivity::EXACT),
        depth3_nodes(gen2, &positions, Selectivity::TIME_LIMITED),
    );
    assert_eq!(g2_cut, g2_exact, "gen2 has no depth-2 lines");
}
