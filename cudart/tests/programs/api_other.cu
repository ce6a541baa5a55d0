// A second translation unit of tests/programs/api.cu: a variable named
// like one of api.cu's must be its own.
#include <cuda_runtime.h>

__device__ int total = 1000;

__global__ void sum(const int* v, int n) {
  int t = threadIdx.x;
  if (t < n) atomicAdd(&total, v[t]);
}

int other_unit(int* out) {
  int h[10];
  for (int i = 0; i < 10; i++) h[i] = i + 1;
  int* d;
  if (cudaMalloc(&d, sizeof h) != cudaSuccess) return 1;
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  sum<<<1, 32>>>(d, 10);
  if (cudaMemcpyFromSymbol(out, total, sizeof *out) != cudaSuccess) return 1;
  return cudaFree(d) != cudaSuccess;
}
