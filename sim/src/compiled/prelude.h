/* warpforge compiled engine: helpers for values wider than 64 bits, as
 * little-endian arrays of 64-bit words (the same routines as sim's wide.rs).
 * Every result is masked to its width. Sizes are compile-time constants at
 * every call, so the compiler unrolls these. */
#include <stdint.h>
typedef uint64_t u64;
typedef int64_t i64;
typedef unsigned __int128 u128;
#define WF static inline __attribute__((always_inline))

/* len <= 64 bits of a (na words) from bit pos; bits past the end read 0. */
WF u64 wf_get(const u64 *a, unsigned na, unsigned pos, unsigned len) {
    unsigned w = pos / 64, o = pos % 64;
    u64 lo = w < na ? a[w] >> o : 0;
    u64 hi = (o != 0 && w + 1 < na) ? a[w + 1] << (64 - o) : 0;
    u64 v = lo | hi;
    return len >= 64 ? v : v & ((1ull << len) - 1);
}

/* Write the low len <= 64 bits of x into d at bit pos. */
WF void wf_set(u64 *d, unsigned pos, unsigned len, u64 x) {
    unsigned w = pos / 64, o = pos % 64;
    u64 m = len >= 64 ? ~0ull : (1ull << len) - 1;
    x &= m;
    d[w] = (d[w] & ~(m << o)) | (x << o);
    if (o != 0 && o + len > 64) {
        u64 m2 = m >> (64 - o), x2 = x >> (64 - o);
        d[w + 1] = (d[w + 1] & ~m2) | x2;
    }
}

/* Copy n bits of s (ns words) from bit slo to d at bit dlo. */
WF void wf_copy_bits(u64 *d, unsigned dlo, const u64 *s, unsigned ns, unsigned slo, unsigned n) {
    for (unsigned done = 0; done < n; done += 64) {
        unsigned len = n - done < 64 ? n - done : 64;
        wf_set(d, dlo + done, len, wf_get(s, ns, slo + done, len));
    }
}

WF void wf_zero(u64 *d, unsigned n) {
    for (unsigned i = 0; i < n; i++) d[i] = 0;
}

WF void wf_copy(u64 *d, const u64 *a, unsigned n) {
    for (unsigned i = 0; i < n; i++) d[i] = a[i];
}

WF void wf_add(u64 *d, const u64 *a, const u64 *b, unsigned n, u64 tm) {
    u64 c = 0;
    for (unsigned i = 0; i < n; i++) {
        u128 t = (u128)a[i] + b[i] + c;
        d[i] = (u64)t;
        c = (u64)(t >> 64);
    }
    d[n - 1] &= tm;
}

WF void wf_sub(u64 *d, const u64 *a, const u64 *b, unsigned n, u64 tm) {
    u64 br = 0;
    for (unsigned i = 0; i < n; i++) {
        u128 t = (u128)a[i] - b[i] - br;
        d[i] = (u64)t;
        br = (u64)(t >> 64) & 1;
    }
    d[n - 1] &= tm;
}

/* d (nd words) = a * b truncated to nd words, top word masked. */
WF void wf_mul(u64 *d, unsigned nd, const u64 *a, unsigned na, const u64 *b, unsigned nb, u64 tm) {
    for (unsigned i = 0; i < nd; i++) d[i] = 0;
    for (unsigned i = 0; i < na; i++) {
        u64 c = 0;
        unsigned j = 0;
        for (; j < nb && i + j < nd; j++) {
            u128 t = (u128)d[i + j] + (u128)a[i] * b[j] + c;
            d[i + j] = (u64)t;
            c = (u64)(t >> 64);
        }
        for (unsigned k = i + j; c != 0 && k < nd; k++) {
            u128 t = (u128)d[k] + c;
            d[k] = (u64)t;
            c = (u64)(t >> 64);
        }
    }
    d[nd - 1] &= tm;
}

WF int wf_eq(const u64 *a, const u64 *b, unsigned n) {
    u64 x = 0;
    for (unsigned i = 0; i < n; i++) x |= a[i] ^ b[i];
    return x == 0;
}

/* -1, 0, 1 */
WF int wf_cmpu(const u64 *a, const u64 *b, unsigned n) {
    for (unsigned i = n; i-- > 0;) {
        if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
    }
    return 0;
}

WF int wf_cmps(const u64 *a, const u64 *b, unsigned n, unsigned w) {
    int sa = (int)wf_get(a, n, w - 1, 1), sb = (int)wf_get(b, n, w - 1, 1);
    if (sa != sb) return sa ? -1 : 1;
    return wf_cmpu(a, b, n);
}

/* A shift amount, saturated to UINT64_MAX when it does not fit a word. */
WF u64 wf_amount(const u64 *a, unsigned n) {
    u64 hi = 0;
    for (unsigned i = 1; i < n; i++) hi |= a[i];
    return hi ? ~0ull : a[0];
}

WF void wf_shl(u64 *d, const u64 *a, u64 amt, unsigned w, unsigned n, u64 tm) {
    wf_zero(d, n);
    if (amt < w) wf_copy_bits(d, (unsigned)amt, a, n, 0, w - (unsigned)amt);
    d[n - 1] &= tm;
}

WF void wf_shr(u64 *d, const u64 *a, u64 amt, unsigned w, unsigned n) {
    wf_zero(d, n);
    if (amt < w) wf_copy_bits(d, 0, a, n, (unsigned)amt, w - (unsigned)amt);
}

WF void wf_sra(u64 *d, const u64 *a, u64 amt, unsigned w, unsigned n) {
    int neg = (int)wf_get(a, n, w - 1, 1);
    unsigned s = amt < w ? (unsigned)amt : w;
    wf_shr(d, a, s, w, n);
    if (neg) {
        for (unsigned p = w - s; p < w; p += 64) {
            unsigned len = w - p < 64 ? w - p : 64;
            wf_set(d, p, len, ~0ull);
        }
    }
}

/* Extend a (wa bits, na words) into d (wd bits, nd words). */
WF void wf_ext(u64 *d, unsigned nd, const u64 *a, unsigned na, unsigned wa, unsigned wd, int sgn) {
    wf_zero(d, nd);
    wf_copy_bits(d, 0, a, na, 0, wa);
    if (sgn && wf_get(a, na, wa - 1, 1)) {
        for (unsigned p = wa; p < wd; p += 64) {
            unsigned len = wd - p < 64 ? wd - p : 64;
            wf_set(d, p, len, ~0ull);
        }
    }
}

WF int wf_any(const u64 *a, unsigned n) {
    u64 x = 0;
    for (unsigned i = 0; i < n; i++) x |= a[i];
    return x != 0;
}

WF int wf_all(const u64 *a, unsigned n, u64 tm) {
    u64 x = ~0ull;
    for (unsigned i = 0; i + 1 < n; i++) x &= a[i];
    return x == ~0ull && a[n - 1] == tm;
}

WF u64 wf_pop(const u64 *a, unsigned n) {
    u64 c = 0;
    for (unsigned i = 0; i < n; i++) c += (u64)__builtin_popcountll(a[i]);
    return c;
}

WF u64 wf_parity(const u64 *a, unsigned n) {
    u64 x = 0;
    for (unsigned i = 0; i < n; i++) x ^= a[i];
    return (u64)__builtin_parityll(x);
}

WF u64 wf_ffs(const u64 *a, unsigned n) {
    for (unsigned i = 0; i < n; i++)
        if (a[i]) return (u64)i * 64 + (u64)__builtin_ctzll(a[i]);
    return 0;
}
