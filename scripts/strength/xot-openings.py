#!/usr/bin/env python3
"""Draws the openings of a strength match from the XOT list, the same ones every time.

usage: xot-openings.py [COUNT] [SEED] > openings.txt

Reads ../shared/data/xot/xot-large.txt (beside the repository, or $VIRADA_DATA/xot/), keeps
its valid lines (eight moves of two characters each), and prints COUNT of them (default 100)
drawn without replacement by Python's random.Random(SEED) (default seed 2026), in the order
drawn. The list itself is never committed: it is public reference data (../shared/data), so
the command and its seed stand for it (docs/STRENGTH.md).
"""

import os
import random
import re
import sys

MOVE_LINE = re.compile(r"^([a-h][1-8]){8}$")


def data_dir():
    if os.environ.get("VIRADA_DATA"):
        return os.environ["VIRADA_DATA"]
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    return os.path.join(os.path.dirname(repo), "shared", "data")


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 2026
    path = os.path.join(data_dir(), "xot", "xot-large.txt")
    with open(path, encoding="ascii") as f:
        lines = [l.strip() for l in f if MOVE_LINE.match(l.strip())]
    if count > len(lines):
        sys.exit(f"{path} has {len(lines)} openings; {count} were asked for")
    for line in random.Random(seed).sample(lines, count):
        print(line)


if __name__ == "__main__":
    main()
