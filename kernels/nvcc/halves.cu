// Half precision through CUDA's cuda_fp16.h and cuda_bf16.h (nvcc only:
// clang-14's sm_52 target has no f16 arithmetic): conversions with
// rounding modes, add/sub/mul/fma on .f16 and .f16x2, bf16 conversions
// (sm_75 has no bf16 arithmetic), min/max,
// negation, comparisons of halves and of pairs.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

extern "C" __global__ void halves(const float* x, const float* y, float* out, __half* neg, unsigned* cmp, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __half a = __float2half_rn(x[i]), b = __float2half_rz(y[i]);
    __half s = __hadd(a, b), d = __hsub(a, b), p = __hmul(a, b), f = __hfma(a, b, s);
    __half2 a2 = __halves2half2(a, b), b2 = __floats2half2_rn(y[i], x[i]);
    __half2 f2 = __hfma2(a2, b2, __hmul2(a2, a2));
    __nv_bfloat16 ba = __float2bfloat16_rn(x[i]);
    float* o = out + 12 * i;
    o[0] = __half2float(s);
    o[1] = __half2float(d);
    o[2] = __half2float(p);
    o[3] = __half2float(f);
    o[4] = __low2float(f2);
    o[5] = __high2float(f2);
    o[6] = __half2float(__hmin(a, b));
    o[7] = __half2float(__hmax(a, b));
    o[8] = __bfloat162float(ba);
    o[9] = __bfloat162float(__float2bfloat16_rz(y[i]));
    o[10] = __bfloat162float(__float2bfloat16_rd(x[i] * 3.0f));
    o[11] = (float)__half2int_rz(p);
    neg[i] = __hneg(p);
    cmp[i] = (unsigned)__hlt(a, b) | (unsigned)__hge(a, b) << 1 | (unsigned)__hbgt2(a2, b2) << 2 | (unsigned)__hbeq2(a2, a2) << 3;
}
