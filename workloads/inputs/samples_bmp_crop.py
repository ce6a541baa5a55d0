#!/usr/bin/env python3
"""The centre WIDTH x HEIGHT of a 24-bit uncompressed BMP, written as a
24-bit BMP with the plain 54-byte header (BITMAPINFOHEADER), whose pixels
start right after it as the CUDA sample dct8x8's BmpUtil.cpp reads them: a
smaller teapot512.bmp for its small runs (the sample has no size option and
reads the file by that name). WIDTH * 3 must be a multiple of 4 (no row
padding); dct8x8 needs WIDTH a multiple of 32 and HEIGHT of 16.
usage: samples_bmp_crop.py IN.bmp WIDTH HEIGHT OUT.bmp"""
import struct
import sys

src, width, height, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
data = open(src, "rb").read()
if data[:2] != b"BM":
    sys.exit(f"{src}: not a BMP")
offset = struct.unpack_from("<I", data, 10)[0]
w, h, planes, depth, compression = struct.unpack_from("<iiHHI", data, 18)
if depth != 24 or compression != 0:
    sys.exit(f"{src}: {depth}-bit, compression {compression}: only 24-bit uncompressed")
if width * 3 % 4 or width > w or height > abs(h):
    sys.exit(f"{width} x {height}: must fit in {w} x {abs(h)} with WIDTH * 3 a multiple of 4")
stride = (w * 3 + 3) // 4 * 4
x0, y0 = (w - width) // 2, (abs(h) - height) // 2
rows = [data[offset + (y0 + r) * stride + x0 * 3:][: width * 3] for r in range(height)]
pixels = b"".join(rows)
header = b"BM" + struct.pack("<IHHI", 54 + len(pixels), 0, 0, 54)
info = struct.pack("<IiiHHIIiiII", 40, width, height if h > 0 else -height, 1, 24, 0, len(pixels), 2835, 2835, 0, 0)
with open(out, "wb") as f:
    f.write(header + info + pixels)
