// Shared-memory bank conflicts: each thread of one warp writes and reads
// shared word tid * stride (conflict degree = stride's power of two, up to 32).
__global__ void bank(float *out, int stride) {
    __shared__ float s[32 * 33];
    unsigned i = threadIdx.x * stride;
    s[i] = (float)threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = s[i];
}
