use std::time::Instant;
use virada_engine::eval::pattern_eval::PatternEval;
use virada_engine::eval::pattern_weights::PatternWeights;
use virada_engine::eval::{EvalV1, Evaluator};
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let w = PatternWeights::from_bytes(&std::fs::read(path).unwrap()).unwrap();
    let p = PatternEval::new(w);
    let v1 = EvalV1::new();
    let s =
        virada_train::samples::read_file(std::path::Path::new("target/training/wthor-test.vsp"))
            .unwrap();
    for (n, e) in [("pattern", &p as &dyn Evaluator), ("v1", &v1)] {
        let t = Instant::now();
        let mut acc = 0i64;
        for _ in 0..5 {
            for x in &s {
                acc += e.evaluate(&x.board) as i64;
            }
        }
        let ns = t.elapsed().as_nanos() as f64 / (5 * s.len()) as f64;
        println!("{n}: {ns:.1} ns/eval ({acc})");
    }
    let t = Instant::now();
    let mut acc = 0u64;
    for _ in 0..5 {
        for x in &s {
            let f = virada_engine::eval::pattern::features(&x.board);
            acc += f.iter().map(|&v| v as u64).sum::<u64>();
        }
    }
    println!(
        "features only: {:.1} ns ({acc})",
        t.elapsed().as_nanos() as f64 / (5 * s.len()) as f64
    );
}
#[allow(dead_code)]
fn unused() {}
