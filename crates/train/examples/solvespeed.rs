use std::time::Instant;
use virada_engine::{Engine, EngineConfig, Limits};
fn main() {
    let s =
        virada_train::samples::read_file(std::path::Path::new("target/training/wthor-test.vsp"))
            .unwrap();
    let mut engine = Engine::new(EngineConfig {
        tt_mb: 16,
        threads: 1,
        ..EngineConfig::default()
    });
    for e in [1u32, 2, 4, 8] {
        let set: Vec<_> = s
            .iter()
            .filter(|x| x.board.empty_count() == e)
            .take(5)
            .collect();
        let t = Instant::now();
        let mut nodes = 0;
        let mut err = 0.0;
        for x in &set {
            let r = engine.search(
                x.board,
                &Limits {
                    depth: Some(60),
                    exact_empties: Some(e),
                    ..Limits::default()
                },
                None,
            );
            assert!(r.exact);
            nodes += r.nodes;
            err += (r.score - x.label as f32).abs();
            eprintln!("{e}: {} nodes {:?}", r.nodes, r.elapsed);
        }
        println!(
            "{e} empties: {:.2} ms/pos, {} nodes/pos, mean |exact - game result| {:.2}",
            t.elapsed().as_secs_f64() * 1000.0 / set.len() as f64,
            nodes / set.len() as u64,
            err / set.len() as f32
        );
    }
}
