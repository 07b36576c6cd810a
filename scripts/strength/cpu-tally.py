#!/usr/bin/env python3
"""CPU seconds per process name from a poll.sh file, less NTest's start-up (0.33 s a process,
measured with /usr/bin/time on `ntest x` told to quit). Processes still running are left out,
so the totals match the finished games of the reports. usage: cpu-tally.py <poll file>"""
import collections, os, sys
last = {}
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) == 3:
        last[(f[0], f[1])] = int(f[2])
tot = collections.defaultdict(float); cnt = collections.Counter()
for (pid, name), t in last.items():
    if os.path.exists(f"/proc/{pid}"):
        continue
    tot[name] += t / 100; cnt[name] += 1
for n in tot:
    startup = 0.33 * cnt[n] if "ntest" in n else 0.0
    print(f"{n}: {tot[n]:.1f} s CPU in {cnt[n]} processes, {tot[n]-startup:.1f} s without NTest start-ups")
