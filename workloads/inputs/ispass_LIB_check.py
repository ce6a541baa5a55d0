#!/usr/bin/env python3
"""ISPASS-2009 LIB (libor.cu) against its kernels' arithmetic in double
precision: every Monte Carlo path starts from the same state (z = 0.3,
L = 0.05, as the kernels set them), so the averages the program prints are
one path's portfolio value v (without and with the Greeks kernel) and its
sensitivity Lb = L_b[NN-1]. In the Greeks kernel L_b is the array L itself
(float *L_b = L): portfolio_b's reads of L see its own writes, as here.
usage: ispass_LIB_check.py STDOUT"""
import math
import re
import sys

NN, NMAT, NOPT = 80, 40, 15
DELTA = 0.25
MATURITIES = [4, 4, 4, 8, 8, 8, 20, 20, 20, 28, 28, 28, 40, 40, 40]
SWAPRATES = [.045, .05, .055, .045, .05, .055, .045, .05, .055, .045, .05, .055, .045, .05, .055]
LAMBDA = [0.2] * NN
N, Nmat, Nopt = NN, NMAT, NOPT


def path_calc(L, z, L2=None):
    if L2 is not None:
        L2[:N] = L[:N]
    for n in range(Nmat):
        sqez = math.sqrt(DELTA) * z[n]
        v = 0.0
        for i in range(n + 1, N):
            lam = LAMBDA[i - n - 1]
            con1 = DELTA * lam
            v += con1 * L[i] / (1.0 + DELTA * L[i])
            vrat = math.exp(con1 * v + lam * (sqez - 0.5 * con1))
            L[i] = L[i] * vrat
            if L2 is not None:
                L2[i + (n + 1) * N] = L[i]


def path_calc_b2(L_b, z, L2):
    for n in range(Nmat - 1, -1, -1):
        v1 = 0.0
        for i in range(N - 1, n, -1):
            v1 += LAMBDA[i - n - 1] * L2[i + (n + 1) * N] * L_b[i]
            faci = DELTA / (1.0 + DELTA * L2[i + n * N])
            L_b[i] = L_b[i] * (L2[i + (n + 1) * N] / L2[i + n * N]) + v1 * LAMBDA[i - n - 1] * faci * faci


def portfolio_b(L, L_b):
    B, S = [0.0] * Nmat, [0.0] * Nmat
    b, s = 1.0, 0.0
    for m in range(N - Nmat):
        n = m + Nmat
        b = b / (1.0 + DELTA * L[n])
        s = s + DELTA * b
        B[m], S[m] = b, s
    v = 0.0
    B_b, S_b = [0.0] * Nmat, [0.0] * Nmat
    for n in range(Nopt):
        m = MATURITIES[n] - 1
        swapval = B[m] + SWAPRATES[n] * S[m] - 1.0
        if swapval < 0:
            v += -100 * swapval
            S_b[m] += -100 * SWAPRATES[n]
            B_b[m] += -100
    for m in range(N - Nmat - 1, -1, -1):
        n = m + Nmat
        B_b[m] += DELTA * S_b[m]
        L_b[n] = -B_b[m] * B[m] * (DELTA / (1.0 + DELTA * L[n]))
        if m > 0:
            S_b[m - 1] += S_b[m]
            B_b[m - 1] += B_b[m] / (1.0 + DELTA * L[n])
    b = 1.0
    for n in range(Nmat):
        b = b / (1.0 + DELTA * L[n])
    v = b * v
    for n in range(Nmat):
        L_b[n] = -v * DELTA / (1.0 + DELTA * L[n])
    for n in range(Nmat, N):
        L_b[n] = b * L_b[n]
    return v


def portfolio(L):
    B, S = [0.0] * 40, [0.0] * 40
    b, s = 1.0, 0.0
    for n in range(Nmat, N):
        b = b / (1.0 + DELTA * L[n])
        s = s + DELTA * b
        B[n - Nmat], S[n - Nmat] = b, s
    v = 0.0
    for i in range(Nopt):
        m = MATURITIES[i] - 1
        swapval = B[m] + SWAPRATES[i] * S[m] - 1.0
        if swapval < 0:
            v += -100.0 * swapval
    b = 1.0
    for n in range(Nmat):
        b = b / (1.0 + DELTA * L[n])
    return b * v


z = [0.3] * NN
L = [0.05] * NN
path_calc(L, z)
v_plain = portfolio(L)

L = [0.05] * NN
L2 = [0.0] * ((NMAT + 1) * NN)
path_calc(L, z, L2)
v_greeks = portfolio_b(L, L)  # L_b is L
path_calc_b2(L, z, L2)
lb = L[NN - 1]

out = open(sys.argv[1]).read()
vs = [float(x) for x in re.findall(r"^v  =\s*(\S+)", out, re.M)]
lbs = [float(x) for x in re.findall(r"^Lb =\s*(\S+)", out, re.M)]
if len(vs) != 2 or len(lbs) != 1:
    sys.exit(f"LIB: expected two `v  =` lines and one `Lb =` line in {sys.argv[1]}, found {len(vs)} and {len(lbs)}")
for what, got, ref in (("v (no Greeks)", vs[0], v_plain), ("v (Greeks)", vs[1], v_greeks), ("Lb", lbs[0], lb)):
    if abs(got - ref) > 1e-4 * abs(ref):
        sys.exit(f"LIB: {what} is {got}, the reference {ref:.8f} (tolerance 1e-4 relative)")
print(f"LIB: v = {v_plain:.6f}, {v_greeks:.6f} and Lb = {lb:.6f} as the reference")
