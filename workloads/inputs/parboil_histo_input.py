#!/usr/bin/env python3
"""An input for Parboil histo (main.cu): four little-endian uint32 words,
image width, image height, histogram width, histogram height, then the
image's W*H uint32 values (each a bin index below HW*HH), as its datasets'
img.bin. The values concentrate in the centre of the histogram, as the
benchmark's description says: most a normal spread around the middle bin,
a tenth a few values repeated far past the 8-bit bins' 255, the rest
anywhere (histo_main's global-memory path). The kernels' prescan samples
an eighth of the image with 64 x 512 threads: W*H must be at least 262144.
usage: parboil_histo_input.py W H HW HH SEED OUT"""
import random
import struct
import sys

w, h, hw, hh, seed = (int(a) for a in sys.argv[1:6])
if w * h < 64 * 8 * 512:
    sys.exit("parboil_histo_input: the image needs at least 262144 pixels (histo_prescan_kernel's samples)")
bins = hw * hh
rng = random.Random(seed)
mid, sigma = bins // 2, bins / 64
hot = [mid + rng.randrange(-bins // 16, bins // 16) for _ in range(8)]


def value():
    u = rng.random()
    if u < 0.85:
        return min(bins - 1, max(0, round(rng.gauss(mid, sigma))))
    if u < 0.95:
        return rng.choice(hot)
    return rng.randrange(bins)


with open(sys.argv[6], "wb") as f:
    f.write(struct.pack("<4I", w, h, hw, hh))
    for _ in range(h):
        f.write(struct.pack(f"<{w}I", *(value() for _ in range(w))))
