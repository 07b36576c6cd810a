//! Cost of one gen3 evaluation, from scratch and with incremental indices.
//!
//! `cargo run --release -p virada-train --example eval_cost [rounds] [name]` prints nanoseconds per
//! evaluation (meaningful only on a quiet machine). Under
//! `valgrind --tool=callgrind --toggle-collect='*bench_*' ... eval_cost 1 'gen3 incremental'`
//! the collected instruction count divided by the printed evaluation count gives instructions
//! per evaluation, which does not depend on the machine's load.
//!
//! Positions: every position of 200 random games (seeded). Incremental: the state follows each
//! game move by move and every position is evaluated from its state (update + evaluation), as
//! the search does along its lines.

use std::hint::black_box;
use std::time::Instant;
use virada_engine::eval::gen3::{weights::Gen3Weights, Gen3Eval};
use virada_engine::eval::incremental::IncrementalEval;
use virada_rules::{Board, Square};

/// The games: (board before the move, move, flips) lines; `None` = pass.
type Line = Vec<(Board, Option<(Square, u64)>)>;

fn games(n: usize) -> Vec<Line> {
    let mut s = 0x9E37_79B9_7F4A_7C15u64;
    (0..n)
        .map(|_| {
            let mut b = Board::start();
            let mut line = Vec::new();
            while !b.is_game_over() {
                let m = b.moves();
                if m == 0 {
                    line.push((b, None));
                    b = b.pass();
                    continue;
                }
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                let mut pick = m;
                for _ in 0..(s % m.count_ones() as u64) {
                    pick &= pick - 1;
                }
                let sq = Square::lowest_of(pick);
                let flips = b.flips(sq).0;
                line.push((b, Some((sq, flips))));
                b = b.play_unchecked(sq);
            }
            line
        })
        .collect()
}

#[inline(never)]
fn bench_scratch(eval: &Gen3Eval, lines: &[Line], rounds: usize) -> i64 {
    let mut sum = 0i64;
    for _ in 0..rounds {
        for line in lines {
            for (b, _) in line {
                sum += eval.evaluate(black_box(b)) as i64;
            }
        }
    }
    sum
}

#[inline(never)]
fn bench_incremental<E: IncrementalEval>(eval: &E, lines: &[Line], rounds: usize) -> i64 {
    let mut sum = 0i64;
    for _ in 0..rounds {
        for line in lines {
            let mut st = eval.state(&line[0].0);
            for (b, mv) in line {
                sum += eval.evaluate_with(black_box(b), &st) as i64;
                st = match mv {
                    Some((sq, flips)) => eval.play(&st, *sq, *flips),
                    None => eval.pass(&st),
                };
            }
        }
    }
    sum
}

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(20);
    let lines = games(200);
    let positions: usize = lines.iter().map(|l| l.len()).sum();
    // Random gen3 weights: the cost does not depend on the values, but untouched zero pages
    // would all map to one physical page and flatter the cache.
    let mut w = Gen3Weights::zeros("gen3-cost", 100);
    let mut s = 1u64;
    for x in w.weights.iter_mut() {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        *x = (s >> 48) as i16 % 200;
    }
    let gen3 = Gen3Eval::new(w);
    let n = (positions * rounds) as f64;
    println!("{positions} positions x {rounds} rounds = {n} evaluations per measurement");
    // An optional second argument keeps only the measurements whose name contains it (one
    // measurement per callgrind run).
    let only = std::env::args().nth(2).unwrap_or_default();
    let t = |name: &str, f: &dyn Fn() -> i64| {
        if !name.contains(only.as_str()) {
            return;
        }
        let start = Instant::now();
        let v = f();
        println!(
            "{name:<20} {:7.1} ns/eval (checksum {v})",
            start.elapsed().as_nanos() as f64 / n
        );
    };
    t("gen3 from scratch", &|| {
        bench_scratch(&gen3, &lines, rounds)
    });
    t("gen3 incremental", &|| {
        bench_incremental(&gen3, &lines, rounds)
    });
}
