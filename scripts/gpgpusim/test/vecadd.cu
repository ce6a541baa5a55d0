// Minimal vector add for checking the GPGPU-Sim build (scripts/gpgpusim).
// 1024 floats, c[i] = a[i] + b[i]; checks every element and prints PASS/FAIL.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void vecadd(const float *a, const float *b, float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

#define CHECK(x)                                                              \
    do {                                                                      \
        cudaError_t e_ = (x);                                                 \
        if (e_ != cudaSuccess) {                                              \
            std::printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_));        \
            return 1;                                                         \
        }                                                                     \
    } while (0)

int main() {
    const int n = 1024;
    static float a[n], b[n], c[n];
    for (int i = 0; i < n; ++i) {
        a[i] = (float)i;
        b[i] = (float)(2 * i + 1);
        c[i] = -1.0f;
    }
    float *da, *db, *dc;
    CHECK(cudaMalloc((void **)&da, n * sizeof(float)));
    CHECK(cudaMalloc((void **)&db, n * sizeof(float)));
    CHECK(cudaMalloc((void **)&dc, n * sizeof(float)));
    CHECK(cudaMemcpy(da, a, n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, b, n * sizeof(float), cudaMemcpyHostToDevice));
    const int threads = 256;
    vecadd<<<(n + threads - 1) / threads, threads>>>(da, db, dc, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(c, dc, n * sizeof(float), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; ++i)
        if (c[i] != a[i] + b[i]) {
            if (bad < 5) std::printf("mismatch at %d: %f != %f\n", i, c[i], a[i] + b[i]);
            ++bad;
        }
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
    if (bad) {
        std::printf("FAIL (%d mismatches)\n", bad);
        return 1;
    }
    std::printf("PASS\n");
    return 0;
}
