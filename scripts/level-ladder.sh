#!/usr/bin/env bash
# Re-measures the level ladder of docs/LEVELS.md: adjacent levels, the reference players and
# deeper-versus-shallower searches. One summary line per match on standard output.
# Usage: scripts/level-ladder.sh [path/to/virada] [all|main|capped]   (about 45 minutes on 2
# idle cores for the main ladder; the capped rows at the end take about 5 hours more: levels
# 18-21 are time-capped, 3-10 s a move, so their results also depend on the machine's load)
set -euo pipefail
V=${1:-target/release/virada}
PART=${2:-all}
case $PART in all | main | capped) ;; *) echo "part: all, main or capped, not '$PART'" >&2; exit 2 ;; esac
run() {
  local skip=0
  if [[ $1 == --skip=* ]]; then skip=${1#--skip=}; shift; fi
  "$V" match --a "$1" --b "$2" --games "$3" --skip "$skip" --threads 2 --brief 2>/dev/null
}
if [[ $PART != capped ]]; then
run greedy random 80
run level=1 random 80
run level=1 greedy 80
run level=2 greedy 80
run level=3 greedy 80
for l in 1 2 3 4 5; do run "level=$((l + 1))" "level=$l" 80; done
for l in 6 7 8 9 10 11 12 13; do run "level=$((l + 1))" "level=$l" 40; done
run level=16 level=14 24
run level=15 level=14 40
run --skip=20 level=15 level=14 40
run level=17 level=16 16
run --skip=400 level=17 level=16 400   # 2026-12-02: about 14 minutes on the idle 2 cores
run level=6 level=3 40
run level=12 level=8 24
for d in 1 2 3 4 5 6; do run "depth=$((d + 1)),exact=8" "depth=$d,exact=8" 100; done
run depth=6,exact=12 depth=6,exact=12,eval=v1 40
fi
[[ $PART == main ]] && exit 0
# Time-capped levels: small samples (minutes a game).
run level=18 level=17 12
run --skip=6 level=18 level=17 28
run --skip=400 level=18 level=17 400   # 2026-12-02: 24 minutes
run level=19 level=18 10
run --skip=5 level=19 level=18 14
run --skip=400 level=19 level=18 200   # 2026-12-02: 34 minutes
run level=20 level=19 8
run --skip=4 level=20 level=19 12
run --skip=400 level=20 level=19 80    # 2026-12-02: about 35 minutes
run --skip=441 level=20 level=19 60    # 2026-12-02: 30 minutes
run --skip=443 level=20 level=19 60    # 2026-12-02: 33 minutes
run level=21 level=20 8
run --skip=4 level=21 level=20 12
run --skip=400 level=21 level=20 40    # 2026-12-02: 54 minutes
run --skip=402 level=21 level=20 20    # 2026-12-02: 26 minutes
