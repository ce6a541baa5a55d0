// Host driver for kernels/sgemm.cu (a bare kernel) so that it can run under
// GPGPU-Sim: C = A * B with m = n = k = SGEMM_N (default 64, a multiple of
// 16), 16x16 thread blocks; checks against a CPU product, prints PASS/FAIL.
#include <cmath>
#include <cstdio>
#include <cuda_runtime.h>

#include "../../../kernels/sgemm.cu"

#ifndef SGEMM_N
#define SGEMM_N 64
#endif

#define CHECK(x)                                                              \
    do {                                                                      \
        cudaError_t e_ = (x);                                                 \
        if (e_ != cudaSuccess) {                                              \
            std::printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_));        \
            return 1;                                                         \
        }                                                                     \
    } while (0)

int main() {
    const int m = SGEMM_N, n = SGEMM_N, k = SGEMM_N;
    static float A[m * k], B[k * n], C[m * n], R[m * n];
    for (int i = 0; i < m * k; ++i) A[i] = (float)((i * 7) % 13) - 6.0f;
    for (int i = 0; i < k * n; ++i) B[i] = (float)((i * 5) % 11) - 5.0f;
    for (int r = 0; r < m; ++r)
        for (int c = 0; c < n; ++c) {
            float s = 0.0f;
            for (int i = 0; i < k; ++i) s += A[r * k + i] * B[i * n + c];
            R[r * n + c] = s;
        }
    float *dA, *dB, *dC;
    CHECK(cudaMalloc((void **)&dA, sizeof A));
    CHECK(cudaMalloc((void **)&dB, sizeof B));
    CHECK(cudaMalloc((void **)&dC, sizeof C));
    CHECK(cudaMemcpy(dA, A, sizeof A, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dB, B, sizeof B, cudaMemcpyHostToDevice));
    dim3 block(T, T), grid(n / T, m / T);
    sgemm<<<grid, block>>>(dA, dB, dC, m, n, k);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(C, dC, sizeof C, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < m * n; ++i)
        if (std::fabs(C[i] - R[i]) > 1e-3f * (1.0f + std::fabs(R[i]))) {
            if (bad < 5) std::printf("mismatch at %d: %f != %f\n", i, C[i], R[i]);
            ++bad;
        }
    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dC);
    if (bad) {
        std::printf("FAIL (%d mismatches)\n", bad);
        return 1;
    }
    std::printf("PASS\n");
    return 0;
}
