#!/usr/bin/env python3
"""Rodinia pathfinder's result row (its one copy back to the host) against
the dynamic programme on the same wall (srand(9), rand() % 10): each row
adds its cost to the least of the three cells above.
usage: pathfinder_check.py COLS ROWS RESULT.bin"""
import struct
import sys

import glibc_rand

cols, rows = int(sys.argv[1]), int(sys.argv[2])
glibc_rand.srand(9)
wall = [[glibc_rand.rand() % 10 for _ in range(cols)] for _ in range(rows)]
cost = wall[0][:]
for t in range(1, rows):
    cost = [wall[t][j] + min(cost[max(j - 1, 0)], cost[j], cost[min(j + 1, cols - 1)]) for j in range(cols)]
data = open(sys.argv[3], "rb").read()
got = list(struct.unpack(f"<{len(data) // 4}i", data))
if got != cost:
    bad = next((j for j in range(min(len(got), cols)) if got[j] != cost[j]), None)
    sys.exit(f"pathfinder: {len(got)} costs for {cols} columns; first difference at column {bad}")
print(f"pathfinder: all {cols} path costs equal the reference")
