#!/usr/bin/env python3
"""The diagnosis bench file: fixed positions with 20-44 empties from WTHOR tournament games.

usage: diag-positions.py WTHOR_DIR COUNT SEED > crates/train/bench/diag50.obf
(the committed file: `diag-positions.py ../shared/data/wthor 50 51`)

Games of 1980-2015 are drawn with Python's random.Random(SEED); from each drawn game one
position with a number of empties drawn uniformly in 20-44 (a game that ends before it or
passes at it is skipped). Output: OBF lines `<64 squares a1..h8> <side>;` (X = Black,
O = White), the side to move having a legal move. The WTHOR files are read, never copied.
"""
import os
import random
import struct
import sys

DIRS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def flips(board, me, sq):
    """Squares `me` flips by playing at sq (row*8+col) on board (list of 0/1/2)."""
    if board[sq]:
        return []
    out = []
    r0, c0 = divmod(sq, 8)
    for dr, dc in DIRS:
        line = []
        r, c = r0 + dr, c0 + dc
        while 0 <= r < 8 and 0 <= c < 8 and board[r * 8 + c] == 3 - me:
            line.append(r * 8 + c)
            r, c = r + dr, c + dc
        if line and 0 <= r < 8 and 0 <= c < 8 and board[r * 8 + c] == me:
            out += line
    return out


def has_move(board, me):
    return any(flips(board, me, s) for s in range(64) if not board[s])


def games(path):
    data = open(path, "rb").read()
    n = struct.unpack_from("<I", data, 4)[0]
    for i in range(n):
        rec = data[16 + 68 * i: 16 + 68 * (i + 1)]
        yield [b for b in rec[8:68] if b]


def main():
    wdir, count, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    rng = random.Random(seed)
    pool = []
    for year in range(1980, 2016):
        p = os.path.join(wdir, f"WTH_{year}.wtb")
        pool += [(year, i, g) for i, g in enumerate(games(p))]
    seen = set()
    out = []
    while len(out) < count:
        year, idx, moves = pool[rng.randrange(len(pool))]
        target = rng.randint(20, 44)
        if (year, idx) in seen:
            continue
        seen.add((year, idx))
        board = [0] * 64
        board[27] = board[36] = 2  # d4, e5 white
        board[28] = board[35] = 1  # e4, d5 black
        me = 1
        ok = True
        for mv in moves:
            if board.count(0) == target:
                break
            if not has_move(board, me):
                me = 3 - me
            sq = (mv // 10 - 1) * 8 + (mv % 10 - 1)
            f = flips(board, me, sq)
            if not f:
                ok = False
                break
            board[sq] = me
            for s in f:
                board[s] = me
            me = 3 - me
        empties = board.count(0)
        if not ok or empties != target or not has_move(board, me):
            continue
        squares = "".join("-XO"[s] for s in board)
        out.append(f"{squares} {'XO'[me - 1]};")
    print("\n".join(out))


main()
