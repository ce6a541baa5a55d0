// Pointer chase: one thread follows `next` for `steps` hops and stores where
// it ended. Each hop's load depends on the previous one, so the run's length
// is `steps` times the load-to-use latency of wherever `next` lives (L1, L2
// or DRAM) plus a fixed per-hop ALU cost. Used by the SM's latency fidelity
// test with chains laid out to hit in L1, in L2 or never repeat.
__global__ void chase(const unsigned *next, unsigned *out, int steps) {
    unsigned j = 0;
    for (int i = 0; i < steps; i++)
        j = next[j];
    out[threadIdx.x] = j;
}
