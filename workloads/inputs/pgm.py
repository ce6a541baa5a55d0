#!/usr/bin/env python3
"""A binary-free ASCII PGM image (P2) with smooth structure and speckle,
as Rodinia srad_v1 reads (its sample image is not in the repository).
usage: pgm.py ROWS COLS SEED OUT"""
import math
import random
import sys

rows, cols, seed, out = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
rng = random.Random(seed)
with open(out, "w") as f:
    f.write(f"P2\n{cols} {rows}\n255\n")
    for i in range(rows):
        row = []
        for j in range(cols):
            v = 128 + 60 * math.sin(i / 17.0) * math.cos(j / 23.0)
            row.append(str(max(0, min(255, int(v * rng.uniform(0.7, 1.3))))))
        f.write(" ".join(row) + "\n")
