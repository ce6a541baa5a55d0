// Warp-level primitives as CUDA programs use them: a shuffle-down
// reduction, a shuffle-up inclusive scan, a butterfly (xor) all-reduce, an
// indexed broadcast, and votes (ballot, all, any) and the active mask in
// divergent code.
__global__ void warp_ops(const int *in, int *sum, int *scan, int *xsum, int *bcast, unsigned *ballot, int *all_any, unsigned *active) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  int v = in[t];
  int s = v;
  for (int o = 16; o > 0; o /= 2)
    s += __shfl_down_sync(0xffffffff, s, o);
  if (lane == 0)
    sum[t / 32] = s;
  int x = v;
  for (int o = 1; o < 32; o *= 2) {
    int y = __shfl_up_sync(0xffffffff, x, o);
    if (lane >= o)
      x += y;
  }
  scan[t] = x;
  int z = v;
  for (int o = 16; o > 0; o /= 2)
    z += __shfl_xor_sync(0xffffffff, z, o);
  xsum[t] = z;
  bcast[t] = __shfl_sync(0xffffffff, v, (lane * 7 + 3) % 32);
  unsigned b = __ballot_sync(0xffffffff, v > 50);
  if (lane == 0)
    ballot[t / 32] = b;
  int a = __all_sync(0xffffffff, v >= 0);
  int n = __any_sync(0xffffffff, v > 95);
  all_any[t] = a * 2 + n;
  if (v % 3 == 0)
    active[t] = __activemask();
  else
    active[t] = 0;
}
