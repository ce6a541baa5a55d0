#!/usr/bin/env python3
"""Rodinia b+tree's answers to `k` queries (output.txt) against lookups of
the same keys — main.c draws key i as (int)((rand() / (float)RAND_MAX) *
size) in single precision, glibc's rand() unseeded — in the key file: the
key's value (the key itself) if present, -1 if not.
usage: bptree_check.py KEYS QUERIES OUTPUT"""
import struct
import sys

import glibc_rand


def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


words = open(sys.argv[1]).read().split()
size, present = int(words[0]), set(int(w) for w in words[1:])
queries = int(sys.argv[2])
glibc_rand.srand(1)
want = []
for _ in range(queries):
    key = int(f32(f32(f32(glibc_rand.rand()) / f32(2147483647.0)) * f32(size)))
    want.append(key if key in present else -1)
lines = open(sys.argv[3]).read().split("command: k count=")[1].splitlines()[1:queries + 1]
got = [int(line.split()[1]) for line in lines]
if got != want:
    bad = next((i for i in range(min(len(got), queries)) if got[i] != want[i]), None)
    sys.exit(f"b+tree: {len(got)} answers for {queries} queries; first difference at query {bad}: {got[bad] if bad is not None else ''} against {want[bad] if bad is not None else ''}")
print(f"b+tree: all {queries} answers equal the reference ({sum(v >= 0 for v in want)} found)")
