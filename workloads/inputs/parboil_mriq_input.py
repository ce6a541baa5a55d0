#!/usr/bin/env python3
"""An input for Parboil mri-q (file.cc's inputData): little-endian int32
numK, int32 numX, then float32 arrays kx, ky, kz (numK each), x, y, z (numX
each), phiR, phiI (numK each), as its datasets' N_N_N_dataset.bin (small:
32^3 voxels, 3072 samples; large: 64^3, 2048). The voxels are the N^3 grid
in [-1/2, 1/2)^3; the k-space samples follow a stack of spiral arms within
|k| < N/2; phi is uniform in [-1, 1). numX = N^3 must be a multiple of 256
(ComputeQ_GPU has no bound check) and numK even.
usage: parboil_mriq_input.py N NUMK SEED OUT"""
import math
import random
import struct
import sys

n, numk, seed = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
numx = n ** 3
if numx % 256 or numk % 2:
    sys.exit("parboil_mriq_input: N^3 must be a multiple of 256 and NUMK even")
rng = random.Random(seed)
kmax = n / 2
arms = 16
kx, ky, kz = [], [], []
for i in range(numk):
    arm, t = i % arms, (i // arms) / max(1, numk // arms)
    r = kmax * t * 0.95
    a = 2 * math.pi * (arm / arms + 3 * t)
    kx.append(r * math.cos(a))
    ky.append(r * math.sin(a))
    kz.append(kmax * 0.95 * (2 * rng.random() - 1))
axis = [(i - n / 2) / n for i in range(n)]
x = [axis[i % n] for i in range(numx)]
y = [axis[(i // n) % n] for i in range(numx)]
z = [axis[i // (n * n)] for i in range(numx)]
phir = [rng.uniform(-1, 1) for _ in range(numk)]
phii = [rng.uniform(-1, 1) for _ in range(numk)]
with open(sys.argv[4], "wb") as f:
    f.write(struct.pack("<2i", numk, numx))
    for a in (kx, ky, kz, x, y, z, phir, phii):
        f.write(struct.pack(f"<{len(a)}f", *a))
