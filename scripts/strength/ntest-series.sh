#!/bin/sh
# A match against NTest in chunks of one opening (two games, colours swapped), resumable.
#
# usage: ntest-series.sh VIRADA SETTINGS NTEST DEPTH FIRST LAST OUTDIR
#   VIRADA    a release build of virada (a copy with its own name, see poll.sh)
#   SETTINGS  Virada's side, e.g. nodes=550000
#   NTEST     the NTest binary (a copy with its own name); it runs in $NTEST_DIR
#   DEPTH     NTest's depth over NBoard
#   FIRST..LAST  openings (0-based lines of $OPENINGS, default ./xot100.txt, made by
#             `xot-openings.py 100 2026 > xot100.txt`: the same 100 XOT openings every time)
# Each chunk writes OUTDIR/NNN.txt (virada match's report) and NNN.ggf. A chunk whose report is
# complete is skipped, so the same command resumes after an interruption (a kill loses only
# the chunk in progress). A move may take up to $TIMEOUT s (default 3600: on a loaded machine
# NTest at depth 20 took more than virada match's default 60 s and forfeited), its start-up and
# pings up to $HANDSHAKE s (default 600: at load 15-20 NTest missed virada match's default
# 30 s). tally.py sums the reports. NTest is built from its public source
# outside the repository (../shared/REFERENCES.md); nothing here is needed by the tests.
NTEST_DIR=${NTEST_DIR:-/root/ref/ntest}
OPENINGS=$(realpath "${OPENINGS:-xot100.txt}")
BIN=$1; SPEC=$2; NTB=$3; D=$4; FIRST=$5; LAST=$6; OUT=$7
[ -n "$OUT" ] || { echo "usage: $0 VIRADA SETTINGS NTEST DEPTH FIRST LAST OUTDIR" >&2; exit 2; }
mkdir -p "$OUT"; cd /tmp || exit 1
k=$FIRST
while [ "$k" -le "$LAST" ]; do
  f=$OUT/$(printf %03d "$k")
  if ! grep -q '^time used' "$f.txt" 2>/dev/null; then
    "$BIN" match --a "$SPEC" --b "nboard:$NTB x" --b-dir "$NTEST_DIR" --b-tc "depth=$D,timeout=${TIMEOUT:-3600},handshake=${HANDSHAKE:-600}" \
      --games 2 --book off --threads 1 --openings "$OPENINGS" --skip "$k" \
      --ggf "$f.ggf" > "$f.tmp" 2>/dev/null && mv "$f.tmp" "$f.txt"
  fi
  k=$((k+1))
done
