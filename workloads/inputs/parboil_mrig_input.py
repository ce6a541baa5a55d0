#!/usr/bin/env python3
"""An input for Parboil mri-gridding (main.cu's setParameters and
readSampleData): NAME, the acquisition's parameters as text, and NAME.data,
numSamples ReconstructionSample records (six little-endian floats: real,
imag, kX, kY, kZ, sdc). Acquisition and reconstruction matrices M^3, the
grid oversampled twice (2M)^3, kernel width 4, the look-up table on, kmax
1/2. The samples: random directions, denser towards the centre of k-space,
sdc the radius squared, values uniform in [-1, 1). The GPU grid needs 2M a
multiple of 8.
usage: parboil_mrig_input.py M SAMPLES SEED NAME"""
import math
import random
import struct
import sys

m, n, seed, name = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
g = 2 * m
if g % 8:
    sys.exit("parboil_mrig_input: 2M must be a multiple of 8")
rng = random.Random(seed)
with open(name, "w") as f:
    f.write(f"aquisition.numsamples={n}\n")
    f.write("aquisition.kmax=0.500000 0.500000 0.500000\n")
    f.write(f"aquisition.matrixSize={m} {m} {m}\n")
    f.write(f"reconstruction.matrixSize={m} {m} {m}\n")
    f.write(f"gridding.matrixSize={g} {g} {g}\n")
    f.write("gridding.oversampling=2.000000\n")
    f.write("kernel.width=4.000000\n")
    f.write("kernel.useLUT=1\n")
# Denser towards the centre of k-space (radius ~ u^2), but at most 24
# samples per grid cell: binning_kernel gives a bin's first `binsize` (32)
# samples to the GPU in the order its atomics run and the rest to the CPU,
# so a fuller bin makes the result depend on the threads' timing.
cells = {}
scale = g - 1  # readSampleData: floor(k * (2/1) * (g-1)/2 + (g-1)/2)
recs = []
while len(recs) < 6 * n:
    z = rng.uniform(-1, 1)
    a = rng.uniform(0, 2 * math.pi)
    r = 0.5 * 0.999 * rng.random() ** 2
    k = (r * math.sqrt(1 - z * z) * math.cos(a), r * math.sqrt(1 - z * z) * math.sin(a), r * z)
    cell = tuple(math.floor(c * scale + scale / 2) for c in k)
    if cells.get(cell, 0) >= 24:
        continue
    cells[cell] = cells.get(cell, 0) + 1
    recs += [rng.uniform(-1, 1), rng.uniform(-1, 1), *k, max(r * r, 1e-6)]
with open(name + ".data", "wb") as f:
    f.write(struct.pack(f"<{len(recs)}f", *recs))
