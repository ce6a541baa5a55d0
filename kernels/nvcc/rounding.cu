// CUDA's directed-rounding intrinsics: for each operation the results
// rounded down (rd), to nearest (rn), toward zero (rz) and up (ru).
__global__ void rounding(const float *a, const float *b, const float *c, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = a[i], y = b[i], z = c[i];
  float *o = out + i * 24;
  o[0] = __fadd_rd(x, y);  o[1] = __fadd_rn(x, y);  o[2] = __fadd_rz(x, y);  o[3] = __fadd_ru(x, y);
  o[4] = __fmul_rd(x, y);  o[5] = __fmul_rn(x, y);  o[6] = __fmul_rz(x, y);  o[7] = __fmul_ru(x, y);
  o[8] = __fmaf_rd(x, y, z); o[9] = __fmaf_rn(x, y, z); o[10] = __fmaf_rz(x, y, z); o[11] = __fmaf_ru(x, y, z);
  o[12] = __fdiv_rd(x, y); o[13] = __fdiv_rn(x, y); o[14] = __fdiv_rz(x, y); o[15] = __fdiv_ru(x, y);
  float s = fabsf(x);
  o[16] = __fsqrt_rd(s);   o[17] = __fsqrt_rn(s);   o[18] = __fsqrt_rz(s);   o[19] = __fsqrt_ru(s);
  o[20] = __frcp_rd(y);    o[21] = __frcp_rn(y);    o[22] = __frcp_rz(y);    o[23] = __frcp_ru(y);
}
