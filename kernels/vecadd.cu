// c[i] = a[i] + b[i]: the simplest memory-bound kernel (one add per two loads).
__global__ void vecadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}
