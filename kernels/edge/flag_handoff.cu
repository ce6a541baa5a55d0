// Finishes: warp 0 spins until warp 1 sets the flag (no barrier between),
// then copies warp 1's value. The spinning warp yields to the others.
__global__ void flag_handoff(volatile int *flag, volatile int *value, int *out) {
  if (threadIdx.x < 32) {
    while (*flag == 0) {
    }
    out[threadIdx.x] = *value + threadIdx.x;
  } else if (threadIdx.x == 32) {
    *value = 1000;
    __threadfence();
    *flag = 1;
  }
}
