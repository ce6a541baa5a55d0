#!/usr/bin/env python3
"""A grid for Parboil stencil (main.cu's read_data): NX*NY*NZ raw
little-endian floats, x fastest, no header, as its datasets'
128x128x32.bin and 512x512x64x100.bin hold. Values uniform in [0, 1).
usage: parboil_stencil_input.py NX NY NZ SEED OUT"""
import random
import struct
import sys

nx, ny, nz, seed = (int(a) for a in sys.argv[1:5])
rng = random.Random(seed)
with open(sys.argv[5], "wb") as f:
    for _ in range(nz):
        f.write(struct.pack(f"<{nx * ny}f", *(rng.random() for _ in range(nx * ny))))
