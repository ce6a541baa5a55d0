// A data race: every thread stores to out[0], so the result is whichever
// store comes last. Warp 0 first waits for a global load, so on the timing
// SM its store lands last; the functional model runs warp 0 to completion
// first. The final memories differ, and warpforge says why.
__global__ void race(const int *in, int *out) {
  int v = threadIdx.x;
  if (threadIdx.x < 32)
    v += in[threadIdx.x];
  out[0] = v;
}
