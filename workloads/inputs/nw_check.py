#!/usr/bin/env python3
"""Rodinia nw's score matrix (its copy back to the host) against the
Needleman-Wunsch recurrence on the same sequences (srand(7), rand() % 10 + 1)
and needle.cu's BLOSUM62 table.  usage: nw_check.py N PENALTY NEEDLE.cu MATRIX.bin"""
import re
import struct
import sys

import glibc_rand

n, penalty = int(sys.argv[1]) + 1, int(sys.argv[2])
src = open(sys.argv[3]).read()
table = src[src.index("blosum62[24][24]"):]
table = table[:table.index("};")]
blosum = [[int(v) for v in re.findall(r"-?\d+", row)] for row in re.findall(r"\{([^{}]*)\}", table)]
glibc_rand.srand(7)
rows = [0] + [glibc_rand.rand() % 10 + 1 for _ in range(1, n)]
cols = [0] + [glibc_rand.rand() % 10 + 1 for _ in range(1, n)]
m = [[0] * n for _ in range(n)]
for i in range(1, n):
    m[i][0] = -i * penalty
    m[0][i] = -i * penalty
for i in range(1, n):
    for j in range(1, n):
        m[i][j] = max(m[i - 1][j - 1] + blosum[rows[i]][cols[j]], m[i][j - 1] - penalty, m[i - 1][j] - penalty)
data = open(sys.argv[4], "rb").read()
got = struct.unpack(f"<{len(data) // 4}i", data)
want = [v for row in m for v in row]
if list(got) != want:
    sys.exit(f"nw: {len(got)} scores for {n * n}; they differ from the reference")
print(f"nw: all {n * n} scores equal the reference")
