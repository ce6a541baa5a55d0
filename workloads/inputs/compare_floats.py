#!/usr/bin/env python3
"""Two text files of numbers equal within a tolerance: |a - b| <= tol *
max(1, |b|) for every pair (the files must hold the same count).
usage: compare_floats.py TOL GOT WANT [GOT WANT ...]"""
import sys

tol = float(sys.argv[1])
for got_file, want_file in zip(sys.argv[2::2], sys.argv[3::2]):
    got = [float(v) for v in open(got_file).read().split()]
    want = [float(v) for v in open(want_file).read().split()]
    if len(got) != len(want):
        sys.exit(f"{got_file}: {len(got)} numbers, {want_file}: {len(want)}")
    bad = [(k, g, w) for k, (g, w) in enumerate(zip(got, want)) if abs(g - w) > tol * max(1.0, abs(w))]
    if bad:
        k, g, w = bad[0]
        sys.exit(f"{got_file}: {len(bad)} of {len(got)} numbers differ from {want_file} by more than {tol} (first: number {k}, {g} against {w})")
    print(f"{got_file}: {len(got)} numbers within {tol} of {want_file}")
