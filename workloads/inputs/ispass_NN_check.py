#!/usr/bin/env python3
"""ISPASS-2009 NN's output layer (the 10 x COUNT floats it copies back,
d2h/00001.bin) against its four layers (NN_kernel.cu) computed here in
double precision from the same weights and images (each within 1e-3;
the outputs are 1.7159 tanh(2/3 x), in [-1.72, 1.72]).
usage: ispass_NN_check.py DATA_DIR COUNT OUTPUT_LAYER"""
import math
import struct
import sys

data, count, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]


def floats(name, n):
    raw = open(f"{data}/{name}", "rb").read(4 * n)
    if len(raw) != 4 * n:
        sys.exit(f"NN: {data}/{name} holds fewer than {n} floats")
    return struct.unpack(f"<{n}f", raw)


w1, w2, w3, w4 = floats("lw1.wei", 156), floats("lw2.wei", 7800), floats("lw3.wei", 125100), floats("lw4.wei", 1010)
raw = open(f"{data}/t10k-images-idx3-ubyte", "rb").read()
act = lambda x: 1.7159 * math.tanh(0.66666667 * x)
K1 = [(i // 5) * 29 + i % 5 for i in range(25)]
K2 = [(i // 5) * 13 + i % 5 for i in range(25)]
got = struct.unpack(f"<{10 * count}f", open(path, "rb").read(40 * count))
for img in range(count):
    pix = raw[16 + 784 * img:16 + 784 * (img + 1)]
    l1 = [1.0] * (29 * 29)
    for i in range(28):
        for j in range(28):
            l1[i * 29 + j] = 1.0 - pix[i * 28 + j] / 256
    l2 = [0.0] * (6 * 169)
    for b in range(6):
        wb = w1[b * 26:b * 26 + 26]
        for py in range(13):
            for px in range(13):
                base = 2 * py * 29 + 2 * px
                l2[169 * b + 13 * py + px] = act(wb[0] + sum(l1[base + K1[i]] * wb[1 + i] for i in range(25)))
    l3 = [0.0] * 1250
    for b in range(50):
        wb = w2[b * 156:b * 156 + 156]
        for py in range(5):
            for px in range(5):
                base = 2 * px + 13 * 2 * py
                r = wb[0]
                for i in range(25):
                    o = base + K2[i]
                    r += sum(l2[c * 169 + o] * wb[1 + 6 * i + c] for c in range(6))
                l3[25 * b + 5 * py + px] = act(r)
    l4 = [act(w3[b * 1251] + sum(x * w for x, w in zip(l3, w3[b * 1251 + 1:b * 1251 + 1251]))) for b in range(100)]
    l5 = [act(w4[b * 101] + sum(x * w for x, w in zip(l4, w4[b * 101 + 1:b * 101 + 101]))) for b in range(10)]
    for b in range(10):
        if abs(got[10 * img + b] - l5[b]) > 1e-3:
            sys.exit(f"NN: image {img} output {b} is {got[10 * img + b]}, the reference {l5[b]:.6f} (tolerance 1e-3)")
print(f"NN: the 10 outputs of {count} images as the reference")
