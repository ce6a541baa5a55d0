// Warp specialization with named barriers (PTX `bar.sync a, b` and
// `bar.arrive a, b`, reached through inline assembly as CUDA code does):
// warps 0-1 produce a tile in shared memory, warps 2-3 consume it.
//   barrier 1 (128 threads): "tile full"  — producers arrive, consumers wait
//   barrier 3 (128 threads): "tile empty" — consumers arrive, producers wait
//   barrier 2 (64 threads):  the producers alone, between their two phases
__device__ __forceinline__ void bar_sync(int id, int threads) {
    asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}
__device__ __forceinline__ void bar_arrive(int id, int threads) {
    asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(threads) : "memory");
}

extern "C" __global__ void named_barriers(const int* in, int* out, int n, int rounds) {
    __shared__ int stage[64];
    __shared__ int tile[64];
    int t = threadIdx.x, base = blockIdx.x * 64;
    int acc = 0;
    for (int r = 0; r < rounds; r++) {
        if (t < 64) {
            if (r > 0) bar_sync(3, 128);
            stage[t] = in[(base + t + 7 * r) % n];
            asm volatile("bar.sync 2, 64;" ::: "memory");
            tile[t] = stage[t] + stage[63 - t];
            acc = tile[t];
            bar_arrive(1, 128);
        } else {
            bar_sync(1, 128);
            acc += tile[127 - t] * (r + 1);
            bar_arrive(3, 128);
        }
    }
    __syncthreads();
    out[blockIdx.x * 128 + t] = acc;
}
