// Entering P-mode must not cost a ready N-mode warp its issue slot: CTA 0's
// warp loads and then needs the load at once (a TRIGGER); CTA 1's warp has
// a long run of independent multiply-adds, ready to issue every cycle.
__global__ void trigger_slot(const int *a, int *out, int n) {
    int t = threadIdx.x, r;
    if (blockIdx.x == 0) {
        int v = a[t];
        r = v * n + 1;
    } else {
        int x0 = t * 3, x1 = t * 5, x2 = t * 7, x3 = t * 9, x4 = t * 11, x5 = t * 13, x6 = t * 15, x7 = t * 17;
#pragma unroll
        for (int i = 0; i < 4; i++) {
            x0 = x0 * n + i; x1 = x1 * n + i; x2 = x2 * n + i; x3 = x3 * n + i;
            x4 = x4 * n + i; x5 = x5 * n + i; x6 = x6 * n + i; x7 = x7 * n + i;
        }
        r = x0 ^ x1 ^ x2 ^ x3 ^ x4 ^ x5 ^ x6 ^ x7;
    }
    out[blockIdx.x * 32 + t] = r;
}
