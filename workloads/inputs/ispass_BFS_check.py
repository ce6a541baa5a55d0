#!/usr/bin/env python3
"""ISPASS-2009 BFS's result.txt against a breadth-first search of its graph
(Rodinia bfs's input format). Its single kernel marks a node's neighbours
for the frontier while other threads of the same launch may still be
reading it, so a node can be reached within one launch through a longer
path than the shortest: its cost is then not its BFS level but, as on a
GPU, the length of some path from the source, which depends on the order
the threads ran in. What holds in any order is checked: the source costs
0, every node reachable from it has a cost at least its BFS level, and
every other node keeps -1.
usage: ispass_BFS_check.py GRAPH RESULT"""
import collections
import sys

words = open(sys.argv[1]).read().split()
n = int(words[0])
nodes = [(int(words[1 + 2 * i]), int(words[2 + 2 * i])) for i in range(n)]
at = 1 + 2 * n
source, edges = int(words[at]), int(words[at + 1])
dest = [int(words[at + 2 + 2 * e]) for e in range(edges)]
level = [-1] * n
level[source] = 0
q = collections.deque([source])
while q:
    u = q.popleft()
    s, d = nodes[u]
    for v in dest[s:s + d]:
        if level[v] < 0:
            level[v] = level[u] + 1
            q.append(v)
got = [int(line.split("cost:")[1]) for line in open(sys.argv[2]) if "cost:" in line]
if len(got) != n:
    sys.exit(f"BFS: {len(got)} costs in {sys.argv[2]} for {n} nodes")
if got[source] != 0:
    sys.exit(f"BFS: the source {source} costs {got[source]}, not 0")
for v in range(n):
    if (got[v] < 0) != (level[v] < 0):
        sys.exit(f"BFS: node {v} costs {got[v]} but is {'un' if level[v] < 0 else ''}reachable from the source")
    if got[v] < level[v]:
        sys.exit(f"BFS: node {v} costs {got[v]}, less than its BFS level {level[v]}")
reached = sum(c >= 0 for c in level)
exact = sum(g == l for g, l in zip(got, level) if l >= 0)
print(f"BFS: {reached} of {n} nodes reached as the reference; {exact} at their BFS level, none below")
