#!/usr/bin/env python3
"""Where Virada's discs go in match GGF files: the exact value (Virada's view) of each game's
position at E empties (our solver, one thread), against the final result. usage:
where-discs.py E OUTDIR... (the solver: $VIRADA, default virada on PATH); prints per game and the mean of (exact at E) and (final - exact)."""
import glob, json, os, re, subprocess, sys
E = int(sys.argv[1])
rows = []
for d in sys.argv[2:]:
    for f in sorted(glob.glob(d + "/*.ggf")):
        for g in open(f).read().split("(;")[1:]:
            pb = re.search(r"PB\[([^\]]*)\]", g).group(1)
            re_ = re.search(r"RE\[([-+0-9]+)\]", g)
            if not re_:
                continue
            v_black = not pb.startswith("nboard:")
            final = int(re_.group(1)) * (1 if v_black else -1)
            moves = re.findall(r"[BW]\[([a-hA-H][1-8]|PA)\]", g)
            played, t, side_black = 0, "", True
            for m in moves:
                if 60 - played == E:
                    break
                if m != "PA":
                    t += m.lower(); played += 1
                side_black = not side_black
            if 60 - played != E:
                continue
            out = subprocess.run([os.environ.get("VIRADA", "virada"), "solve", "--json",
                                  "--threads", "1", "--hash-mb", "16", t], capture_output=True, text=True).stdout
            j = json.loads(out.splitlines()[0])
            # side to move of the solved position: the last board field
            stm_black = j["position"].split()[1] == "X"
            s = j["score"]["lower"] * (1 if stm_black == v_black else -1)
            rows.append((f, s, final))
            print(f"{f.split('/')[-1]} exact@{E} {s:+d} final {final:+d}", flush=True)
n = len(rows)
print(f"{n} games: mean exact at {E} empties {sum(r[1] for r in rows)/n:+.2f}, mean final {sum(r[2] for r in rows)/n:+.2f}, "
      f"lost after {E} empties {sum(r[2]-r[1] for r in rows)/n:+.2f}; games where Virada lost discs after {E}: "
      f"{sum(1 for r in rows if r[2] < r[1])}, gained: {sum(1 for r in rows if r[2] > r[1])}")
