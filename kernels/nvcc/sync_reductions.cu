// Barriers that reduce a predicate over the CTA (`bar.red.popc/and/or`):
// __syncthreads_count, __syncthreads_and and __syncthreads_or, in CTAs of
// 100 threads (a partial last warp), and __syncthreads_or as the stopping
// test of an iterative relaxation: each thread halves its value until no
// thread in the CTA changed.
extern "C" __global__ void sync_reductions(const int* in, int* out, int* rounds) {
    __shared__ int v[100];
    int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
    int x = in[g];
    int count = __syncthreads_count(x > 0);
    int all = __syncthreads_and(x > -900);
    int any = __syncthreads_or(x > 990);
    v[t] = x < 0 ? -x : x;
    int r = 0;
    bool changed = true;
    while (__syncthreads_or(changed)) {
        int left = v[(t + 99) % 100];
        __syncthreads();
        changed = v[t] > 1 && v[t] > left / 2;
        if (changed) v[t] = v[t] / 2;
        r++;
    }
    out[4 * g] = count;
    out[4 * g + 1] = all;
    out[4 * g + 2] = any;
    out[4 * g + 3] = v[t];
    if (t == 0) rounds[blockIdx.x] = r;
}
