// CTA 0 waits for a flag that CTA 1 sets. CUDA does not promise that CTAs
// run concurrently; warpforge runs CTA 0 first, so this never finishes.
__global__ void cta_wait(volatile int *flag, int *out) {
  if (blockIdx.x == 0) {
    while (*flag == 0) {
    }
  } else if (threadIdx.x == 0) {
    *flag = 1;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}
