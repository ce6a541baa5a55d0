#!/usr/bin/env python3
"""Inputs for Parboil tpacf (model_io.cc's readdatafile: per line a right
ascension and a declination in degrees): the observed points Datapnts.1 and
SETS random catalogues Randompnts.1 ... Randompnts.SETS, POINTS lines each,
as its datasets hold (small: 100 sets of 487 points, medium 4096, large
10391). The random points are uniform over a patch of sky (right ascension
0-90, declination -30-30 degrees); the observed ones a third in a few
clusters, the rest uniform over the same patch.
usage: parboil_tpacf_input.py SETS POINTS SEED"""
import math
import random
import sys

sets, points, seed = (int(a) for a in sys.argv[1:4])
rng = random.Random(seed)
s0, s1 = math.sin(math.radians(-30)), math.sin(math.radians(30))


def uniform():
    return rng.uniform(0, 90), math.degrees(math.asin(rng.uniform(s0, s1)))


def write(name, pts):
    with open(name, "w") as f:
        f.writelines(f"{ra:.6f} {dec:.6f}\n" for ra, dec in pts)


centres = [uniform() for _ in range(12)]
data = []
for _ in range(points):
    if rng.random() < 1 / 3:
        ra, dec = rng.choice(centres)
        dec = max(-89.9, min(89.9, dec + rng.gauss(0, 0.5)))
        data.append(((ra + rng.gauss(0, 0.5) / math.cos(math.radians(dec))) % 360, dec))
    else:
        data.append(uniform())
write("Datapnts.1", data)
for s in range(1, sets + 1):
    write(f"Randompnts.{s}", [uniform() for _ in range(points)])
