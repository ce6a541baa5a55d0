#!/usr/bin/env python3
"""Two text files of numbers equal within a tolerance: |a - b| <= tol *
max(1, |b|) for every pair (the files must hold the same count), after
skipping the first SKIP words of each (a header).
usage: compare_floats.py [--skip SKIP] TOL GOT WANT [GOT WANT ...]"""
import sys

args = sys.argv[1:]
skip = 0
if args[0] == "--skip":
    skip, args = int(args[1]), args[2:]
tol = float(args[0])
for got_file, want_file in zip(args[1::2], args[2::2]):
    got = [float(v) for v in open(got_file).read().split()[skip:]]
    want = [float(v) for v in open(want_file).read().split()[skip:]]
    if len(got) != len(want):
        sys.exit(f"{got_file}: {len(got)} numbers, {want_file}: {len(want)}")
    bad = [(k, g, w) for k, (g, w) in enumerate(zip(got, want)) if abs(g - w) > tol * max(1.0, abs(w))]
    if bad:
        k, g, w = bad[0]
        sys.exit(f"{got_file}: {len(bad)} of {len(got)} numbers differ from {want_file} by more than {tol} (first: number {k}, {g} against {w})")
    print(f"{got_file}: {len(got)} numbers within {tol} of {want_file}")
