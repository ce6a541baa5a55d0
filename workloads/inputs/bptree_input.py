#!/usr/bin/env python3
"""Rodinia b+tree's inputs: the key file (the count, then the keys: N
distinct numbers drawn from 0..2N-1, so that about half of the queried keys
are absent) and a command file of `k` queries (key lookups).
usage: bptree_input.py N QUERIES SEED KEYS COMMANDS"""
import random
import sys

n, queries, seed = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
rng = random.Random(seed)
keys = rng.sample(range(2 * n), n)
with open(sys.argv[4], "w") as f:
    f.write(f"{n}\n")
    f.writelines(f"{k}\n" for k in keys)
with open(sys.argv[5], "w") as f:
    f.write(f"k {queries}\n")
