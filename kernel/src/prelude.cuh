// warpforge CUDA prelude: force-included (-include) before every .cu file the
// kernel crate compiles with clang's NVPTX back end (no CUDA SDK needed).
// It provides what plain CUDA kernels use: the function/variable qualifiers,
// threadIdx/blockIdx/blockDim/gridDim, __syncthreads (a clang builtin),
// atomics, min/max, a few math functions that map to one PTX instruction,
// directed-rounding intrinsics and the warp-level primitives.
#ifndef WARPFORGE_PRELUDE
#define WARPFORGE_PRELUDE

#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __restrict__ __restrict

// threadIdx, blockIdx, blockDim, gridDim (.x/.y/.z read %tid, %ctaid, %ntid,
// %nctaid through the __nvvm_read_ptx_sreg_* builtins) and warpSize.
#include "__clang_cuda_builtin_vars.h"

// __syncthreads() is a clang builtin (bar.sync 0).
__device__ __forceinline__ void __threadfence() { __nvvm_membar_gl(); }
__device__ __forceinline__ void __threadfence_block() { __nvvm_membar_cta(); }

// CUDA's built-in vector types (size and alignment as CUDA defines them) and
// their make_ functions.
#define WF_VEC2(T, N, A) struct __attribute__((aligned(A))) N { T x, y; }; \
  __device__ __forceinline__ N make_##N(T x, T y) { N v; v.x = x; v.y = y; return v; }
#define WF_VEC4(T, N, A) struct __attribute__((aligned(A))) N { T x, y, z, w; }; \
  __device__ __forceinline__ N make_##N(T x, T y, T z, T w) { N v; v.x = x; v.y = y; v.z = z; v.w = w; return v; }
WF_VEC2(float, float2, 8)
WF_VEC4(float, float4, 16)
WF_VEC2(int, int2, 8)
WF_VEC4(int, int4, 16)
WF_VEC2(unsigned, uint2, 8)
WF_VEC4(unsigned, uint4, 16)
WF_VEC2(double, double2, 16)
#undef WF_VEC2
#undef WF_VEC4

// Bit casts.
__device__ __forceinline__ float __int_as_float(int x) { return __builtin_bit_cast(float, x); }
__device__ __forceinline__ int __float_as_int(float x) { return __builtin_bit_cast(int, x); }
__device__ __forceinline__ float __uint_as_float(unsigned x) { return __builtin_bit_cast(float, x); }
__device__ __forceinline__ unsigned __float_as_uint(float x) { return __builtin_bit_cast(unsigned, x); }

