#!/usr/bin/env python3
"""Temperature and power grids in Rodinia hotspot's format (one value per
line, row-major), as its data files hold: temperatures around 323-345 K,
power up to a few milliwatts per cell; LAYERS grids for hotspot3D.
usage: hotspot_grid.py N SEED TEMP POWER [LAYERS]"""
import random
import sys

n, seed, temp, power = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
cells = n * n * (int(sys.argv[5]) if len(sys.argv) > 5 else 1)
rng = random.Random(seed)
with open(temp, "w") as f:
    f.writelines(f"{rng.uniform(323.0, 345.0):.6f}\n" for _ in range(cells))
with open(power, "w") as f:
    f.writelines(f"{rng.uniform(0.0, 0.005):.8f}\n" for _ in range(cells))
