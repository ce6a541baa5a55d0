#!/usr/bin/env python3
"""A program's own verification that prints an error figure (hotspot3D's
`Accuracy: e`, the RMSE of its GPU result against its CPU code): the
number after LABEL in the output must be at most MAX.
usage: printed_error.py LABEL MAX STDOUT"""
import sys

label, limit, text = sys.argv[1], float(sys.argv[2]), open(sys.argv[3]).read()
if label not in text:
    sys.exit(f"no `{label}` in the output")
value = float(text.split(label, 1)[1].split()[0])
if not abs(value) <= limit:
    sys.exit(f"`{label}` {value} is more than {limit}")
print(f"{label} {value} (at most {limit})")
