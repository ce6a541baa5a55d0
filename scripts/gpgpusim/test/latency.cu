// Load-to-use latencies: one thread chases pointers through rings laid out
// to hit in L1 (8 KB), in L2 (256 KB) and in DRAM (32 MB), each launched
// twice (the second finds what the first left in L2); then one warp chases
// through shared memory, and one runs an empty counted loop. Each launch's
// cycles / 200 hops compare a level's round trip in GPGPU-Sim (run.sh) and
// warpforge (`warpforge exec --config gtx480 --`) (docs/gpu.md,
// correlation). Prints PASS/FAIL.
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

__global__ void chase(const unsigned *next, unsigned *out, int steps) {
    unsigned j = 0;
    for (int i = 0; i < steps; i++) j = next[j];
    out[threadIdx.x] = j;
}

__global__ void schase(unsigned *out, int steps) {
    __shared__ unsigned s[1024];
    for (int i = threadIdx.x; i < 1024; i += blockDim.x) s[i] = (i * 33 + 1) & 1023;
    __syncthreads();
    unsigned j = 0;
    for (int i = 0; i < steps; i++) j = s[j];
    out[threadIdx.x] = j;
}

__global__ void loop(unsigned *out, int steps) {
    unsigned j = 0;
    for (int i = 0; i < steps; i++) {
        j += i;
        asm volatile("");
    }
    out[threadIdx.x] = j;
}

int main() {
    const int steps = 200;
    const unsigned words[3] = {2048, 65536, 8u << 20};
    unsigned *o;
    if (cudaMalloc(&o, 128) != cudaSuccess) {
        std::printf("FAIL: cudaMalloc\n");
        return 1;
    }
    for (int k = 0; k < 3; k++) {
        const unsigned n = words[k];
        // Each hop jumps 33 lines ahead: a new line every hop.
        std::vector<unsigned> h(n);
        for (unsigned i = 0; i < n; i++) h[i] = (i + 33 * 32) % n;
        unsigned *d;
        if (cudaMalloc(&d, n * 4) != cudaSuccess || cudaMemcpy(d, h.data(), n * 4, cudaMemcpyHostToDevice) != cudaSuccess) {
            std::printf("FAIL: ring %u\n", n);
            return 1;
        }
        unsigned want = 0;
        for (int i = 0; i < steps; i++) want = h[want];
        for (int pass = 0; pass < 2; pass++) {
            chase<<<1, 1>>>(d, o, steps);
            unsigned got = ~0u;
            cudaMemcpy(&got, o, 4, cudaMemcpyDeviceToHost);
            if (got != want) {
                std::printf("FAIL: ring %u pass %d: %u, expected %u\n", n, pass, got, want);
                return 1;
            }
        }
        cudaFree(d);
    }
    schase<<<1, 32>>>(o, steps);
    loop<<<1, 32>>>(o, steps);
    unsigned r = 0;
    cudaMemcpy(&r, o, 4, cudaMemcpyDeviceToHost);
    if (r != steps * (steps - 1) / 2) {
        std::printf("FAIL: loop %u\n", r);
        return 1;
    }
    std::printf("PASS\n");
    return 0;
}
