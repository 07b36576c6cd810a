//! The search keeps gen3's indices incrementally; a wrapper that hides the gen3 evaluation forces
//! the from-scratch path. Both must search the same tree (same moves, values, node counts).

use std::sync::Arc;
use virada_engine::eval::gen3::{weights::Gen3Weights, Gen3Eval};
use virada_engine::{Engine, EngineConfig, Evaluator, Limits};
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
