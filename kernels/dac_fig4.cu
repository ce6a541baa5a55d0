// The example kernel of the DAC paper (ISCA 2017, Figure 4a): addresses and
// the loop predicate are affine in the thread id and kernel parameters.
__global__ void dac_fig4(const int *A, int *B, int num, int dim) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = 0; i < dim; i++) {
    int tmp = A[i * num + tid];
    B[i * num + tid] = tmp + 1;
  }
}
