//! Where the tests find the shared reference data (`../shared/data/` beside the workspace, or
//! `$VIRADA_DATA`) and a PostgreSQL server (`$VIRADA_TEST_PG`, set by `scripts/pg-test.sh`),
//! and what they do without them.
//!
//! A test that needs the data or PostgreSQL asks for it here and returns early on `None`.
//! That is a skip, never a silent pass:
//! - with the `CI` environment variable set (to anything but `0` or `false`) a missing
//!   directory or file fails the test: CI always has the data;
//! - otherwise the test prints `SKIPPED <test>: ...` straight to the terminal (past the test
//!   harness's output capture) and, when `VIRADA_SKIP_LOG` names a file, appends one line to
//!   it; `scripts/test-all.sh` counts those lines in its closing summary.
//!
//! A dev-dependency only, with no dependencies of its own, so every crate can use it without
//! bending the layering.
#![forbid(unsafe_code)]

use std::io::Write;
use std::path::{Path, PathBuf};

/// The data directory: `$VIRADA_DATA`, else `<workspace>/../shared/data`. It may not exist.
pub fn root() -> PathBuf {
    match std::env::var_os("VIRADA_DATA") {
        Some(d) => PathBuf::from(d),
        // This crate is `<workspace>/crates/testdata`: the data sits beside the workspace.
        None => match Path::new(env!("CARGO_MANIFEST_DIR")).ancestors().nth(3) {
            Some(beside) => beside.join("shared/data"),
            None => PathBuf::from("../shared/data"),
        },
    }
}

/// The directory `sub` of the data directory (e.g. `"ffo"`), if it exists. Without it: fails
/// under CI, otherwise reports the skip and returns `None`.
pub fn dir(sub: &str) -> Option<PathBuf> {
    let path = root().join(sub);
    if path.is_dir() {
        Some(path)
    } else {
        missing(&path)
    }
}

/// The file `rel` of the data directory (e.g. `"wthor/WTH_2004.wtb"`), if it exists. Without
/// it: fails under CI, otherwise reports the skip and returns `None`.
pub fn file(rel: &str) -> Option<PathBuf> {
    let path = root().join(rel);
    if path.is_file() {
        Some(path)
    } else {
        missing(&path)
    }
}

/// Whether this is a CI run: `CI` is set and not `0`/`false` (the convention of CI services).
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "0" && !v.eq_ignore_ascii_case("false"))
}

/// The PostgreSQL server for tests that need one: `$VIRADA_TEST_PG`
/// (`postgres://user@host:port/dbname`). Without it: fails under CI, otherwise reports the
/// skip and returns `None`.
pub fn postgres_url() -> Option<String> {
    match std::env::var("VIRADA_TEST_PG") {
        Ok(url) if !url.is_empty() => Some(url),
        _ => {
            skip(
                "VIRADA_TEST_PG is unset (scripts/pg-test.sh starts a throwaway PostgreSQL and \
                 sets it; or set it to postgres://user@host:port/dbname)"
                    .into(),
            );
            None
        }
    }
}

fn missing(path: &Path) -> Option<PathBuf> {
    skip(format!(
        "reference data {} not found (put the data in ../shared/data beside the workspace or \
         set VIRADA_DATA)",
        path.display()
    ));
    None
}

/// Fails under CI; otherwise prints the skip and logs it for `scripts/test-all.sh`.
fn skip(what: String) {
    let test = test_name();
    assert!(
        !in_ci(),
        "{test}: {what}; CI is set, so tests that need it must not be skipped"
    );
    // Straight to the process's stderr: `eprintln!` inside a test is captured and shown only
    // for failures, and a skip must be visible.
    let _ = writeln!(std::io::stderr(), "SKIPPED {test}: {what}");
    if let Some(log) = std::env::var_os("VIRADA_SKIP_LOG") {
        if let Ok(mut f) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(log)
        {
            let _ = writeln!(f, "{test}");
        }
    }
}

/// `<test binary>::<test>`: the harness names each test's thread after the test.
fn test_name() -> String {
    let binary = std::env::current_exe()
        .ok()
        .and_then(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .map(|s| match s.rsplit_once('-') {
            // Cargo appends `-<hash>` to test binaries.
            Some((name, hash)) if hash.chars().all(|c| c.is_ascii_hexdigit()) => name.to_owned(),
            _ => s,
        })
        .unwrap_or_default();
    let thread = std::thread::current();
    match thread.name() {
        Some(t) if t != "main" => format!("{binary}::{t}"),
        _ => binary,
    }
}
