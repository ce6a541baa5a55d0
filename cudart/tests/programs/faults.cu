// Programs that must stop with one clear line: run by tests/exec.rs with
// the case as the argument.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__global__ void store(int* p, int n) { p[threadIdx.x * n] = 1; }

int main(int argc, char** argv) {
  const char* c = argc > 1 ? argv[1] : "";
  int* d;
  cudaMalloc(&d, 64 * sizeof(int));
  if (!strcmp(c, "out-of-bounds")) {
    store<<<1, 32>>>(d, 1000);  // thread 1 stores 4000 bytes past a 256-byte buffer
  } else if (!strcmp(c, "mapped")) {
    int* h;
    cudaHostAlloc(&h, 16, cudaHostAllocMapped);
  } else if (!strcmp(c, "attribute")) {
    int v;
    cudaDeviceGetAttribute(&v, cudaDevAttrMemoryClockRate, 0);  // the DRAM clock is not a parameter of the model
  } else {
    store<<<1, 32>>>(d, 1);
  }
  cudaDeviceSynchronize();
  printf("finished\n");
  return 0;
}