// Atomics on generic pointers (clang turns them into atom.global / atom.shared
// when it can prove the space).
__device__ __forceinline__ int atomicAdd(int *p, int v) { return __nvvm_atom_add_gen_i(p, v); }
__device__ __forceinline__ unsigned atomicAdd(unsigned *p, unsigned v) { return (unsigned)__nvvm_atom_add_gen_i((int *)p, (int)v); }
__device__ __forceinline__ unsigned long long atomicAdd(unsigned long long *p, unsigned long long v) { return (unsigned long long)__nvvm_atom_add_gen_ll((long long *)p, (long long)v); }
__device__ __forceinline__ float atomicAdd(float *p, float v) { return __nvvm_atom_add_gen_f(p, v); }
__device__ __forceinline__ int atomicSub(int *p, int v) { return __nvvm_atom_add_gen_i(p, -v); }
__device__ __forceinline__ unsigned atomicSub(unsigned *p, unsigned v) { return (unsigned)__nvvm_atom_add_gen_i((int *)p, -(int)v); }
__device__ __forceinline__ int atomicExch(int *p, int v) { return __nvvm_atom_xchg_gen_i(p, v); }
__device__ __forceinline__ unsigned atomicExch(unsigned *p, unsigned v) { return (unsigned)__nvvm_atom_xchg_gen_i((int *)p, (int)v); }
__device__ __forceinline__ float atomicExch(float *p, float v) { return __int_as_float(__nvvm_atom_xchg_gen_i((int *)p, __float_as_int(v))); }
__device__ __forceinline__ int atomicMin(int *p, int v) { return __nvvm_atom_min_gen_i(p, v); }
__device__ __forceinline__ unsigned atomicMin(unsigned *p, unsigned v) { return __nvvm_atom_min_gen_ui(p, v); }
__device__ __forceinline__ int atomicMax(int *p, int v) { return __nvvm_atom_max_gen_i(p, v); }
__device__ __forceinline__ unsigned atomicMax(unsigned *p, unsigned v) { return __nvvm_atom_max_gen_ui(p, v); }
__device__ __forceinline__ int atomicCAS(int *p, int cmp, int v) { return __nvvm_atom_cas_gen_i(p, cmp, v); }
__device__ __forceinline__ unsigned atomicCAS(unsigned *p, unsigned cmp, unsigned v) { return (unsigned)__nvvm_atom_cas_gen_i((int *)p, (int)cmp, (int)v); }
__device__ __forceinline__ int atomicAnd(int *p, int v) { return __nvvm_atom_and_gen_i(p, v); }
__device__ __forceinline__ unsigned atomicAnd(unsigned *p, unsigned v) { return (unsigned)__nvvm_atom_and_gen_i((int *)p, (int)v); }
__device__ __forceinline__ int atomicOr(int *p, int v) { return __nvvm_atom_or_gen_i(p, v); }
__device__ __forceinline__ unsigned atomicOr(unsigned *p, unsigned v) { return (unsigned)__nvvm_atom_or_gen_i((int *)p, (int)v); }
__device__ __forceinline__ int atomicXor(int *p, int v) { return __nvvm_atom_xor_gen_i(p, v); }
__device__ __forceinline__ unsigned atomicXor(unsigned *p, unsigned v) { return (unsigned)__nvvm_atom_xor_gen_i((int *)p, (int)v); }

