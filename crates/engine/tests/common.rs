//! Helpers shared by the engine's integration tests.

use std::path::PathBuf;

/// The shared data directory (`VIRADA_DATA` or `<workspace>/../shared/data`), if present.
pub fn data_dir() -> Option<PathBuf> {
    let dir = match std::env::var_os("VIRADA_DATA") {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data"),
    };
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!(
            "skipping: no test data at {} (set VIRADA_DATA)",
            dir.display()
        );
        None
    }
}
