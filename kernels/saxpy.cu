// y[i] = alpha * x[i] + y[i] (single-precision a*x plus y).
__global__ void saxpy(int n, float alpha, const float *__restrict__ x, float *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = alpha * x[i] + y[i];
}
