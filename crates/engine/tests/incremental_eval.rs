//! The search keeps the trained evaluation's pattern indices incrementally; a wrapper that hides
//! the pattern evaluation forces the from-scratch path. Both must search the same tree.

use std::sync::Arc;
use virada_engine::eval::pattern_eval::PatternEval;
use virada_engine::{Engine, EngineConfig, Evaluator, Limits};
use virada_rules::{Board, Position};

/// The pattern evaluation behind the plain `Evaluator` interface (same name, so the same
/// Multi-ProbCut table): the search cannot see it is a pattern evaluation.
struct FromScratch(PatternEval);

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

#[test]
fn incremental_and_from_scratch_searches_agree() {
    let pattern = PatternEval::embedded().expect("shipped weights");
    let mut incremental = engine(Arc::new(pattern.clone()));
    let mut scratch = engine(Arc::new(FromScratch(pattern)));
    assert!(incremental.evaluator().as_pattern_eval().is_some());
    assert!(scratch.evaluator().as_pattern_eval().is_none());
    let positions = [
        "---------------------------OX------XO--------------------------- X",
        "-------------------OX-----OXXX----OOOX-----XO------------------- O",
        "----------O-------OXOO----OXXOO---XXXOOX----XXX-----X----------- X",
        "-----O----OOOO---OOOXOX-XOXXOOOO--XXXOOO--XXOOX----XXXX---X--X-- O",
        // Few moves and passes near the end of the game.
        "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X",
    ];
    for s in positions {
        let b = s.parse::<Position>().expect("test position").board();
        for depth in [1, 4, 9] {
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
