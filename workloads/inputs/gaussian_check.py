#!/usr/bin/env python3
"""Rodinia gaussian -s N: the printed solution against Gaussian elimination
of the same system (create_matrix's Toeplitz matrix, b = 1) in double
precision.  usage: gaussian_check.py N STDOUT"""
import math
import sys

n = int(sys.argv[1])
coe = [0.0] * (2 * n - 1)
for i in range(n):
    c = 10 * math.exp(-0.01 * i)
    coe[n - 1 + i] = c
    coe[n - 1 - i] = c
a = [[coe[n - 1 - i + j] for j in range(n)] for i in range(n)]
b = [1.0] * n
for t in range(n - 1):
    for i in range(t + 1, n):
        m = a[i][t] / a[t][t]
        for j in range(t, n):
            a[i][j] -= m * a[t][j]
        b[i] -= m * b[t]
x = [0.0] * n
for i in reversed(range(n)):
    x[i] = (b[i] - sum(a[i][j] * x[j] for j in range(i + 1, n))) / a[i][i]
text = open(sys.argv[2]).read()
if "The final solution is:" not in text:
    sys.exit("gaussian: no solution printed")
got = [float(v) for v in text.split("The final solution is:")[1].split("Time total")[0].split()]
if len(got) != n:
    sys.exit(f"gaussian: {len(got)} values for {n} unknowns")
worst = max(abs(g - w) / max(abs(w), 1e-3) for g, w in zip(got, x))
if worst > 1e-3:
    sys.exit(f"gaussian: relative error {worst:.2e} against the reference")
print(f"gaussian: {n} values within {worst:.1e} of the reference")
