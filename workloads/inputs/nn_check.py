#!/usr/bin/env python3
"""Rodinia nn's k nearest records against a scan of the files (nn_cuda.cu's
distance from columns 28-32 and 33-37 of each record).
usage: nn_check.py FILELIST K LAT LNG STDOUT"""
import math
import sys

flist, k, lat, lng, out = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
dists = []
for name in open(flist).read().split():
    for rec in open(name):
        rec = rec[:48]
        dists.append(math.sqrt((lat - float(rec[28:33])) ** 2 + (lng - float(rec[33:38])) ** 2))
want = sorted(dists)[:k]
got = sorted(float(line.split("Distance=")[1]) for line in open(out) if "Distance=" in line)
if len(got) != k or any(abs(g - w) > 1e-3 for g, w in zip(got, want)):
    sys.exit(f"nn: distances {got} against the reference {want}")
print(f"nn: the {k} nearest distances equal the reference")
