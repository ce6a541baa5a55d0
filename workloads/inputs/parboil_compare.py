#!/usr/bin/env python3
"""Parboil's tools/compare-output (python2, one per benchmark, on
common/python/filecompare.py) ported: the output file of the CUDA program
against the output of the benchmark's CPU version, with upstream's
tolerances. Exit 0 and one line when they agree, else one line saying where
they differ and a non-zero exit.
usage: parboil_compare.py MODE REFERENCE OUTPUT
modes: sgemm spmv stencil histo lbm mri-q cutcp tpacf mri-gridding
(mri-gridding's REFERENCE is not read: pass -)"""
import struct
import sys


class Mismatch(Exception):
    pass


def floats_close(ref, got, what, abstol, rtol, strict_abs=False):
    """|r - c| <= abstol (< when strict_abs) or |r - c| < rtol * |r|, for
    every pair; equal counts."""
    if len(ref) != len(got):
        raise Mismatch(f"{what}: {len(got)} values, the reference has {len(ref)}")
    for i, (r, c) in enumerate(zip(ref, got)):
        d = abs(r - c)
        ok_abs = d < abstol if strict_abs else d <= abstol
        if not (ok_abs or d < rtol * abs(r)):
            raise Mismatch(f"{what}: value {i} is {c!r}, the reference {r!r} (tolerance {abstol:g} or {rtol:g} relative)")
    return len(ref)


class Binary:
    def __init__(self, path):
        self.data = open(path, "rb").read()
        self.at = 0
        self.path = path

    def take(self, n):
        if self.at + n > len(self.data):
            raise Mismatch(f"{self.path}: ends early (byte {len(self.data)}, {n} more expected at {self.at})")
        b = self.data[self.at:self.at + n]
        self.at += n
        return b

    def u32(self):
        return struct.unpack("<I", self.take(4))[0]

    def i32(self):
        return struct.unpack("<i", self.take(4))[0]

    def f32(self, n=None):
        if n is None:
            return struct.unpack("<f", self.take(4))[0]
        return list(struct.unpack(f"<{n}f", self.take(4 * n)))

    def rest(self):
        return len(self.data) - self.at

    def eof(self):
        if self.rest():
            raise Mismatch(f"{self.path}: {self.rest()} bytes after the expected end")


def both(ref, out):
    return Binary(ref), Binary(out)


def same(a, b, what):
    if a != b:
        raise Mismatch(f"{what}: {b}, the reference {a}")
    return a


def sgemm(ref, out):
    # A text line "rows cols c0 c1 ..." (column-major C): every number within
    # 0.01 or 1 %, then the end of the file.
    r, o = open(ref), open(out)
    rv = [float(x) for x in r.readline().split()]
    ov = [float(x) for x in o.readline().split()]
    same(rv[:2], ov[:2], "rows, columns")
    n = floats_close(rv[2:], ov[2:], "C (column-major)", 0.01, 0.01, strict_abs=True)
    if r.readline() != "" or o.readline() != "":
        raise Mismatch("more than one line")
    return f"{n} elements of C within 0.01 or 1 %"


def count_then_floats(ref, out, per, abstol_of_max, rtol, what):
    r, o = both(ref, out)
    n = same(r.u32(), o.u32(), f"{what}: count")
    rv, ov = r.f32(per * n), o.f32(per * n)
    abstol = abstol_of_max * max((abs(x) for x in rv), default=0.0)
    floats_close(rv, ov, what, abstol, rtol)
    r.eof()
    o.eof()
    return per * n, abstol


def spmv(ref, out):
    n, tol = count_then_floats(ref, out, 1, 1e-4, 0.002, "Ax")
    return f"{n} elements of Ax within {tol:g} (1e-4 of the largest) or 0.2 %"


def mri_q(ref, out):
    # The count, then the real parts, then the imaginary parts of Q.
    n, tol = count_then_floats(ref, out, 2, 1e-4, 0.002, "Q")
    return f"{n // 2} complex elements of Q within {tol:g} (1e-4 of the largest) or 0.2 %"