// min / max as CUDA overloads them.
__device__ __forceinline__ int min(int a, int b) { return a < b ? a : b; }
__device__ __forceinline__ int max(int a, int b) { return a > b ? a : b; }
__device__ __forceinline__ unsigned min(unsigned a, unsigned b) { return a < b ? a : b; }
__device__ __forceinline__ unsigned max(unsigned a, unsigned b) { return a > b ? a : b; }
__device__ __forceinline__ long long min(long long a, long long b) { return a < b ? a : b; }
__device__ __forceinline__ long long max(long long a, long long b) { return a > b ? a : b; }
__device__ __forceinline__ unsigned long long min(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
__device__ __forceinline__ unsigned long long max(unsigned long long a, unsigned long long b) { return a > b ? a : b; }
__device__ __forceinline__ float fminf(float a, float b) { return __nvvm_fmin_f(a, b); }
__device__ __forceinline__ float fmaxf(float a, float b) { return __nvvm_fmax_f(a, b); }
__device__ __forceinline__ float min(float a, float b) { return fminf(a, b); }
__device__ __forceinline__ float max(float a, float b) { return fmaxf(a, b); }
__device__ __forceinline__ double fmin(double a, double b) { return __nvvm_fmin_d(a, b); }
__device__ __forceinline__ double fmax(double a, double b) { return __nvvm_fmax_d(a, b); }

// Math that is one PTX instruction.
__device__ __forceinline__ float fabsf(float x) { return __nvvm_fabs_f(x); }
__device__ __forceinline__ double fabs(double x) { return __nvvm_fabs_d(x); }
__device__ __forceinline__ float sqrtf(float x) { return __nvvm_sqrt_rn_f(x); }
__device__ __forceinline__ double sqrt(double x) { return __nvvm_sqrt_rn_d(x); }
__device__ __forceinline__ float rsqrtf(float x) { return __nvvm_rsqrt_approx_f(x); }
__device__ __forceinline__ float __fdividef(float a, float b) { return __nvvm_div_approx_f(a, b); }
__device__ __forceinline__ float __frcp_rn(float x) { return __nvvm_rcp_rn_f(x); }
__device__ __forceinline__ float __fmaf_rn(float a, float b, float c) { return __nvvm_fma_rn_f(a, b, c); }
__device__ __forceinline__ float fmaf(float a, float b, float c) { return __nvvm_fma_rn_f(a, b, c); }
__device__ __forceinline__ double fma(double a, double b, double c) { return __nvvm_fma_rn_d(a, b, c); }
__device__ __forceinline__ int abs(int x) { return x < 0 ? -x : x; }
__device__ __forceinline__ int __popc(unsigned x) { return __builtin_popcount(x); }
__device__ __forceinline__ int __clz(int x) { return x == 0 ? 32 : __builtin_clz((unsigned)x); }
__device__ __forceinline__ unsigned __brev(unsigned x) { return __builtin_bitreverse32(x); }
__device__ __forceinline__ int __mulhi(int a, int b) { return __nvvm_mulhi_i(a, b); }
__device__ __forceinline__ unsigned __umulhi(unsigned a, unsigned b) { return __nvvm_mulhi_ui(a, b); }

// Directed rounding (CUDA's __fadd_rd, __fmul_ru, __fmaf_rz, ...): one PTX
// instruction each (add.rm.f32, mul.rp.f32, fma.rz.f32, ...).
#define WF_ROUNDED(M, N)                                                                                  \
  __device__ __forceinline__ float __fadd_##M(float a, float b) { return __nvvm_add_##N##_f(a, b); }      \
  __device__ __forceinline__ float __fmul_##M(float a, float b) { return __nvvm_mul_##N##_f(a, b); }      \
  __device__ __forceinline__ float __fdiv_##M(float a, float b) { return __nvvm_div_##N##_f(a, b); }      \
  __device__ __forceinline__ float __fmaf_##M(float a, float b, float c) { return __nvvm_fma_##N##_f(a, b, c); } \
  __device__ __forceinline__ float __fsqrt_##M(float a) { return __nvvm_sqrt_##N##_f(a); }               \
  __device__ __forceinline__ float __frcp_##M(float a) { return __nvvm_rcp_##N##_f(a); }
WF_ROUNDED(rd, rm)
WF_ROUNDED(ru, rp)
WF_ROUNDED(rz, rz)
#undef WF_ROUNDED
__device__ __forceinline__ float __fadd_rn(float a, float b) { return __nvvm_add_rn_f(a, b); }
__device__ __forceinline__ float __fmul_rn(float a, float b) { return __nvvm_mul_rn_f(a, b); }
__device__ __forceinline__ float __fdiv_rn(float a, float b) { return __nvvm_div_rn_f(a, b); }
__device__ __forceinline__ float __fsqrt_rn(float a) { return __nvvm_sqrt_rn_f(a); }

// Warp-level primitives, as CUDA's headers define them: inline PTX
// (shfl.sync, vote.sync and activemask need PTX ISA 6.0+, which clang-14
// does not enable for sm_52 builtins).
__device__ __forceinline__ unsigned __activemask() {
  unsigned m;
  asm volatile("activemask.b32 %0;" : "=r"(m));
  return m;
}
#define WF_SHFL(NAME, MODE, C)                                                                             \
  __device__ __forceinline__ int NAME(unsigned mask, int v, int b, int width = 32) {                      \
    int r;                                                                                                 \
    asm volatile("shfl.sync." MODE ".b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(v), "r"(b), "r"(C), "r"(mask)); \
    return r;                                                                                              \
  }                                                                                                        \
  __device__ __forceinline__ unsigned NAME(unsigned mask, unsigned v, int b, int width = 32) {            \
    return (unsigned)NAME(mask, (int)v, b, width);                                                         \
  }                                                                                                        \
  __device__ __forceinline__ float NAME(unsigned mask, float v, int b, int width = 32) {                  \
    return __int_as_float(NAME(mask, __float_as_int(v), b, width));                                        \
  }
WF_SHFL(__shfl_sync, "idx", ((32 - width) << 8) | 0x1f)
WF_SHFL(__shfl_down_sync, "down", ((32 - width) << 8) | 0x1f)
WF_SHFL(__shfl_xor_sync, "bfly", ((32 - width) << 8) | 0x1f)
WF_SHFL(__shfl_up_sync, "up", (32 - width) << 8)
#undef WF_SHFL
__device__ __forceinline__ unsigned __ballot_sync(unsigned mask, int p) {
  unsigned r;
  asm volatile("{ .reg .pred q; setp.ne.s32 q, %1, 0; vote.sync.ballot.b32 %0, q, %2; }" : "=r"(r) : "r"(p), "r"(mask));
  return r;
}
#define WF_VOTE(NAME, MODE)                                                                                \
  __device__ __forceinline__ int NAME(unsigned mask, int p) {                                              \
    int r;                                                                                                 \
    asm volatile("{ .reg .pred q, d; setp.ne.s32 q, %1, 0; vote.sync." MODE ".pred d, q, %2; selp.s32 %0, 1, 0, d; }" \
                 : "=r"(r) : "r"(p), "r"(mask));                                                           \
    return r;                                                                                              \
  }
WF_VOTE(__all_sync, "all")
WF_VOTE(__any_sync, "any")
WF_VOTE(__uni_sync, "uni")
#undef WF_VOTE
__device__ __forceinline__ void __syncwarp(unsigned mask = 0xffffffff) { asm volatile("bar.warp.sync %0;" : : "r"(mask)); }
// Barriers that reduce a predicate over the CTA (PTX bar.red).
__device__ __forceinline__ int __syncthreads_count(int p) { return __nvvm_bar0_popc(p); }
__device__ __forceinline__ int __syncthreads_and(int p) { return __nvvm_bar0_and(p); }
__device__ __forceinline__ int __syncthreads_or(int p) { return __nvvm_bar0_or(p); }

// Half precision, cuda_fp16.h's names for sm_52 (no f16 arithmetic there):
// conversions are PTX cvt; arithmetic is done in float and rounded to half,
// as CUDA's own header does below sm_53 (+ - * give the correctly rounded
// half: a float holds twice a half's precision plus two bits; fma rounds
// twice, through the float fma, so a rare tie can differ from a true f16
// fma). nvcc for sm_75 emits the f16 instructions themselves.
struct __half {
  unsigned short __x;
};
__device__ __forceinline__ __half __float2half_rn(float f) {
  __half h;
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h.__x) : "f"(f));
  return h;
}
__device__ __forceinline__ __half __float2half_rz(float f) {
  __half h;
  asm("cvt.rz.f16.f32 %0, %1;" : "=h"(h.__x) : "f"(f));
  return h;
}
__device__ __forceinline__ float __half2float(__half h) {
  float f;
  asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h.__x));
  return f;
}
__device__ __forceinline__ __half __hadd(__half a, __half b) { return __float2half_rn(__half2float(a) + __half2float(b)); }
__device__ __forceinline__ __half __hsub(__half a, __half b) { return __float2half_rn(__half2float(a) - __half2float(b)); }
__device__ __forceinline__ __half __hmul(__half a, __half b) { return __float2half_rn(__half2float(a) * __half2float(b)); }
__device__ __forceinline__ __half __hfma(__half a, __half b, __half c) {
  return __float2half_rn(__fmaf_rn(__half2float(a), __half2float(b), __half2float(c)));
}

