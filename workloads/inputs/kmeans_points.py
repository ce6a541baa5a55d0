#!/usr/bin/env python3
"""Points in Rodinia kmeans's input format (as its kdd_cup file: per line
an id and the features, space-separated): clustered around a few random
centres, features in 0..1.  usage: kmeans_points.py POINTS FEATURES SEED OUT"""
import random
import sys

n, d, seed, out = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
rng = random.Random(seed)
centres = [[rng.random() for _ in range(d)] for _ in range(8)]
with open(out, "w") as f:
    for i in range(n):
        c = centres[rng.randrange(len(centres))]
        f.write(f"{i} " + " ".join(f"{min(1.0, max(0.0, x + rng.gauss(0, 0.05))):.4f}" for x in c) + "\n")
