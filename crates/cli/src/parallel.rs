//! Batch work over many positions for the command-line tools (`openings generate`,
//! `bench mpc-fit`): a shared queue drained by worker threads, each owning its own
//! single-threaded [`Engine`] (so tables are not shared and results are reproducible).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use virada_engine::{Engine, EngineConfig, Gen3Eval};

/// Applies `work` to every item on `threads` worker threads, each with its own one-thread
/// engine (32 MiB tables) using `evaluator`. `progress(done, total)` is called after each item.
/// The results keep the order of `items`.
pub fn map_with_engines<T, R, F>(
    items: &[T],
    threads: usize,
    evaluator: &Arc<Gen3Eval>,
    progress: &(dyn Fn(usize, usize) + Sync),
    work: F,
) -> Vec<R>
where
    T: Sync,
    R: Send,
    F: Fn(&mut Engine, &T) -> R + Sync,
{
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let out: Mutex<Vec<Option<R>>> = Mutex::new((0..items.len()).map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| {
                let mut engine = Engine::new(EngineConfig {
                    tt_mb: 32,
                    threads: 1,
                    evaluator: evaluator.clone(),
                });
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= items.len() {
                        break;
                    }
                    let r = work(&mut engine, &items[i]);
                    out.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(r);
                    progress(done.fetch_add(1, Ordering::Relaxed) + 1, items.len());
                }
            });
        }
    });
    out.into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .map(|r| r.expect("every item is processed"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use virada_engine::{default_evaluator, Limits};
    use virada_rules::Board;

    #[test]
    fn results_keep_input_order_and_match_a_sequential_run() {
        let mut boards = vec![Board::start()];
        for _ in 0..5 {
            let b = *boards.last().unwrap();
            let sq = b.legal_moves().first().unwrap();
            boards.push(b.play_unchecked(sq));
        }
        let eval = default_evaluator();
        let search = |engine: &mut Engine, b: &Board| {
            engine.clear();
            engine.search(*b, &Limits::depth(3), None).score
        };
        let parallel = map_with_engines(&boards, 2, &eval, &|_, _| {}, search);
        let sequential = map_with_engines(&boards, 1, &eval, &|_, _| {}, search);
        assert_eq!(parallel.len(), boards.len());
        assert_eq!(parallel, sequential);
    }
}
