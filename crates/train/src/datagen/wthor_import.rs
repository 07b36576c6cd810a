//! WTHOR theoretical scores as a data set (label kind (c)): every position of a WTHOR game with
//! at least [`wthor::THEORETICAL_MIN_EMPTIES`] empties, labelled with the game's theoretical
//! score (perfect play from the 24-empty position the game reached), one record per canonical
//! position: positions that several games reach get the mean of their games' scores (the
//! early positions of popular openings appear in thousands of games).

use crate::dataset::{self, Record};
use crate::samples::Source;
use crate::wthor;
use std::collections::HashMap;
use std::path::Path;

use super::game::canonical_key;

/// Records per chunk file of the imported set.
pub const CHUNK_RECORDS: usize = 200_000;

/// Builds the data set in `out` from the WTHOR files of `wthor_dir` (nothing to do if it is
/// already complete). Returns the number of records.
pub fn import(wthor_dir: &Path, out: &Path) -> Result<u64, String> {
    let db = wthor::load(wthor_dir)?;
    let tag = format!(
        "wthor-theoretical dataset={} files={} games={} min-empties={}",
        dataset::VERSION,
        db.files.len(),
        db.games.len(),
        wthor::THEORETICAL_MIN_EMPTIES
    );
    let state = out.join("state.txt");
    if let Ok(text) = std::fs::read_to_string(&state) {
        if let Some(n) = text
            .strip_prefix(&format!("{tag}\nrecords "))
            .and_then(|r| r.trim().parse::<u64>().ok())
        {
            eprintln!("{}: already imported ({n} positions)", out.display());
            return Ok(n);
        }
    }
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    for old in dataset::list_chunks(out)? {
        std::fs::remove_file(&old).map_err(|e| format!("{}: {e}", old.display()))?;
    }
    // canonical key -> (index in `records`, sum of labels, count)
    let mut index: HashMap<u64, (usize, i64, i64)> = HashMap::new();
    let mut records: Vec<Record> = Vec::new();
    let mut bad = 0u64;
    for (g, (game, depth)) in db.games.iter().enumerate() {
        let Some(samples) = wthor::game_samples(game, *depth) else {
            bad += 1;
            continue;
        };
        for s in samples {
            if s.source != Source::WthorTheoretical {
                continue;
            }
            let label = s.label as i64 * 100;
            let e = index.entry(canonical_key(&s.board)).or_insert_with(|| {
                records.push(Record {
                    board: s.board,
                    label: 0,
                    source: Source::WthorTheoretical,
                    depth: *depth,
                    game: g as u32,
                });
                (records.len() - 1, 0, 0)
            });
            e.1 += label;
            e.2 += 1;
        }
    }
    for (i, sum, count) in index.into_values() {
        records[i].label = (sum as f64 / count as f64).round() as i16;
    }
    for (k, part) in records.chunks(CHUNK_RECORDS).enumerate() {
        let path = dataset::chunk_path(out, k as u64);
        dataset::write_atomic(&path, &dataset::encode(part))
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    dataset::write_atomic(
        &state,
        format!("{tag}\nrecords {}\n", records.len()).as_bytes(),
    )
    .map_err(|e| format!("{}: {e}", state.display()))?;
    eprintln!(
        "{}: {} positions from {} games ({bad} do not replay)",
        out.display(),
        records.len(),
        db.games.len()
    );
    Ok(records.len() as u64)
}
