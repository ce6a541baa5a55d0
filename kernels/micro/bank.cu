// Shared-memory bank conflicts: each thread of one warp writes shared word
// tid * stride, then (after the barrier) reads its neighbour's word
// ((tid + 1) % 32) * stride. Both accesses have the conflict degree of the
// stride (its largest power-of-two factor, up to 32).
__global__ void bank(float *out, int stride) {
    __shared__ float s[32 * 33];
    s[threadIdx.x * stride] = (float)threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = s[((threadIdx.x + 1) % 32) * stride];
}
