#!/usr/bin/env python3
"""A box of water in the PQR format Parboil cutcp reads (readatom.c: "ATOM"
records, of which it takes the coordinates and the charge), as its datasets'
watbox.sl40.pqr and watbox.sl100.pqr (cubes of 40 and 100 Angstroms): TIP3P
molecules (O -0.834, H +0.417, O-H 0.9572 A, H-O-H 104.52 degrees) at
water's density (one per 29.9 A^3) on a jittered cubic lattice, each
randomly oriented. usage: parboil_cutcp_input.py SIDE SEED OUT"""
import math
import random
import sys

side, seed, out = float(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
rng = random.Random(seed)
a = 29.9 ** (1 / 3)  # lattice spacing of one molecule per 29.9 A^3
n = max(1, round(side / a))
bond, half = 0.9572, math.radians(104.52) / 2


def unit():
    while True:
        v = [rng.gauss(0, 1) for _ in range(3)]
        m = math.sqrt(sum(c * c for c in v))
        if m > 1e-6:
            return [c / m for c in v]


lines, serial = [], 0
for k in range(n):
    for j in range(n):
        for i in range(n):
            o = [(c + 0.5) * a + rng.uniform(-0.3, 0.3) for c in (i, j, k)]
            u = unit()  # the molecule's bisector
            w = unit()  # a second direction, made perpendicular to u
            d = sum(p * q for p, q in zip(u, w))
            w = [q - d * p for p, q in zip(u, w)]
            m = math.sqrt(sum(c * c for c in w)) or 1.0
            w = [c / m for c in w]
            res = serial // 3 + 1
            atoms = [("OH2", o, -0.834, 1.7682)]
            for s, name in ((1, "H1"), (-1, "H2")):
                h = [o[c] + bond * (math.cos(half) * u[c] + s * math.sin(half) * w[c]) for c in range(3)]
                atoms.append((name, h, 0.417, 0.2245))
            for name, p, q, r in atoms:
                serial += 1
                lines.append(f"ATOM  {serial:5d}  {name:<3s} TIP3 {res:5d}    {p[0]:8.3f}{p[1]:8.3f}{p[2]:8.3f} {q:7.4f} {r:6.4f}\n")
with open(out, "w") as f:
    f.write(f"REMARK water box {side} A, {serial} atoms (parboil_cutcp_input.py)\n")
    f.writelines(lines)
    f.write("END\n")
