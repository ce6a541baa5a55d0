#!/usr/bin/env python3
"""A random graph in Rodinia bfs's input format (as its graphgen writes):
the node count, then per node its first edge and degree, the source, the
edge count, then per edge its destination and cost.
usage: bfs_graph.py NODES SEED OUT"""
import random
import sys

n, seed, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
rng = random.Random(seed)
adj = [[] for _ in range(n)]
for u in range(n):
    # graphgen: each node gets a few random neighbours, both directions.
    for _ in range(rng.randint(1, 3)):
        v = rng.randrange(n)
        adj[u].append(v)
        adj[v].append(u)
with open(out, "w") as f:
    f.write(f"{n}\n")
    start = 0
    for u in range(n):
        f.write(f"{start} {len(adj[u])}\n")
        start += len(adj[u])
    f.write("\n0\n\n")
    f.write(f"{start}\n")
    for u in range(n):
        for v in adj[u]:
            f.write(f"{v} {rng.randint(1, 10)}\n")
