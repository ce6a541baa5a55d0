#!/usr/bin/env python3
"""ISPASS-2009 LPS (laplace3d.cu) compares the GPU's grid with its CPU
version (Gold_laplace3d) and prints the root mean square difference; it
must be (close to) zero: at most 1e-6, the grid's values being in [0, 1].
usage: ispass_LPS_check.py STDOUT"""
import re
import sys

m = re.search(r"rms error = (\S+)", open(sys.argv[1]).read())
if not m:
    sys.exit(f"LPS: no `rms error = ...` line in {sys.argv[1]}")
if not float(m.group(1)) <= 1e-6:
    sys.exit(f"LPS: rms error {m.group(1)} between the GPU's grid and the CPU's (at most 1e-6 expected)")
print(f"LPS: rms error {m.group(1)} between the GPU's grid and the CPU's")
