// Issue rate and ALU latency, one warp. `alu_independent`: eight
// independent multiply-add chains per thread, more than an ALU latency's
// worth, so a scheduler can issue one every cycle. `alu_dependent`: one chain,
// each multiply-add waiting for the previous result (the ALU latency).
__global__ void alu_independent(unsigned *out, int n) {
    unsigned a = threadIdx.x, b = a + 1, c = a + 2, d = a + 3, e = a + 4, f = a + 5, g = a + 6, h = a + 7;
    for (int i = 0; i < n; i++) {
        a = a * 3u + 1u;
        b = b * 5u + 1u;
        c = c * 7u + 1u;
        d = d * 9u + 1u;
        e = e * 11u + 1u;
        f = f * 13u + 1u;
        g = g * 15u + 1u;
        h = h * 17u + 1u;
    }
    out[threadIdx.x] = a ^ b ^ c ^ d ^ e ^ f ^ g ^ h;
}

__global__ void alu_dependent(unsigned *out, int n) {
    unsigned a = threadIdx.x;
    for (int i = 0; i < n; i++) {
        // a * a + i: the compiler cannot fold these into fewer operations.
        a = a * a + i;
        a = a * a + i;
        a = a * a + i;
        a = a * a + i;
    }
    out[threadIdx.x] = a;
}
