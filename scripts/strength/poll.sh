#!/bin/sh
# Every 2 s, the CPU ticks (utime+stime, 1/100 s) of each process named in "$@" (pgrep -x):
# lines "pid name ticks"; the last line of a pid is its total (to within 2 s).
# usage: poll.sh <out> <name>... (runs until killed)
OUT=$1; shift
while true; do
  for n in "$@"; do
    for p in $(pgrep -x "$n"); do
      s=$(cat /proc/$p/stat 2>/dev/null) || continue
      echo "$p $(echo "$s" | awk '{print $2, $14+$15}')"
    done
  done >> "$OUT"
  sleep 2
done
