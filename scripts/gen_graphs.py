#!/usr/bin/env python3
"""Write the CSR inputs of kernels/spmv.toml and kernels/bfs.toml.

The launch files hold their data inline (values = [...]); this script is how
they were made. The kernels' tests compute the expected output from the
launch file's data with an independent host reference, so regenerating with
other parameters keeps the tests valid. Deterministic (its own LCG)."""
import os

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "kernels")


class Lcg:
    def __init__(self, seed):
        self.s = seed

    def next(self, n):
        self.s = (self.s * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        return (self.s >> 33) % n


def arr(xs, per_line=16):
    lines = []
    for i in range(0, len(xs), per_line):
        lines.append("  " + ", ".join(str(x) for x in xs[i:i + per_line]) + ",")
    return "[\n" + "\n".join(lines) + "\n]"


def spmv():
    rng = Lcg(1)
    rows = 500
    row_ptr, col, val = [0], [], []
    for r in range(rows):
        # Rows of 0 to 12 nonzeros (a few long ones) at distinct sorted columns.
        n = rng.next(13) if rng.next(10) else 20 + rng.next(20)
        cols = sorted({rng.next(rows) for _ in range(n)})
        col += cols
        val += [round((rng.next(2001) - 1000) / 250.0, 3) for _ in cols]
        row_ptr.append(len(col))
    x = [round((rng.next(2001) - 1000) / 100.0, 2) for _ in range(rows)]
    with open(os.path.join(HERE, "spmv.toml"), "w") as f:
        f.write(f"""# y = A x for a {rows} x {rows} CSR matrix with {len(col)} nonzeros
# (rows of 0 to 39 nonzeros); 2 CTAs of 256 threads, one row per thread.
# Data from scripts/gen_graphs.py.
grid = [2]
block = [256]
args = [{rows}, "row_ptr", "col", "val", "x", "y"]

[buffers.row_ptr]
type = "i32"
len = {rows + 1}
init = {{ values = {arr(row_ptr)} }}

[buffers.col]
type = "i32"
len = {len(col)}
init = {{ values = {arr(col)} }}

[buffers.val]
type = "f32"
len = {len(val)}
init = {{ values = {arr(val, 10)} }}

[buffers.x]
type = "f32"
len = {rows}
init = {{ values = {arr(x, 12)} }}

[buffers.y]
type = "f32"
len = {rows}
""")


def bfs():
    rng = Lcg(2)
    nodes = 1000
    adj = [set() for _ in range(nodes)]
    # A random graph of average degree ~3 plus a chain through the first 950
    # nodes (long paths, many levels); the last 50 nodes are only loosely
    # attached, some unreachable.
    for v in range(949):
        adj[v].add(v + 1)
        adj[v + 1].add(v)
    for _ in range(1200):
        a, b = rng.next(950), rng.next(950)
        if a != b:
            adj[a].add(b)
    for _ in range(20):
        a, b = 950 + rng.next(50), 950 + rng.next(50)
        if a != b:
            adj[a].add(b)
    adj[10].add(960)
    row_ptr, edges = [0], []
    for v in range(nodes):
        edges += sorted(adj[v])
        row_ptr.append(len(edges))
    sources = [0, 475, 949, 960]
    ctas = len(sources)
    with open(os.path.join(HERE, "bfs.toml"), "w") as f:
        f.write(f"""# Four breadth-first searches (one per CTA of 256 threads) over a directed
# graph of {nodes} nodes and {len(edges)} edges in CSR form; cost[b * {nodes} + v] is the hop
# count from sources[b] to v, or -1. Data from scripts/gen_graphs.py.
grid = [{ctas}]
block = [256]
args = [{nodes}, "row_ptr", "adj", "sources", "cost", "frontier", "next"]

[buffers.row_ptr]
type = "i32"
len = {nodes + 1}
init = {{ values = {arr(row_ptr)} }}

[buffers.adj]
type = "i32"
len = {len(edges)}
init = {{ values = {arr(edges)} }}

[buffers.sources]
type = "i32"
len = {ctas}
init = {{ values = {sources} }}

[buffers.cost]
type = "i32"
len = {ctas * nodes}

[buffers.frontier]
type = "u8"
len = {ctas * nodes}

[buffers.next]
type = "u8"
len = {ctas * nodes}
""")


spmv()
bfs()
