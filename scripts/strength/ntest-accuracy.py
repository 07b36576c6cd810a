#!/usr/bin/env python3
"""NTest's depth-8 values on the solved positions of an accuracy_table journal, MAE per range.
usage: ntest-accuracy.py <journal> [depth]   (NTest in /root/ref/ntest; `hint 1` over NBoard,
the value of its last `search` line, side to move's view)."""
import os, subprocess, sys
journal, depth = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 8
ranges = [(20, 22), (23, 26), (27, 30)]
err = {r: [] for r in ranges}
for line in open(journal):
    f = line.split()
    if len(f) != 4:
        continue
    e, hexb, score = int(f[0]), f[1], int(f[2])
    p, o = int(hexb[:16], 16), int(hexb[16:], 16)
    board = "".join("*" if p >> i & 1 else "O" if o >> i & 1 else "-" for i in range(64))
    game = f"(;GM[Othello]PC[x]PB[a]PW[b]RE[?]TI[5:00]TY[8]BO[8 {board} *];)"
    cmd = f"nboard 2\nset depth {depth}\nset game {game}\nhint 1\n"
    pr = subprocess.Popen([os.environ.get("NTEST_DIR", "/root/ref/ntest") + "/ntest", "x"], cwd=os.environ.get("NTEST_DIR", "/root/ref/ntest"), stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    pr.stdin.write(cmd); pr.stdin.flush()
    value = None; seen = False
    for out in pr.stdout:
        if out.startswith("search"):
            value = float(out.split()[2]); seen = True
        elif seen and out.startswith("status"):
            break
    pr.stdin.write("quit\n"); pr.stdin.flush(); pr.wait()
    for r in ranges:
        if r[0] <= e <= r[1]:
            err[r].append(value - score)
allv = []
for r in ranges:
    v = err[r]; allv += v
    if v:
        print(f"| {r[0]}-{r[1]} | {len(v)} | {sum(map(abs, v))/len(v):.2f} (bias {sum(v)/len(v):+.2f}) |")
print(f"| all | {len(allv)} | {sum(map(abs, allv))/len(allv):.2f} |")
