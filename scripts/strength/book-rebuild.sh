#!/bin/sh
# The book rebuild of issue 44, resumable: run the same command again after an interruption
# (each stage's journal replays its finished analyses, so the result is the same as an
# uninterrupted run). Run it detached: nohup nice -n 19 scripts/strength/book-rebuild.sh &
#
# usage: book-rebuild.sh [VIRADA] [DIR]   (default: virada on PATH, ~/.cache/virada/strength/book)
# Stage 1 grows the shipped book (gen3-G05, every position searched at depth 12) to 20,000
# positions at depth 12, within 20 plies, moves within 3 discs of their position's best and
# lines within 5 discs of the start's value. Stage 2 searches the main lines again at depth 18:
# moves within 1 disc of the best, lines within 2 discs of the start's value, 10 plies. The
# result is DIR/stage2.vbk; `virada book check DIR/stage2.vbk --sample 50 --depth 20` measures it.
V=${1:-virada}; DIR=${2:-$HOME/.cache/virada/strength/book}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$DIR" && cd "$DIR" || exit 1
[ -f shipped.vbk ] || cp "$ROOT/crates/engine/data/book.vbk" shipped.vbk
"$V" book extend shipped.vbk --out stage1.vbk --journal stage1.journal \
  --depth 12 --max-ply 20 --move-window 3 --line-window 5 --positions 20000 --threads 1 \
  > stage1.log 2>&1 || exit 1
cp stage1.vbk stage2.vbk
"$V" book extend stage2.vbk --journal stage2.journal --depth 18 --max-ply 10 \
  --move-window 1 --line-window 2 --threads 1 > stage2.log 2>&1 || exit 1
echo done > DONE
