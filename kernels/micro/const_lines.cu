// Constant-cache gather: each thread reads `table` at (tid * stride + i) for
// `steps` iterations, so one warp's load touches one line (stride 0) or 32
// (stride 16 words: a 64-byte line per thread). Used by the SM's fidelity
// test of `l1.const_serial` (one constant line a cycle) and of the constant
// cache's MSHRs (`l1.read_only_mshrs`).
__constant__ unsigned table[1024];

__global__ void const_gather(unsigned *out, int stride, int steps) {
    unsigned s = 0;
    for (int i = 0; i < steps; i++)
        s += table[(threadIdx.x * stride + i) & 1023];
    out[threadIdx.x] = s;
}
