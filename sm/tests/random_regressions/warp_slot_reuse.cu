// Regression (random kernel seed 6 of kernel::gen, kept as generated): warp 2
// of each 250-thread CTA returns before the barriers. On an SM with 16 warp
// slots, a new CTA reused that exited warp's slot while the old CTA still ran,
// and the old CTA's barrier release cleared the new warp's barrier wait: the
// new CTA's warp read shared memory before its neighbours had written it.
// warpforge random kernel, seed 6 size 0 (kernel::gen). Deterministic under any
// interleaving: own output slots, read-only inputs, commutative integer
// atomics, shared memory read only after a barrier, barriers in CTA-uniform code.
__global__ void random_kernel(const int *gi, const float *gf, const int *ix, int *oi, float *of, int *cnt, unsigned n, unsigned p) {
  __shared__ volatile int si[250];
  __shared__ volatile float sf[250];
  const unsigned tid = threadIdx.x;
  const unsigned bid = blockIdx.x;
  const unsigned gid = bid * 250u + tid;
  unsigned a0 = tid * 4u + p;
  unsigned a1 = (unsigned)ix[gid % 32u];
  float f0 = (float)(int)(tid % 17u) * 3.0f;
  si[0u + tid] = (int)(a0);
  sf[tid] = gf[(tid) % 256u];
  if ((tid >> 5) == 2u) return;
  a1 -= ((unsigned)gi[(gid * 2u + 61u) % 500u] % (((f0 < fminf(f0, 1.25f) ? bid : threadIdx.x) * 61u) | 1u));
  unsigned w1 = ((unsigned)gi[(gid * 8u + 59u) % 500u]) % 3u;
  do {
    if ((unsigned)si[0u + tid] <= ((a1 ^ tid) ^ (unsigned)gi[(gid * 1u + 43u) % 500u])) {
      for (unsigned i2 = 0, e3 = ((unsigned)ix[((a0 >> (tid & 31u))) % 32u]) % 2u + 1u; i2 < e3; ++i2) {
        if (gid < 1120u) {
          a1 -= (unsigned)gi[(unsigned)ix[(gid + 14u) % 32u] % 500u];
          if ((min(a1, 27u) % 2u == 0u) && (tid % 3u == 0u)) break;
        } else {
          of[gid * 2u + 1u] = fmaf(f0, fminf(f0, f0), f0);
          sf[tid] = (sqrtf(fabsf(f0)) - f0);
        }
        oi[gid * 2u + 1u] += (int)(tid);
      }
      for (unsigned i4 = 0, e5 = 3u; i4 < e5; ++i4) {
        of[gid * 2u + 1u] = (float)(int)((tid << (gid & 31u)) % 1000u);
      }
      if (((a0 >> (a1 & 31u)) * (unsigned)gi[(unsigned)ix[(a1) % 32u] % 500u]) % 2u == 0u) {
        if (((tid >> 5) & 1u) == 1u) {
          atomicAdd(&cnt[0u + ((73u * bid)) % 4u], (int)(threadIdx.x));
          f0 -= (fmaxf((7.5f * -2.0f), f0) * 3.0f);
          si[0u + tid] = (int)((threadIdx.x / ((unsigned)(int)fminf(fmaxf(f0, -1.0e6f), 1.0e6f) | 1u)));
        }
        of[gid * 2u + 1u] += ((unsigned)gi[(tid + 30u) % 500u] > (a1 + a0) ? f0 : gf[(tid + 40u) % 256u]);
        f0 *= (sqrtf(fabsf(fmaf(f0, f0, f0))) - f0);
      } else {
        f0 -= (sf[tid] - sf[tid]);
        if (((tid >> 5) & 1u) == 0u) {
          a0 ^= (unsigned)(int)fminf(fmaxf(f0, -1.0e6f), 1.0e6f);
        }
        si[0u + tid] = (int)(max((unsigned)si[0u + tid], min(gid, a0)));
      }
    }
    w1 += 1u;
  } while (w1 < 3u);
  f0 *= 1.25f;
  __syncthreads();
  if (!((tid * tid) % 2u == 0u)) {
    a0 -= (a1 + (unsigned)si[0u + tid]);
    if (gid < 1260u) {
      if (((tid >> 5) & 1u) == 1u) {
        f0 *= sf[((unsigned)gi[(unsigned)ix[(min(a0, 17u)) % 32u] % 500u]) % 250u];
        a1 += (a0 - ((a0 | 59u) ^ (a0 | gid)));
      } else {
        if (gid < 46u) {
          of[gid * 2u + 0u] += gf[(gid * 32u + 56u) % 256u];
          f0 = f0;
        } else {
          a0 += ((tid % 2u == 0u) && ((threadIdx.x & 1u) == 0u) ? (unsigned)gi[(bid + 3u) % 500u] : (unsigned)gi[(gid * 4u + 10u) % 500u]);
          a1 -= (((a1 - gid) - (unsigned)gi[(unsigned)ix[(a0) % 32u] % 500u]) + ((int)a0 < 0 ? (a0 << (a0 & 31u)) : (unsigned)gi[(tid + 18u) % 500u]));
        }
        of[gid * 2u + 0u] = (fminf(f0, f0) + f0);
        unsigned w6 = ((a0 << (p & 31u))) % 4u;
        do {
          of[gid * 2u + 0u] = 1.25f;
          a0 = bid;
          w6 += 1u;
        } while (w6 < 4u);
      }
    }
    f0 *= sqrtf(fabsf((gid < 23u ? fmaf(f0, 3.0f, 1.0f) : f0)));
  }
  if (!((((tid >> 5) & 1u) == 1u) && (((tid >> 5) & 1u) == 1u))) {
    for (unsigned i7 = 0, e8 = ((unsigned)gi[((unsigned)gi[(tid + 31u) % 500u]) % 500u]) % 2u + 1u; i7 < e8; ++i7) {
      f0 = (((i7 * gid) % 2u == 0u ? (f0 * f0) : (f0 - f0)) - gf[(bid + 4u) % 256u]);
    }
    if (0.1f < 3.0f) {
      a1 *= (((a0 + 90u) & (unsigned)gi[(tid + 9u) % 500u]) * tid);
      for (unsigned i9 = 0, e10 = (((unsigned)si[(tid + 11u) % 250u] | (tid * 90u))) % 4u + 0u; i9 < e10; ++i9) {
        f0 += f0;
        if (3.0f > fmaxf(f0, 3.0f)) continue;
        a1 = tid;
      }
    }
    f0 += sf[((unsigned)si[((tid * bid)) % 250u]) % 250u];
  } else {
    f0 -= fmaf(gf[(gid * 1u + 57u) % 256u], (7.5f * (f0 - f0)), fmaf(sf[(tid) % 250u], f0, sf[(a0) % 250u]));
    if (((unsigned)ix[(a1) % 32u] & a1) % 3u == 0u) {
      for (unsigned i11 = 0, e12 = 1u; i11 < e12; ++i11) {
        for (unsigned i13 = 0, e14 = (max((i11 >> (i11 & 31u)), i11)) % 5u + 0u; i13 < e14; ++i13) {
          if ((unsigned)ix[(a0) % 32u] % 3u == 0u) break;
          oi[gid * 2u + 1u] += (int)(i13);
        }
      }
    }
    f0 += (float)(int)(94u % 1000u);
  }
  if ((((tid >> 5) & 1u) == 1u) || (((threadIdx.x & 1u) == 0u) && (((tid >> 5) & 1u) == 1u))) {
    a1 += a1;
    for (unsigned i15 = 0, e16 = 2u; i15 < e16; ++i15) {
      f0 += ((fminf(f0, f0) + 3.0f) - (f0 * ((int)a1 < 0 ? -0.75f : f0)));
    }
    of[gid * 2u + 0u] += (sf[tid] - f0);
  } else {
    for (unsigned i17 = 0, e18 = (a1) % 2u + 1u; i17 < e18; ++i17) {
      f0 -= (-2.0f - (float)(int)(a1 % 1000u));
      oi[gid * 2u + 0u] += (int)((unsigned)si[(tid + 40u) % 250u]);
      f0 *= fmaf(fmaf(fmaf(1.0f, 7.5f, f0), f0, (float)(int)(a1 % 1000u)), (fmaf(f0, -2.0f, f0) + 1.0f), f0);
    }
  }
  __syncthreads();
  oi[gid * 2u + 0u] += (int)a0;
  oi[gid * 2u + 1u] += (int)a1;
  of[gid * 2u + 0u] = of[gid * 2u + 0u] * 0.5f + f0;
}
