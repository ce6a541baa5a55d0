struct Pair { float sum; int count; };

// Kept out of line so the PTX has real `.func`s and `call`s.
__device__ __noinline__ float horner(float x, int n) {
    float s = 0.0f;
    for (int i = n; i >= 0; i--) s = s * x + (float)i;
    return s;
}

__device__ __noinline__ Pair accumulate(const float* v, int from, int to) {
    Pair p = {0.0f, 0};
    for (int i = from; i < to; i++) {
        if (v[i] > 0.0f) { p.sum += horner(v[i], 3); p.count++; }
    }
    return p;
}

__device__ __noinline__ void store_pair(Pair* out, Pair p) { *out = p; }

extern "C" __global__ void calls(const float* in, Pair* out, float* poly, int n, int chunk) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        poly[i] = horner(in[i], i % 5);
        if (i % 3 == 0) {
            int from = i * chunk % n, to = min(from + chunk, n);
            store_pair(&out[i], accumulate(in, from, to));
        }
    }
}
