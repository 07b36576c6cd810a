#!/usr/bin/env python3
"""usage: tally.py OUTDIR...

Sums the chunk reports of ntest-series.sh directories: W-D-L (A = Virada), score, Elo with
its 95% margin (same formula as virada match), disc difference, time a move."""
import glob, math, re, sys
for d in sys.argv[1:]:
    res = []; discs = 0.0; ta = tb = ma = mb = 0.0
    for f in sorted(glob.glob(d + "/*.txt")):
        t = open(f).read()
        w = int(re.search(r"A wins (\d+)", t).group(1)); dr = int(re.search(r"draws (\d+)", t).group(1))
        l = int(re.search(r"losses (\d+)", t).group(1)); g = w + dr + l
        res += [1.0] * w + [0.5] * dr + [0.0] * l
        discs += float(re.search(r"\(A-B\) ([-+0-9.]+)", t).group(1)) * g
        m = re.search(r"A ([0-9.]+) s \(([0-9.]+) s a move\), B ([0-9.]+) s \(([0-9.]+) s a move\)", t)
        a, ap, b, bp = map(float, m.groups())
        ta += a; tb += b; ma += a / ap if ap else 0; mb += b / bp if bp else 0
    n = len(res)
    if n == 0:
        print(d, "no games"); continue
    s = sum(res) / n; half = 0.5 / n; p = min(max(s, half), 1 - half)
    elo = -400 * math.log10(1 / p - 1)
    var = sum((x - s) ** 2 for x in res) / n or p * (1 - p)
    margin = 1.96 * math.sqrt(var / n) * 400 / (math.log(10) * p * (1 - p))
    print(f"{d}: games {n}  +{res.count(1.0)} ={res.count(0.5)} -{res.count(0.0)}  score {100*s:.1f}%  "
          f"Elo {elo:+.0f} ± {margin:.0f}  discs {discs/n:+.2f}  moves A {ma:.0f} B {mb:.0f}  "
          f"wall s/move A {ta/max(ma,1):.3f} B {tb/max(mb,1):.3f}")
