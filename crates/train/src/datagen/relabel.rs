//! Relabelling a data set by search (label kind (b) on positions other games reached): every
//! position of a source data set with at least [`RelabelConfig::min_empties`] empties gets the
//! value of a fixed-depth search with the evaluation given (the previous generation), from a
//! cleared table, so a label depends only on the position, the depth and the evaluation.
//!
//! Why: the WTHOR theoretical score of a position far from 24 empties is the result of the
//! human play that followed it, a noisy label (held-out MAE about 9 discs); a depth-8 search of
//! the previous generation is a better one for the midgame, and the WTHOR games cover openings
//! and middle games that self-play does not reach.
//!
//! Output records keep the source's game numbers; WTHOR positions become
//! [`Source::WthorSearch`], which the fitter holds out by the same WTHOR game split as the
//! theoretical labels, so the two sets never put a held-out game into training.
//!
//! Resumable: the selected positions are cut, in source order, into parts of
//! [`RelabelConfig::part_records`]; part `k` is chunk `k` of the output, written atomically.
//! A run stopped at any point continues at the first missing part and gives the same files as
//! an uninterrupted run, for any thread count. `state.txt` holds the settings; a run with
//! other settings refuses the directory.

use super::game::{LabelStats, Worker};
use super::GenConfig;
use crate::dataset::{self, Record};
use crate::progress::format_duration;
use crate::samples::Source;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;
use virada_engine::Gen3Eval;

/// Settings of a relabelling run. Every field but `threads` shapes the output.
#[derive(Clone, Debug, PartialEq)]
pub struct RelabelConfig {
    /// Depth of the searches.
    pub depth: u32,
    /// Positions with fewer empties are left out.
    pub min_empties: u32,
    /// Records per output chunk (the unit of resumption).
    pub part_records: usize,
    pub threads: usize,
}

impl Default for RelabelConfig {
    fn default() -> Self {
        RelabelConfig {
            depth: 8,
            min_empties: 21,
            part_records: 20_000,
            threads: 2,
        }
    }
}

/// What a run did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RelabelTotals {
    /// Parts (output chunks) of the whole data set.
    pub parts: u64,
    /// Parts labelled by this run (the others were there already).
    pub labelled_parts: u64,
    /// Records of the whole output.
    pub records: u64,
    /// Searches of this run and their thread time.
    pub stats: LabelStats,
}

/// Relabels the data set in `from` into `out` (see the module documentation), stopping after
/// `max_parts` newly labelled parts if given.
pub fn run(
    cfg: &RelabelConfig,
    from: &Path,
    out: &Path,
    eval: Arc<Gen3Eval>,
    max_parts: Option<u64>,
) -> Result<RelabelTotals, String> {
    if cfg.part_records == 0 {
        return Err("relabel: part size must be at least 1 record".into());
    }
    let mut selected: Vec<Record> = Vec::new();
    let chunks = dataset::list_chunks(from)?;
    if chunks.is_empty() {
        return Err(format!("{}: no data chunks to relabel", from.display()));
    }
    dataset::for_each_record(&chunks, |r| {
        if r.board.empty_count() >= cfg.min_empties {
            selected.push(*r);
        }
    })?;
    let tag = format!(
        "relabel dataset={} from={} selected={} depth={} min-empties={} part={} eval={}",
        dataset::VERSION,
        from.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
        selected.len(),
        cfg.depth,
        cfg.min_empties,
        cfg.part_records,
        eval.name()
    );
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let state = out.join("state.txt");
    match std::fs::read_to_string(&state) {
        Ok(text) if text.lines().next() != Some(tag.as_str()) => {
            return Err(format!(
                "{}: made with other settings ({}); this run: {tag}. Use another --out.",
                out.display(),
                text.lines().next().unwrap_or("")
            ))
        }
        Ok(_) => {}
        Err(_) => dataset::write_atomic(&state, format!("{tag}\n").as_bytes())
            .map_err(|e| format!("{}: {e}", state.display()))?,
    }

    let parts: Vec<&[Record]> = selected.chunks(cfg.part_records).collect();
    let mut totals = RelabelTotals {
        parts: parts.len() as u64,
        records: selected.len() as u64,
        ..RelabelTotals::default()
    };
    let gen_cfg = GenConfig {
        solve_table_mib: 1,
        ..GenConfig::default()
    };
    let threads = cfg.threads.max(1);
    let mut workers: Vec<Worker> = (0..threads)
        .map(|_| Worker::new(eval.clone(), &gen_cfg))
        .collect();
    let started = Instant::now();
    for (k, part) in parts.iter().enumerate() {
        let path = dataset::chunk_path(out, k as u64);
        if let Ok(done) = dataset::read_chunk(&path) {
            if done.len() == part.len() {
                continue;
            }
        }
        if max_parts.is_some_and(|m| totals.labelled_parts >= m) {
            break;
        }
        let t0 = Instant::now();
        let mut labelled = part.to_vec();
        let stats = label_part(&mut workers, &mut labelled, cfg.depth);
        dataset::write_atomic(&path, &dataset::encode(&labelled))
            .map_err(|e| format!("{}: {e}", path.display()))?;
        totals.labelled_parts += 1;
        totals.stats.add(&stats);
        let left = parts.len() - k - 1;
        let per_part = started.elapsed() / totals.labelled_parts as u32;
        eprintln!(
            "part {k}/{}: {} positions, {:.1} s | this run {} parts, {:.0} positions/h wall, \
             ETA {}",
            parts.len(),
            part.len(),
            t0.elapsed().as_secs_f64(),
            totals.labelled_parts,
            totals.stats.search as f64 / started.elapsed().as_secs_f64().max(1e-9) * 3600.0,
            format_duration(per_part * left as u32)
        );
    }
    Ok(totals)
}

/// Labels `records` in place: record `i` by worker `i % threads` (labels do not depend on the
/// worker, so neither does the output).
fn label_part(workers: &mut [Worker], records: &mut [Record], depth: u32) -> LabelStats {
    let threads = workers.len();
    let results: Vec<Vec<(usize, Record)>> = std::thread::scope(|s| {
        let handles: Vec<_> = workers
            .iter_mut()
            .enumerate()
            .map(|(t, w)| {
                let records = &*records;
                s.spawn(move || {
                    let mut out = Vec::new();
                    for i in (t..records.len()).step_by(threads) {
                        out.push((i, relabelled(w, &records[i], depth)));
                    }
                    out
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("relabel worker panicked"))
            .collect()
    });
    let mut stats = LabelStats::default();
    for (i, r) in results.into_iter().flatten() {
        records[i] = r;
        stats.search += 1;
    }
    stats.search_time = workers.iter_mut().map(|w| w.take_search_time()).sum();
    stats
}

fn relabelled(w: &mut Worker, r: &Record, depth: u32) -> Record {
    let (label, _) = w.search_timed(r.board, depth);
    Record {
        label,
        source: match r.source {
            Source::WthorTheoretical | Source::WthorResult | Source::WthorSearch => {
                Source::WthorSearch
            }
            _ => Source::Search,
        },
        depth: depth as u8,
        ..*r
    }
}
