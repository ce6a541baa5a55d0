// out = in^T for a rows x cols matrix, one element per thread (2-D blocks):
// coalesced reads, strided writes.
__global__ void transpose_naive(const float *in, float *out, int rows, int cols) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < cols && y < rows)
    out[x * rows + y] = in[y * cols + x];
}
