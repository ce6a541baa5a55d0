#!/usr/bin/env python3
"""Rodinia gaussian -s N: what it copies back after the forward
elimination — the multipliers m, the reduced matrix a and right-hand side
b — against the same elimination of create_matrix's system (b = 1) in
double precision.  usage: gaussian_check.py N M.bin A.bin B.bin"""
import math
import struct
import sys

n = int(sys.argv[1])
coe = [0.0] * (2 * n - 1)
for i in range(n):
    c = 10 * math.exp(-0.01 * i)
    coe[n - 1 + i] = c
    coe[n - 1 - i] = c
a = [[coe[n - 1 - i + j] for j in range(n)] for i in range(n)]
b = [1.0] * n
m = [[0.0] * n for _ in range(n)]
for t in range(n - 1):
    for i in range(t + 1, n):
        m[i][t] = a[i][t] / a[t][t]
        for j in range(t, n):
            a[i][j] -= m[i][t] * a[t][j]
        b[i] -= m[i][t] * b[t]


def floats(path):
    data = open(path, "rb").read()
    return struct.unpack(f"<{len(data) // 4}f", data)


worst = 0.0
for name, path, want in [("m", sys.argv[2], [v for r in m for v in r]), ("a", sys.argv[3], [v for r in a for v in r]), ("b", sys.argv[4], b)]:
    got = floats(path)
    if len(got) != len(want):
        sys.exit(f"gaussian: {len(got)} values of {name} for {len(want)}")
    scale = max(abs(w) for w in want)
    err = max(abs(g - w) for g, w in zip(got, want)) / scale
    if err > 1e-4:
        sys.exit(f"gaussian: {name} differs from the reference by {err:.2e} of its largest value")
    worst = max(worst, err)
print(f"gaussian: m, a and b within {worst:.1e} (relative) of the reference")
