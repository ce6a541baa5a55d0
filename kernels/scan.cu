// Inclusive prefix sum of each block's 256 elements (Hillis-Steele, double
// buffered in shared memory); the block's total goes to sums[blockIdx.x].
#define N 256
__global__ void scan(const int *in, int *out, int *sums) {
  __shared__ int buf[2][N];
  int t = threadIdx.x;
  int base = blockIdx.x * N;
  int cur = 0;
  buf[cur][t] = in[base + t];
  __syncthreads();
  for (int offset = 1; offset < N; offset *= 2) {
    int v = buf[cur][t];
    if (t >= offset)
      v += buf[cur][t - offset];
    buf[1 - cur][t] = v;
    cur = 1 - cur;
    __syncthreads();
  }
  out[base + t] = buf[cur][t];
  if (t == N - 1)
    sums[blockIdx.x] = buf[cur][t];
}
