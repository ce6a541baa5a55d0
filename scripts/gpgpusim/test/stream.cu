// DRAM bandwidth: three kernels over 4 MB, one read stream (readonly), one
// write stream (writeonly), both (copy). Each launch's cycles compare the
// DRAM paths of GPGPU-Sim (run.sh) and warpforge (`warpforge exec --config
// gtx480 --`) (docs/gpu.md, correlation). Prints PASS/FAIL.
#include <cstdio>
#include <cuda_runtime.h>
__global__ void copy(const float *a, float *b, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) b[i] = a[i];
}
__global__ void readonly(const float *a, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? a[i] : 0.f;
    if (v == 12345.f) out[0] = v;
}
__global__ void writeonly(float *b, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) b[i] = 1.f;
}
int main() {
    const int n = 1 << 20;
    float *a, *b;
    cudaMalloc(&a, n * 4); cudaMalloc(&b, n * 4);
    cudaMemset(a, 0, n * 4);
    readonly<<<n / 256, 256>>>(a, b, n);
    writeonly<<<n / 256, 256>>>(b, n);
    copy<<<n / 256, 256>>>(a, b, n);
    float r = 0; cudaMemcpy(&r, b, 4, cudaMemcpyDeviceToHost);
    std::printf(r == 0.f ? "PASS\n" : "FAIL\n");
    return 0;
}
