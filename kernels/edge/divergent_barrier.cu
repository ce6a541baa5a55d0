// A barrier in divergent code: only half of each warp reaches it
// (undefined behaviour in CUDA; warpforge warns and releases it).
__global__ void divergent_barrier(int *out) {
  __shared__ int s[64];
  s[threadIdx.x] = threadIdx.x;
  if (threadIdx.x % 32 < 16) {
    __syncthreads();
    out[threadIdx.x] = s[63 - threadIdx.x];
  }
}
