// Never finishes: warp 0 spins on a flag that warp 1 sets only after a
// barrier warp 0 never reaches. (warpforge reports no forward progress.)
__global__ void flag_after_barrier(volatile int *flag, int *out) {
  if (threadIdx.x < 32) {
    while (*flag == 0) {
    }
  }
  __syncthreads();
  if (threadIdx.x == 32)
    *flag = 1;
  out[threadIdx.x] = threadIdx.x;
}
