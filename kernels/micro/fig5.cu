// The single-warp walk-through of the P-mode paper (seed 000 Figure 5, the
// slides' seed 001): a loop whose load (0x80 in the paper) misses, an
// independent counter update (add), the load's first consumer (mul, here a
// multiply-add into the running sum), an independent address update (sub)
// and the loop test (set.lt; bra). One warp; `a` is read at index
// i * stride so that every iteration's load goes to a new line.
__global__ void fig5(const int *a, int *out, int n, int stride) {
    int i = 0, sum = 0, idx = threadIdx.x;
#pragma nounroll
    do {
        int v = a[idx];     // ld.global
        i = i + 1;          // add
        sum += v * i;       // mul (mad): depends on the load
        idx = i * stride + threadIdx.x; // address update: independent of the load
    } while (i < n);        // set.lt; bra
    out[threadIdx.x] = sum;
}
