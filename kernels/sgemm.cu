// C = A * B (row-major, m x k times k x n) with 16x16 shared-memory tiles;
// m, n, k multiples of 16.
#define T 16
__global__ void sgemm(const float *A, const float *B, float *C, int m, int n, int k) {
  __shared__ float As[T][T];
  __shared__ float Bs[T][T];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * T + ty;
  int col = blockIdx.x * T + tx;
  float acc = 0.0f;
  for (int t = 0; t < k; t += T) {
    As[ty][tx] = A[row * k + t + tx];
    Bs[ty][tx] = B[(t + ty) * n + col];
    __syncthreads();
    for (int i = 0; i < T; i++)
      acc += As[ty][i] * Bs[i][tx];
    __syncthreads();
  }
  C[row * n + col] = acc;
}
