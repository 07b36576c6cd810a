//! Which label is closer to the exact value below the theoretical depth: the game's final
//! result or its theoretical score at 24 empties?
use virada_engine::{Engine, EngineConfig, Limits};
use virada_rules::Color;
fn main() {
    let db = virada_train::wthor::load(std::path::Path::new("../shared/data/wthor")).unwrap();
    let mut engine = Engine::new(EngineConfig {
        tt_mb: 16,
        threads: 1,
        ..EngineConfig::default()
    });
    for (e, n) in [(10u32, 200usize), (14, 100), (16, 40), (18, 20)] {
        let (mut er, mut et, mut k) = (0.0, 0.0, 0);
        for (i, (g, _)) in db.games.iter().enumerate().step_by(997) {
            if k == n {
                break;
            }
            let Ok(played) = g.replay() else { continue };
            let Some(res) = played.position().result() else {
                continue;
            };
            let fin = res.difference_for(Color::Black);
            let theo = 2 * g.theoretical_score as i32 - 64;
            let Some(p) = played
                .positions()
                .iter()
                .find(|p| p.board().empty_count() == e && p.board().moves() != 0)
            else {
                continue;
            };
            let s = if p.side_to_move() == Color::Black {
                1
            } else {
                -1
            };
            let r = engine.search(
                p.board(),
                &Limits {
                    depth: Some(60),
                    exact_empties: Some(e),
                    ..Limits::default()
                },
                None,
            );
            er += (r.score - (s * fin) as f32).abs();
            et += (r.score - (s * theo) as f32).abs();
            k += 1;
            let _ = i;
        }
        println!(
            "{e} empties, {k} positions: MAE final result {:.2}, theoretical@24 {:.2}",
            er / k as f32,
            et / k as f32
        );
    }
}
