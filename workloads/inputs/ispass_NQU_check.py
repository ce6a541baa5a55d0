#!/usr/bin/env python3
"""ISPASS-2009 NQU (nqueen.cu): the counts of solutions it prints for its
CPU and GPU solvers, both against a backtracking count here.
usage: ispass_NQU_check.py STDOUT"""
import re
import sys


def count(n, row=0, cols=0, d1=0, d2=0):
    if row == n:
        return 1
    total = 0
    free = ~(cols | d1 | d2) & ((1 << n) - 1)
    while free:
        bit = free & -free
        free ^= bit
        total += count(n, row + 1, cols | bit, ((d1 | bit) << 1) & ((1 << n) - 1), (d2 | bit) >> 1)
    return total


out = open(sys.argv[1]).read()
found = re.findall(r"^(CPU|GPU): (\d+) queen = (\d+)", out, re.M)
if not any(who == "GPU" for who, _, _ in found):
    sys.exit(f"NQU: no `GPU: N queen = ...` line in {sys.argv[1]}")
for who, n, got in found:
    ref = count(int(n))
    if int(got) != ref:
        sys.exit(f"NQU: {who} counts {got} solutions of {n} queens, the reference {ref}")
print("NQU: " + ", ".join(f"{who} {n} queens = {got}" for who, n, got in found) + ", as the reference")
