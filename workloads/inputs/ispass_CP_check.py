#!/usr/bin/env python3
"""ISPASS-2009 CP's output file against upstream's reference output
(benchmarks/cp/output/short/ref.txt), as its tools/compare-output (python2,
on common/python/filecompare.py) compares them: the parameters line
verbatim, the checksum within 0.5 %, then 17 rows of potentials each within
0.005 or 0.5 %.
usage: ispass_CP_check.py REFERENCE OUTPUT"""
import sys

ref = open(sys.argv[1]).read().split("\n")
got = open(sys.argv[2]).read().split("\n")


def floats(line, path, k):
    try:
        return [float(w) for w in line.split()]
    except ValueError:
        sys.exit(f"CP: line {k + 1} of {path} is not numbers: {line[:60]!r}")


if len(got) < 19:
    sys.exit(f"CP: {sys.argv[2]} has {len(got)} lines, 19 expected")
if ref[0].split() != got[0].split():
    sys.exit(f"CP: parameters `{got[0]}`, the reference `{ref[0]}`")
(r,), (c,) = floats(ref[1], sys.argv[1], 1), floats(got[1], sys.argv[2], 1)
if abs(r - c) > 0.005 * abs(r):
    sys.exit(f"CP: checksum {c}, the reference {r} (tolerance 0.5 %)")
count = 0
for k in range(2, 19):
    rs, cs = floats(ref[k], sys.argv[1], k), floats(got[k], sys.argv[2], k)
    if len(rs) != len(cs):
        sys.exit(f"CP: line {k + 1} has {len(cs)} values, the reference {len(rs)}")
    for i, (r, c) in enumerate(zip(rs, cs)):
        d = abs(r - c)
        if not (d < 0.005 or d < 0.005 * abs(r)):
            sys.exit(f"CP: line {k + 1} value {i} is {c}, the reference {r} (tolerance 0.005 or 0.5 %)")
    count += len(rs)
print(f"CP: parameters, checksum and {count} potentials as the reference")
