#!/usr/bin/env python3
"""Matrices in Parboil sgemm's text format (io.cc: "rows cols" then the
values in column-major order, blank-separated): A (M x K) in matrix1.txt,
B (K x N) in matrix2.txt and its transpose B^T (N x K) in matrix2t.txt, the
three files Parboil's datasets hold (the program reads A and B^T). Values
uniform in [-1, 1). The kernel needs M % 128 == 0, N % 16 == 0, K % 8 == 0.
usage: parboil_sgemm_input.py M K N SEED"""
import random
import sys

m, k, n, seed = (int(a) for a in sys.argv[1:5])
if m % 128 or n % 16 or k % 8:
    sys.exit("parboil_sgemm_input: M must be a multiple of 128, N of 16, K of 8")
rng = random.Random(seed)
a = [[rng.uniform(-1.0, 1.0) for _ in range(k)] for _ in range(m)]  # a[i][p]
b = [[rng.uniform(-1.0, 1.0) for _ in range(n)] for _ in range(k)]  # b[p][j]


def write(path, rows, cols, at):
    with open(path, "w") as f:
        f.write(f"{rows} {cols}\n")
        for c in range(cols):
            f.write(" ".join(f"{at(r, c):.6f}" for r in range(rows)))
            f.write("\n")


write("matrix1.txt", m, k, lambda i, p: a[i][p])
write("matrix2.txt", k, n, lambda p, j: b[p][j])
write("matrix2t.txt", n, k, lambda j, p: b[p][j])
