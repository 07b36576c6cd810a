#!/usr/bin/env python3
"""NTest's nodes and time to each depth on the positions of an OBF file (the diagnosis of
docs/STRENGTH.md, beside `virada bench depths`).

usage: ntest-depths.py OBF DEPTH... > journal
NTest (built outside the repository, ../shared/REFERENCES.md) runs in $NTEST_DIR (default
/root/ref/ntest) in its game mode, `./ntest g1h sD 1 FILE.ggf` (`gh1` for White to move), one fresh process a position
and depth (its NBoard mode prints no node counts). Prints one line a position and depth:
`index empties depth nodes micros value` (value: NTest's, side to move's view), then a
summary table by depth (median and mean nodes, mean time).
"""
import os
import re
import subprocess
import sys

ntest = os.environ.get("NTEST_DIR", "/root/ref/ntest")
obf, depths = sys.argv[1], [int(d) for d in sys.argv[2:]]
rows = []
positions = [l.split() for l in open(obf) if l.strip() and not l.startswith("%")]
for i, (board, side) in enumerate((p[0], p[1][0]) for p in positions):
    empties = board.count("-")
    ggf = os.path.join(ntest, f"diag-{os.getpid()}.ggf")
    mover = "*" if side == "X" else "O"
    with open(ggf, "w") as f:
        f.write(f"(;GM[Othello]PC[x]PB[a]PW[b]RE[?]TI[5:00]TY[8]"
                f"BO[8 {board.replace('X', '*')} {mover}];)\n")
    for d in depths:
        # The computer plays the side to move: player 1 is Black in "g1h", White in "gh1".
        mode = "g1h" if side == "X" else "gh1"
        out = subprocess.run(["./ntest", mode, f"s{d}", "1", os.path.basename(ggf)],
                             cwd=ntest, stdin=subprocess.DEVNULL, capture_output=True,
                             text=True, timeout=3600).stdout
        m = re.search(r"=== \S+\s+([-+]?[0-9.]+).*?([0-9.]+) ?([kMG]?)n/([0-9.]+)s", out)
        if not m:
            print(f"# position {i} depth {d}: no result", file=sys.stderr)
            continue
        scale = {"": 1, "k": 1e3, "M": 1e6, "G": 1e9}[m.group(3)]
        nodes, secs = float(m.group(2)) * scale, float(m.group(4))
        rows.append((d, nodes, secs))
        print(f"{i} {empties} {d} {nodes:.0f} {secs * 1e6:.0f} {m.group(1)}", flush=True)
    os.remove(ggf)
print("| depth | positions | median nodes | mean nodes | mean time (ms) | ns a node |")
print("|---|---|---|---|---|---|")
for d in depths:
    v = [r for r in rows if r[0] == d]
    if not v:
        continue
    n = sorted(r[1] for r in v)
    t = sum(r[2] for r in v)
    print(f"| {d} | {len(v)} | {n[len(n) // 2]:.0f} | {sum(n) / len(n):.0f} | "
          f"{t * 1e3 / len(v):.1f} | {t * 1e9 / max(sum(n), 1):.0f} |")
