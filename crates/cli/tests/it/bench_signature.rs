//! The search's node-count signature: `virada bench search` (the same binary and code path a
//! user runs) at depths 8 and 12, pinned to the exact counts.
//!
//! One thread searches deterministically, so any change to these numbers is a change of the
//! search's behaviour (move ordering, pruning, Multi-ProbCut, evaluation, table). Such a change
//! must be deliberate: update `SIGNATURE_DEPTH_8` and `SIGNATURE_DEPTH_12` here together with
//! the depth-12 signature in README.md, docs/SEARCH.md and docs/BENCHMARKS.md, and say why in
//! the commit.

use std::process::Command;

/// `virada bench search --depth 8` total nodes (the default evaluation, gen3 G06 with the
/// Multi-ProbCut table fitted for G05, the hash move searched first, the probe precheck; 1
/// thread).
const SIGNATURE_DEPTH_8: u64 = 39_731;
/// `virada bench search` (depth 12, the default) total nodes: the signature the docs quote.
const SIGNATURE_DEPTH_12: u64 = 558_289;

/// `virada bench search --depth DEPTH --threads 1`: its `total nodes`.
fn bench_search_nodes(depth: u32) -> u64 {
    let out = Command::new(env!("CARGO_BIN_EXE_virada"))
        .args([
            "bench",
            "search",
            "--depth",
            &depth.to_string(),
            "--threads",
            "1",
        ])
        .output()
        .expect("the virada binary runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    text.lines()
        .find_map(|l| l.strip_prefix("total nodes "))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no `total nodes N` line in:\n{text}"))
}

#[test]
fn bench_search_signature_at_depth_8() {
    assert_eq!(
        bench_search_nodes(8),
        SIGNATURE_DEPTH_8,
        "the search signature changed: if deliberate, update it here and in the docs"
    );
}

#[test]
fn bench_search_signature_at_depth_12() {
    assert_eq!(
        bench_search_nodes(12),
        SIGNATURE_DEPTH_12,
        "the search signature changed: if deliberate, update it here and in the docs"
    );
}
