// Dependent-instruction latency: one warp runs a chain of 512 dependent
// fma.rn.f32, then one of 1024 dependent xor/add, in two kernels. Run under
// GPGPU-Sim (run.sh) and warpforge (`warpforge exec --config gtx480 --`),
// the cycles per launch compare the two pipelines' issue-to-dependent-issue
// distance (docs/gpu.md, correlation). Checks the results (the float chain
// within rounding); prints PASS/FAIL.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void chain(float *out, float a, float b, int n) {
    float x = threadIdx.x;
    for (int i = 0; i < n; i++) x = x * a + b;
    out[threadIdx.x] = x;
}

__global__ void ichain(int *out, int a, int b, int n) {
    int x = threadIdx.x;
    for (int i = 0; i < n; i++) x = (x ^ a) + b;
    out[threadIdx.x] = x;
}

int main() {
    const int n = 512;
    float *d;
    int *e;
    if (cudaMalloc(&d, 32 * sizeof(float)) != cudaSuccess || cudaMalloc(&e, 32 * sizeof(int)) != cudaSuccess) {
        std::printf("FAIL: cudaMalloc\n");
        return 1;
    }
    chain<<<1, 32>>>(d, 0.999f, 0.5f, n);
    ichain<<<1, 32>>>(e, 3, 7, n);
    float f[32];
    int g[32];
    if (cudaMemcpy(f, d, sizeof f, cudaMemcpyDeviceToHost) != cudaSuccess || cudaMemcpy(g, e, sizeof g, cudaMemcpyDeviceToHost) != cudaSuccess) {
        std::printf("FAIL: cudaMemcpy\n");
        return 1;
    }
    for (int t = 0; t < 32; t++) {
        float x = t;
        int y = t;
        for (int i = 0; i < n; i++) {
            x = __builtin_fmaf(x, 0.999f, 0.5f);
            y = (y ^ 3) + 7;
        }
        // The float chain within rounding: a simulator may not fuse the fma.
        if (!(f[t] > x * 0.999f && f[t] < x * 1.001f) || g[t] != y) {
            std::printf("FAIL: thread %d: %g %d, expected %g %d\n", t, f[t], g[t], x, y);
            return 1;
        }
    }
    std::printf("PASS\n");
    return 0;
}
