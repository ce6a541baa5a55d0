// The latency-bound loop of the P-mode paper's walk-through (HPCA 2016 slides,
// seed 001): each iteration loads, increments the counter, multiplies the
// running product by the loaded value and branches back while i < n
// (ld.global; add; mul; set.lt; br).
__global__ void pmode_loop(const int *a, int *out, int n, int stride) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int prod = 1;
  for (int i = 0; i < n; i++)
    prod *= a[i * stride + tid];
  out[tid] = prod;
}
