#!/usr/bin/env python3
"""Rodinia kmeans -o: the printed centroids against Lloyd's algorithm as
its host code runs it (kmeans_clustering.c: the first K points as the
initial centres, each point to its nearest centre by squared distance, the
lowest index on ties, centres moved to their points' mean, until no point
moves or 500 rounds), in double precision; within 0.011 (the output has two
decimals).  usage: kmeans_check.py POINTS K STDOUT"""
import sys

points = [[float(v) for v in line.split()[1:]] for line in open(sys.argv[1]) if line.strip()]
k = int(sys.argv[2])
centres = [p[:] for p in points[:k]]
membership = [-1] * len(points)
for _ in range(501):
    moved = 0
    sums = [[0.0] * len(points[0]) for _ in range(k)]
    counts = [0] * k
    for i, p in enumerate(points):
        dist = [sum((a - b) ** 2 for a, b in zip(p, c)) for c in centres]
        best = dist.index(min(dist))
        moved += best != membership[i]
        membership[i] = best
        counts[best] += 1
        sums[best] = [s + a for s, a in zip(sums[best], p)]
    centres = [[s / counts[c] for s in sums[c]] if counts[c] else centres[c] for c in range(k)]
    if moved <= 0.001:
        break
text = open(sys.argv[3]).read().split("Centroid Coordinates")[1]
got = []
for line in text.splitlines():
    if ":" in line and line.split(":")[0].strip().isdigit():
        got.append([float(v) for v in line.split(":")[1].split()])
if len(got) != k:
    sys.exit(f"kmeans: {len(got)} centroids printed for {k}")
worst = max(abs(g - w) for gc, wc in zip(got, centres) for g, w in zip(gc, wc))
if worst > 0.011:
    sys.exit(f"kmeans: a centroid coordinate differs from the reference by {worst:.3f}")
print(f"kmeans: {k} centroids within {worst:.3f} of the reference")
