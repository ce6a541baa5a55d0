// Coalescing: each thread of one warp loads in[tid * stride] once and stores
// it; the memory stage sees 32 lanes at a word stride of `stride`.
__global__ void strided(const float *in, float *out, int stride) {
    out[threadIdx.x] = in[threadIdx.x * stride];
}