// Texture objects (cudaTextureObject_t): tex1Dfetch and tex2D of float
// and int textures, as CUDA's texture_fetch_functions.h reaches them (PTX tex).
typedef unsigned long long cudaTextureObject_t;
template <typename T> __device__ T tex1Dfetch(cudaTextureObject_t t, int x);
template <> __device__ __forceinline__ float tex1Dfetch<float>(cudaTextureObject_t t, int x) {
  float r, g, b, a;
  asm volatile("tex.1d.v4.f32.s32 {%0, %1, %2, %3}, [%4, {%5}];" : "=f"(r), "=f"(g), "=f"(b), "=f"(a) : "l"(t), "r"(x));
  return r;
}
template <> __device__ __forceinline__ int tex1Dfetch<int>(cudaTextureObject_t t, int x) {
  int r, g, b, a;
  asm volatile("tex.1d.v4.s32.s32 {%0, %1, %2, %3}, [%4, {%5}];" : "=r"(r), "=r"(g), "=r"(b), "=r"(a) : "l"(t), "r"(x));
  return r;
}
template <typename T> __device__ T tex2D(cudaTextureObject_t t, float x, float y);
template <> __device__ __forceinline__ float tex2D<float>(cudaTextureObject_t t, float x, float y) {
  float r, g, b, a;
  asm volatile("tex.2d.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6}];" : "=f"(r), "=f"(g), "=f"(b), "=f"(a) : "l"(t), "f"(x), "f"(y));
  return r;
}