def stencil(ref, out):
    # Upstream's loop steps through the first `size` bytes only (a quarter
    # of the grid); this compares every point, with its tolerances.
    r, o = both(ref, out)
    n = same(r.i32(), o.i32(), "grid size")
    if r.rest() != 4 * n or o.rest() != 4 * n:
        raise Mismatch(f"{4 * n} bytes of grid expected: the reference has {r.rest()}, the output {o.rest()}")
    floats_close(r.f32(n), o.f32(n), "grid", 0.001, 0.002)
    return f"{n} grid points within 0.001 or 0.2 %"


def histo(ref, out):
    a, b = open(ref, "rb").read(), open(out, "rb").read()
    if a != b:
        at = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), min(len(a), len(b)))
        raise Mismatch(f"the images differ ({len(b)} bytes, the reference {len(a)}; first at byte {at})")
    return f"the {len(a)}-byte histogram images are identical"


def lbm(ref, out):
    # Upstream reads 3*150*120*120 floats (its datasets' lattice); here the
    # whole file, which must be of the same length.
    r, o = both(ref, out)
    if r.rest() != o.rest() or r.rest() % 4:
        raise Mismatch(f"{o.rest()} bytes, the reference {r.rest()}")
    n = r.rest() // 4
    rv, ov = r.f32(n), o.f32(n)
    tol = 1e-3 * max((abs(x) for x in rv), default=0.0)
    floats_close(rv, ov, "flow volume", tol, 0.002)
    return f"{n} values of the flow within {tol:g} (1e-3 of the largest) or 0.2 %"


def cutcp(ref, out):
    r, o = both(ref, out)
    a, b = r.f32(), o.f32()
    # The sum of |potential| over the lattice within 0.25 %.
    if abs(a - b) / a > 0.0025:
        raise Mismatch(f"sum of |potential| {b!r}, the reference {a!r} (0.25 % allowed)")
    n = same(r.u32(), o.u32(), "plane size")
    rv, ov = r.f32(2 * n), o.f32(2 * n)
    # Two planes of the lattice: upstream's test, 0.005 * |c - r| <= |r|.
    for i, (x, y) in enumerate(zip(rv, ov)):
        if 0.005 * abs(y - x) > abs(x):
            raise Mismatch(f"plane point {i} is {y!r}, the reference {x!r}")
    r.eof()
    o.eof()
    return f"sum of |potential| {b:g} (reference {a:g}) and {2 * n} plane points agree"


def tpacf(ref, out):
    rv = [float(x) for x in open(ref).read().split()]
    ov = [float(x) for x in open(out).read().split()]

    def bins(lo, hi, rtol, atol):
        for i, (x, y) in list(enumerate(zip(rv, ov)))[lo:hi]:
            d = abs(x - y)
            if d > rtol * x and d > atol:
                raise Mismatch(f"histogram value {i} is {y:g}, the reference {x:g} (tolerance {rtol:g} relative or {atol:g})")

    bins(0, 3, 0.10, 3)
    bins(3, 6, 0.35, 20)
    bins(6, 9, 0.05, 10)
    bins(9, 12, 0.02, 10)
    bins(12, 21, 0.01, 10)
    bins(21, 32, 0.001, 10)
    bins(32, None, 0.001, 10000)
    full = sum(rv) - sum(ov)
    if full > 0.0001 * sum(rv):
        raise Mismatch(f"the output's counts sum to {sum(ov):g}, the reference's to {sum(rv):g}")
    return f"{len(ov)} histogram values within the per-bin tolerances"


def mri_gridding(ref, out):
    # The program compares its GPU sample densities with its own CPU
    # (gold) gridding and writes 1 when they are equal; the reference file
    # is not read (upstream's compare-output reads one word of it, unused).
    r = Binary(out)
    flag = r.i32()
    if flag != 1:
        raise Mismatch(f"the program's own comparison with its CPU gridding wrote {flag}, not 1")
    return "the program's GPU sample densities equal its CPU (gold) gridding's"


MODES = {"sgemm": sgemm, "spmv": spmv, "stencil": stencil, "histo": histo, "lbm": lbm,
         "mri-q": mri_q, "cutcp": cutcp, "tpacf": tpacf, "mri-gridding": mri_gridding}

if len(sys.argv) != 4 or sys.argv[1] not in MODES:
    sys.exit(__doc__.strip())
mode = sys.argv[1]
try:
    print(f"parboil {mode}: {MODES[mode](sys.argv[2], sys.argv[3])}")
except (Mismatch, OSError, ValueError) as e:
    sys.exit(f"parboil {mode}: {e}")
