#!/usr/bin/env python3
"""Rodinia backprop N: its two results copied back to the host — the
hidden layer's partial sums (d2h 1) and the adjusted input weights (d2h 3)
— against one training step of backprop.c's network in double precision:
srand(7); input weights, hidden weights and the N inputs drawn with
(float) rand() / RAND_MAX in that order; 16 hidden units, 1 output, target
0.1; sigmoid units; ETA 0.3, no momentum on the first step. (At the
benchmark's sizes the hidden sums are in the hundreds and the sigmoids
saturate to 1, so the step changes no weight: then the check is that none
changed.)
usage: backprop_check.py N PARTIAL.bin WEIGHTS.bin"""
import math
import struct
import sys

import glibc_rand

n, hid, out = int(sys.argv[1]), 16, 1


def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def draw():
    return f32(f32(glibc_rand.rand()) / f32(2147483647.0))


glibc_rand.srand(7)
w_in = [[draw() for _ in range(hid + 1)] for _ in range(n + 1)]
w_hid = [[draw() for _ in range(out + 1)] for _ in range(hid + 1)]
x = [1.0] + [draw() for _ in range(n)]
sums = [sum(w_in[k][j] * x[k] for k in range(n + 1)) for j in range(hid + 1)]
h = [1.0] + [1 / (1 + math.exp(-sums[j])) for j in range(1, hid + 1)]
o = [1.0] + [1 / (1 + math.exp(-sum(w_hid[k][j] * h[k] for k in range(hid + 1)))) for j in range(1, out + 1)]
d_out = [0.0] + [o[j] * (1 - o[j]) * (0.1 - o[j]) for j in range(1, out + 1)]
d_hid = [0.0] + [h[j] * (1 - h[j]) * sum(d_out[k] * w_hid[j][k] for k in range(1, out + 1)) for j in range(1, hid + 1)]


def floats(path):
    data = open(path, "rb").read()
    return struct.unpack(f"<{len(data) // 4}f", data)


partial = floats(sys.argv[2])
blocks = n // 16
got_sums = [sum(partial[b * hid + j - 1] for b in range(blocks)) + w_in[0][j] for j in range(1, hid + 1)]
err = max(abs(g - w) / max(1.0, abs(w)) for g, w in zip(got_sums, sums[1:]))
if err > 1e-4:
    sys.exit(f"backprop: the hidden layer's sums differ from the reference by {err:.2e} (relative)")
weights = floats(sys.argv[3])
if len(weights) != (n + 1) * (hid + 1):
    sys.exit(f"backprop: {len(weights)} weights for {(n + 1) * (hid + 1)}")
worst, largest = 0.0, 0.0
for k in range(n + 1):
    for j in range(1, hid + 1):
        want = 0.3 * d_hid[j] * x[k]
        got = weights[k * (hid + 1) + j] - w_in[k][j]
        worst, largest = max(worst, abs(got - want)), max(largest, abs(want))
if worst > 1e-3 * largest + 1e-7:
    sys.exit(f"backprop: a weight's change differs from the reference by {worst:.2e} (largest change {largest:.2e})")
print(f"backprop: hidden sums and the {n * hid} weight changes equal the reference (within {worst:.1e})")
