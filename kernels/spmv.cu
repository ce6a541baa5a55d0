// y = A x for a CSR matrix, one row per thread (indirect loads through col).
__global__ void spmv(int rows, const int *row_ptr, const int *col, const float *val, const float *x, float *y) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float sum = 0.0f;
    for (int j = row_ptr[r]; j < row_ptr[r + 1]; j++)
      sum += val[j] * x[col[j]];
    y[r] = sum;
  }
}
