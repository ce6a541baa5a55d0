#!/usr/bin/env python3
"""Handwriting-like digit images in the MNIST test set's file format
(t10k-images-idx3-ubyte: big-endian magic 2051, count, 28 rows, 28
columns, then 28 x 28 bytes per image, 0 background to 255 ink), which
ISPASS-2009 NN reads (data/t10k-images-idx3-ubyte, not in the benchmarks'
repository snapshot). Each image is a digit drawn as seven-segment strokes,
placed, slanted and thickened at random, with some noise.
usage: ispass_NN_images.py COUNT SEED OUT"""
import random
import struct
import sys

count, seed, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
rng = random.Random(seed)
# Segments a..g of a seven-segment digit, as strokes between points of a
# 0..1 x 0..2 box: top, upper right, lower right, bottom, lower left,
# upper left, middle.
SEG = {"a": ((0, 0), (1, 0)), "b": ((1, 0), (1, 1)), "c": ((1, 1), (1, 2)), "d": ((0, 2), (1, 2)),
       "e": ((0, 1), (0, 2)), "f": ((0, 0), (0, 1)), "g": ((0, 1), (1, 1))}
DIGITS = ["abcdef", "bc", "abged", "abgcd", "fgbc", "afgcd", "afgedc", "abc", "abcdefg", "abcdfg"]

with open(out, "wb") as f:
    f.write(struct.pack(">IIII", 2051, count, 28, 28))
    for _ in range(count):
        digit = rng.randrange(10)
        w, h = rng.uniform(7, 11), rng.uniform(8, 10)
        x0, y0 = rng.uniform(6, 20 - w), rng.uniform(3, 25 - 2 * h)
        slant, thick = rng.uniform(-0.25, 0.25), rng.uniform(1.0, 2.0)
        img = [[0.0] * 28 for _ in range(28)]
        for s in DIGITS[digit]:
            (ax, ay), (bx, by) = SEG[s]
            for k in range(41):
                t = k / 40
                py = y0 + h * (ay + (by - ay) * t)
                px = x0 + w * (ax + (bx - ax) * t) + slant * (y0 + 2 * h - py)
                for yy in range(max(0, int(py - 3)), min(28, int(py + 4))):
                    for xx in range(max(0, int(px - 3)), min(28, int(px + 4))):
                        d = ((xx - px) ** 2 + (yy - py) ** 2) ** 0.5
                        img[yy][xx] = max(img[yy][xx], min(1.0, max(0.0, thick - d + 0.5)))
        f.write(bytes(min(255, max(0, int(255 * v + rng.uniform(-8, 8)))) if v > 0 else 0
                      for row in img for v in row))
