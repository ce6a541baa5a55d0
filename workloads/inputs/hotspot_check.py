#!/usr/bin/env python3
"""Rodinia hotspot's output against its stencil iterated on the whole grid
in double precision (calculate_temp's update; at the grid's edges a missing
neighbour is the cell itself).  usage: hotspot_check.py N ITERATIONS TEMP POWER OUT"""
import sys

n, iters = int(sys.argv[1]), int(sys.argv[2])
t = [float(v) for v in open(sys.argv[3]).read().split()]
p = [float(v) for v in open(sys.argv[4]).read().split()]
chip, t_chip, k_si, spec_heat, factor, max_pd, precision, amb = 0.016, 0.0005, 100, 1.75e6, 0.5, 3.0e6, 0.001, 80.0
gh, gw = chip / n, chip / n
cap = factor * spec_heat * t_chip * gw * gh
rx, ry, rz = gw / (2.0 * k_si * t_chip * gh), gh / (2.0 * k_si * t_chip * gw), t_chip / (k_si * gh * gw)
step = precision / (max_pd / (factor * t_chip * spec_heat))
for _ in range(iters):
    new = t[:]
    for r in range(n):
        for c in range(n):
            x = t[r * n + c]
            north, south = t[max(r - 1, 0) * n + c], t[min(r + 1, n - 1) * n + c]
            west, east = t[r * n + max(c - 1, 0)], t[r * n + min(c + 1, n - 1)]
            new[r * n + c] = x + step / cap * (p[r * n + c] + (south + north - 2 * x) / ry + (east + west - 2 * x) / rx + (amb - x) / rz)
    t = new
got = {}
for line in open(sys.argv[5]):
    i, v = line.split()
    got[int(i)] = float(v)
if len(got) != n * n:
    sys.exit(f"hotspot: {len(got)} values for {n * n} cells")
worst = max(abs(got[i] - t[i]) for i in range(n * n))
if worst > 1e-2:
    sys.exit(f"hotspot: a temperature differs from the reference by {worst:.3g} K")
print(f"hotspot: {n * n} temperatures within {worst:.1e} K of the reference")
