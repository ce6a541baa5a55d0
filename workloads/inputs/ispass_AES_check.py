#!/usr/bin/env python3
"""ISPASS-2009 AES's encrypted file (output_0.dat) against AES (FIPS-197)
in ECB mode computed here: the input padded as aesCudaUtils.cpp pads it
(PKCS#7: 1 to 16 bytes of the pad length), the key the 16 or 32 hex
numbers of the key file.
usage: ispass_AES_check.py BITS INPUT KEYFILE OUTPUT"""
import sys

bits, inp, keyfile, out = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]


def xtime(a):
    return ((a << 1) ^ 0x1B) & 0xFF if a & 0x80 else a << 1


def gmul(a, b):
    r = 0
    while b:
        if b & 1:
            r ^= a
        a, b = xtime(a), b >> 1
    return r


# The S-box from the multiplicative inverse and the affine map.
SBOX = [0] * 256
for x in range(256):
    inv = next((y for y in range(1, 256) if gmul(x, y) == 1), 0) if x else 0
    s = inv
    for k in range(1, 5):
        s ^= ((inv << k) | (inv >> (8 - k))) & 0xFF
    SBOX[x] = s ^ 0x63


def expand(key):
    nk = len(key) // 4
    rounds = nk + 6
    w = [list(key[4 * i:4 * i + 4]) for i in range(nk)]
    rcon = 1
    for i in range(nk, 4 * (rounds + 1)):
        t = list(w[i - 1])
        if i % nk == 0:
            t = [SBOX[b] for b in t[1:] + t[:1]]
            t[0] ^= rcon
            rcon = xtime(rcon)
        elif nk > 6 and i % nk == 4:
            t = [SBOX[b] for b in t]
        w.append([a ^ b for a, b in zip(w[i - nk], t)])
    return [sum(w[4 * r:4 * r + 4], []) for r in range(rounds + 1)]


def encrypt(block, rk):
    s = [b ^ k for b, k in zip(block, rk[0])]
    for r in range(1, len(rk)):
        s = [SBOX[b] for b in s]
        s = [s[(i + 4 * (i % 4)) % 16] for i in range(16)]  # ShiftRows (column-major state)
        if r != len(rk) - 1:
            m = []
            for c in range(4):
                a = s[4 * c:4 * c + 4]
                m += [gmul(a[0], 2) ^ gmul(a[1], 3) ^ a[2] ^ a[3], a[0] ^ gmul(a[1], 2) ^ gmul(a[2], 3) ^ a[3],
                      a[0] ^ a[1] ^ gmul(a[2], 2) ^ gmul(a[3], 3), gmul(a[0], 3) ^ a[1] ^ a[2] ^ gmul(a[3], 2)]
            s = m
        s = [b ^ k for b, k in zip(s, rk[r])]
    return bytes(s)


# FIPS-197 appendix C.1, to be sure of the implementation.
assert encrypt(bytes.fromhex("00112233445566778899aabbccddeeff"), expand(bytes(range(16)))).hex() == "69c4e0d86a7b0430d8cdb78070b4c55a"

key = bytes(int(w, 16) for w in open(keyfile).read().split()[:bits // 8])
data = open(inp, "rb").read()
pad = 16 - len(data) % 16
data += bytes([pad]) * pad
rk = expand(key)
ref = b"".join(encrypt(data[i:i + 16], rk) for i in range(0, len(data), 16))
got = open(out, "rb").read()
if len(got) != len(ref):
    sys.exit(f"AES: {out} has {len(got)} bytes, the padded input {len(ref)}")
if got != ref:
    i = next(i for i in range(len(ref)) if got[i] != ref[i])
    sys.exit(f"AES: block {i // 16} (byte {i}) differs from AES-{bits} ECB of the padded input")
print(f"AES: {len(ref) // 16} blocks equal AES-{bits} ECB of the padded input")
