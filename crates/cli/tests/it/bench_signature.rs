//! The search's node-count signature: `virada bench search` (the same binary and code path a
//! user runs) at a small depth, pinned to the exact count.
//!
//! One thread searches deterministically, so any change to this number is a change of the
//! search's behaviour (move ordering, pruning, Multi-ProbCut, evaluation, table). Such a change
//! must be deliberate: update `SIGNATURE_DEPTH_8` here together with the depth-12 signature
//! (`virada bench search`, 696,457 nodes) in README.md, docs/SEARCH.md and
//! docs/BENCHMARKS.md, and say why in the commit.

use std::process::Command;

/// `virada bench search --depth 8` total nodes (the default evaluation, gen3 G05 with its
/// Multi-ProbCut table; 1 thread).
const SIGNATURE_DEPTH_8: u64 = 52_806;

#[test]
fn bench_search_signature_at_depth_8() {
    let out = Command::new(env!("CARGO_BIN_EXE_virada"))
        .args(["bench", "search", "--depth", "8", "--threads", "1"])
        .output()
        .expect("the virada binary runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    let nodes: u64 = text
        .lines()
        .find_map(|l| l.strip_prefix("total nodes "))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no `total nodes N` line in:\n{text}"));
    assert_eq!(
        nodes, SIGNATURE_DEPTH_8,
        "the search signature changed: if deliberate, update it here and in the docs\n{text}"
    );
}
