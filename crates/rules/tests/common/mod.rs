//! Helpers shared by the integration tests: where the reference data lives.
#![allow(dead_code)]

use std::path::PathBuf;

/// `<workspace root>/../shared/data`, or `$VIRADA_DATA`. `None` (with a printed reason) if the
/// directory or the named sub-directory is absent, so the calling test can return early.
pub fn data_dir(sub: &str) -> Option<PathBuf> {
    let base = match std::env::var_os("VIRADA_DATA") {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data"),
    };
    let dir = base.join(sub);
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!(
            "SKIPPED: reference data {} not found (set VIRADA_DATA)",
            dir.display()
        );
        None
    }
}

/// Files in `dir` whose name ends with `suffix`, sorted.
pub fn files_with_suffix(dir: &std::path::Path, suffix: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("readable data directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(suffix))
        .collect();
    v.sort();
    v
}