// The CUDA math library: NVIDIA's libdevice (the bitcode nvcc links too),
// linked by the kernel crate when it finds it (`make setup` installs it
// with nvcc), so expf, sinf, powf ... compile to the same instruction
// sequences as under nvcc.
#define WF_MATH1(F, NV) extern "C" __device__ F __nv_##NV(F); __device__ __forceinline__ F NV(F x) { return __nv_##NV(x); }
#define WF_MATH2(F, NV) extern "C" __device__ F __nv_##NV(F, F); __device__ __forceinline__ F NV(F x, F y) { return __nv_##NV(x, y); }
#define WF_FAST1(NV) extern "C" __device__ float __nv_fast_##NV(float); __device__ __forceinline__ float __##NV(float x) { return __nv_fast_##NV(x); }
WF_MATH1(float, expf) WF_MATH1(float, exp2f) WF_MATH1(float, exp10f) WF_MATH1(float, expm1f)
WF_MATH1(float, logf) WF_MATH1(float, log2f) WF_MATH1(float, log10f) WF_MATH1(float, log1pf)
WF_MATH1(float, sinf) WF_MATH1(float, cosf) WF_MATH1(float, tanf) WF_MATH1(float, asinf) WF_MATH1(float, acosf) WF_MATH1(float, atanf)
WF_MATH1(float, sinhf) WF_MATH1(float, coshf) WF_MATH1(float, tanhf) WF_MATH1(float, asinhf) WF_MATH1(float, acoshf) WF_MATH1(float, atanhf)
WF_MATH1(float, cbrtf) WF_MATH1(float, erff) WF_MATH1(float, erfcf) WF_MATH1(float, tgammaf) WF_MATH1(float, lgammaf)
WF_MATH1(float, floorf) WF_MATH1(float, ceilf) WF_MATH1(float, roundf) WF_MATH1(float, truncf) WF_MATH1(float, rintf)
WF_MATH2(float, powf) WF_MATH2(float, atan2f) WF_MATH2(float, fmodf) WF_MATH2(float, hypotf) WF_MATH2(float, remainderf) WF_MATH2(float, fdimf)
WF_MATH1(double, exp) WF_MATH1(double, exp2) WF_MATH1(double, expm1) WF_MATH1(double, log) WF_MATH1(double, log2) WF_MATH1(double, log10)
WF_MATH1(double, log1p) WF_MATH1(double, sin) WF_MATH1(double, cos) WF_MATH1(double, tan) WF_MATH1(double, asin) WF_MATH1(double, acos)
WF_MATH1(double, atan) WF_MATH1(double, sinh) WF_MATH1(double, cosh) WF_MATH1(double, tanh) WF_MATH1(double, cbrt) WF_MATH1(double, erf)
WF_MATH1(double, erfc) WF_MATH1(double, floor) WF_MATH1(double, ceil) WF_MATH1(double, round) WF_MATH1(double, trunc) WF_MATH1(double, rint)
WF_MATH2(double, pow) WF_MATH2(double, atan2) WF_MATH2(double, fmod) WF_MATH2(double, hypot)
WF_FAST1(expf) WF_FAST1(logf) WF_FAST1(log2f) WF_FAST1(log10f) WF_FAST1(sinf) WF_FAST1(cosf) WF_FAST1(tanf)
extern "C" __device__ float __nv_fast_powf(float, float);
__device__ __forceinline__ float __powf(float x, float y) { return __nv_fast_powf(x, y); }
extern "C" __device__ void __nv_sincosf(float, float *, float *);
__device__ __forceinline__ void sincosf(float x, float *s, float *c) { __nv_sincosf(x, s, c); }
#undef WF_MATH1
#undef WF_MATH2
#undef WF_FAST1

#endif
