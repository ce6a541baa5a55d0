// ALU throughput and latency: `n` rounds of four independent integer
// multiply-adds per thread (independent: one issue per cycle per scheduler),
// or one dependent chain (each waits for the previous result: the ALU
// latency). One warp.
__global__ void alu_independent(unsigned *out, int n) {
    unsigned a = threadIdx.x, b = a + 1, c = a + 2, d = a + 3;
    for (int i = 0; i < n; i++) {
        a = a * 3u + 1u;
        b = b * 5u + 1u;
        c = c * 7u + 1u;
        d = d * 9u + 1u;
    }
    out[threadIdx.x] = a ^ b ^ c ^ d;
}

__global__ void alu_dependent(unsigned *out, int n) {
    unsigned a = threadIdx.x;
    for (int i = 0; i < n; i++) {
        a = a * 3u + 1u;
        a = a * 5u + 1u;
        a = a * 7u + 1u;
        a = a * 9u + 1u;
    }
    out[threadIdx.x] = a;
}
