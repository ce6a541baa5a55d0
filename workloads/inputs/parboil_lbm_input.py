#!/usr/bin/env python3
"""An obstacle file for Parboil lbm (LBM_loadObstacleFile): for each z of
SIZE_Z, for each y of SIZE_Y, SIZE_X characters ('.' free, anything else an
obstacle) and a newline, then a newline per z plane, as its datasets'
120_120_150_ldc.of (the lattice is fixed at compile time, 120 x 120 x 150 in
layout_config.h; main.cc checks the file's size). The obstacles: a sphere
in the cavity and a few random boxes.
usage: parboil_lbm_input.py SEED OUT [SIZE_X SIZE_Y SIZE_Z]"""
import random
import sys

seed, out = int(sys.argv[1]), sys.argv[2]
sx, sy, sz = (int(a) for a in sys.argv[3:6]) if len(sys.argv) > 3 else (120, 120, 150)
rng = random.Random(seed)
cx, cy, cz, r = sx / 2, sy / 2, sz / 3, min(sx, sy, sz) / 6
boxes = []
for _ in range(6):
    w = [rng.randrange(2, max(3, s // 10)) for s in (sx, sy, sz)]
    o = [rng.randrange(2, s - 2 - wi) for s, wi in zip((sx, sy, sz), w)]
    boxes.append((o, w))


def row(y, z):
    """One line of x: the sphere's chord and the boxes' spans at (y, z)."""
    line = bytearray(b"." * sx)
    d = r * r - (y - cy) ** 2 - (z - cz) ** 2
    for x in range(sx):
        if (x - cx) ** 2 <= d:
            line[x] = ord("#")
    for o, w in boxes:
        if o[1] <= y < o[1] + w[1] and o[2] <= z < o[2] + w[2]:
            line[o[0]:o[0] + w[0]] = b"#" * w[0]
    return bytes(line) + b"\n"


with open(out, "wb") as f:
    for z in range(sz):
        f.write(b"".join(row(y, z) for y in range(sy)) + b"\n")
