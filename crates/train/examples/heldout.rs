//! Held-out errors of several evaluations side by side, on the held-out games of the gen3 fit
//! (same split as `virada train fit`, seed 1, one game in 20): per gen3 phase and per label
//! source.
//!
//! `cargo run --release -p virada-train --example heldout -- <selfplay chunks> <eval>...`
//!
//! `<selfplay chunks>` limits the self-play data set to its first chunks (the ones a fit saw:
//! the generator keeps adding chunks); an `<eval>` is a gen3 weights file or `default` (the
//! shipped weights). Data: `<cache>/gen3/selfplay-s1` and
//! `<cache>/gen3/wthor-theoretical`.
use std::sync::Arc;
use virada_engine::eval::gen3::patterns::{phase_of_empties, NUM_PHASES};
use virada_engine::Gen3Eval;
use virada_train::fit3::{self, source_name, FitConfig, Validation};
use virada_train::samples::Source;

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (limit, names) = args
        .split_first()
        .ok_or("usage: heldout <selfplay chunks> <eval>...")?;
    let limit: usize = limit.parse().map_err(|e| format!("{limit}: {e}"))?;
    let gen3 = virada_train::dataset::default_cache_dir().join("gen3");
    let sets = [gen3.join("selfplay-s1"), gen3.join("wthor-theoretical")];
    let mut chunks = fit3::chunk_list(&sets)?;
    let mut kept = 0;
    chunks.retain(|(set, _)| {
        kept += (*set == 0) as usize;
        *set != 0 || kept <= limit
    });
    let cfg = FitConfig::default();
    let mut results: Vec<(String, Validation)> = Vec::new();
    for n in names {
        let e: Arc<Gen3Eval> = if n == "default" {
            virada_engine::default_evaluator()
        } else {
            Arc::new(Gen3Eval::from_file(std::path::Path::new(n))?)
        };
        let v = fit3::validate_by(NUM_PHASES, &chunks, &cfg, |b| {
            (
                phase_of_empties(b.empty_count()),
                e.evaluate(b) as f64 / 100.0,
            )
        })?;
        results.push((e.name().to_string(), v));
    }
    let head: Vec<&str> = results.iter().map(|r| r.0.as_str()).collect();
    println!(
        "| phase | empties | positions | {} |",
        head.iter()
            .map(|h| format!("MAE {h}"))
            .collect::<Vec<_>>()
            .join(" | ")
    );
    println!("|---|---|---|{}", "---|".repeat(head.len()));
    for p in 0..NUM_PHASES {
        let n = results[0].1.phases[p].0;
        if n == 0 {
            continue;
        }
        let maes: Vec<String> = results
            .iter()
            .map(|r| format!("{:.2}", r.1.phases[p].1))
            .collect();
        println!(
            "| {p} | {}-{} | {n} | {} |",
            2 * p + 1,
            2 * p + 2,
            maes.join(" | ")
        );
    }
    let all: Vec<String> = results.iter().map(|r| format!("{:.2}", r.1.mae)).collect();
    println!("| all | | {} | {} |", results[0].1.records, all.join(" | "));
    println!();
    println!(
        "| label source | positions | {} |",
        head.iter()
            .map(|h| format!("MAE / RMSE {h}"))
            .collect::<Vec<_>>()
            .join(" | ")
    );
    println!("|---|---|{}", "---|".repeat(head.len()));
    for code in 0..fit3::SOURCES as u8 {
        let n = results[0].1.sources[code as usize].0;
        if n == 0 {
            continue;
        }
        let cells: Vec<String> = results
            .iter()
            .map(|r| {
                let (_, mae, mse) = r.1.sources[code as usize];
                format!("{mae:.2} / {:.2}", mse.sqrt())
            })
            .collect();
        let name = Source::from_code(code).map_or("?", source_name);
        println!("| {name} | {n} | {} |", cells.join(" | "));
    }
    Ok(())
}
