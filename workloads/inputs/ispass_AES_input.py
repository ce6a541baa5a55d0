#!/usr/bin/env python3
"""Random bytes for ISPASS-2009 AES to encrypt (it takes any file; upstream
runs it on data/output.bmp).
usage: ispass_AES_input.py BYTES SEED OUT"""
import random
import sys

n, seed, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
rng = random.Random(seed)
open(out, "wb").write(bytes(rng.getrandbits(8) for _ in range(n)))
