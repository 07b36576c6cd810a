#!/usr/bin/env bash
# Re-measures the level ladder of docs/LEVELS.md: adjacent levels, the reference players and
# deeper-versus-shallower searches. One summary line per match on standard output.
# Usage: scripts/level-ladder.sh [path/to/virada]   (about 30 minutes on 2 cores)
set -euo pipefail
V=${1:-target/release/virada}
run() { "$V" match --a "$1" --b "$2" --games "$3" --threads 2 --brief 2>/dev/null; }
run greedy random 80
run level=1 random 80
run level=1 greedy 80
run level=2 greedy 80
run level=3 greedy 80
for l in 1 2 3 4 5; do run "level=$((l + 1))" "level=$l" 80; done
for l in 6 7 8 9 10 11 12 13; do run "level=$((l + 1))" "level=$l" 40; done
run level=16 level=14 24
for d in 1 2 3 4 5 6; do run "depth=$((d + 1)),exact=8" "depth=$d,exact=8" 100; done
run depth=6,exact=12 depth=6,exact=12,eval=v1 40
