#!/usr/bin/env python3
"""Rodinia bfs's result.txt against a breadth-first search from the source
(bfs.cu's cost: the level, -1 where unreachable).
usage: bfs_check.py GRAPH RESULT"""
import collections
import sys

words = open(sys.argv[1]).read().split()
n = int(words[0])
nodes = [(int(words[1 + 2 * i]), int(words[2 + 2 * i])) for i in range(n)]
at = 1 + 2 * n
source, edges = int(words[at]), int(words[at + 1])
dest = [int(words[at + 2 + 2 * e]) for e in range(edges)]
cost = [-1] * n
cost[source] = 0
q = collections.deque([source])
while q:
    u = q.popleft()
    s, d = nodes[u]
    for v in dest[s:s + d]:
        if cost[v] < 0:
            cost[v] = cost[u] + 1
            q.append(v)
got = [int(line.split("cost:")[1]) for line in open(sys.argv[2]) if "cost:" in line]
if got != cost:
    bad = next(i for i in range(min(len(got), n)) if got[i] != cost[i]) if len(got) == n else None
    sys.exit(f"bfs: {len(got)} costs for {n} nodes; first difference at node {bad}")
print(f"bfs: all {n} costs equal the reference")
