// The CUDA runtime API as programs use it, each call's result checked on
// the host: run by tests/exec.rs through `warpforge exec` (and the same
// source builds and passes against NVIDIA's runtime on a GPU).
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

#define CHECK(call)                                                          \
  do {                                                                       \
    cudaError_t e_ = (call);                                                 \
    if (e_ != cudaSuccess) {                                                 \
      printf("FAIL line %d: %s: %s\n", __LINE__, #call, cudaGetErrorString(e_)); \
      return 1;                                                              \
    }                                                                        \
  } while (0)
#define EXPECT(cond)                                                         \
  do {                                                                       \
    if (!(cond)) {                                                           \
      printf("FAIL line %d: %s\n", __LINE__, #cond);                         \
      return 1;                                                              \
    }                                                                        \
  } while (0)

__constant__ int coeffs[4];
__device__ int total;
__device__ float table[8] = {1, 2, 3, 4, 5, 6, 7, 8};

struct Pair {
  int a;
  double b;
};

__global__ void scale(const int* in, int* out, int n, Pair p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = in[i] * coeffs[i % 4] + p.a + (int)p.b;
    atomicAdd(&total, 1);
  }
}

// Dynamic shared memory: reverse each block's slice.
__global__ void reverse(int* data) {
  extern __shared__ int s[];
  int t = threadIdx.x;
  s[t] = data[blockIdx.x * blockDim.x + t];
  __syncthreads();
  data[blockIdx.x * blockDim.x + t] = s[blockDim.x - 1 - t];
}

// A 2D pitched array: add the row index.
__global__ void rows(float* a, size_t pitch, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < w && y < h) {
    float* row = (float*)((char*)a + y * pitch);
    row[x] += y + table[x % 8];
  }
}

// Texture objects: a linear one read by index, a pitched 2D one sampled at
// texel centres.
__global__ void fetch(cudaTextureObject_t line, cudaTextureObject_t image, float* out, int n, int w) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<float>(line, i) + tex2D<float>(image, i % w + 0.5f, i / w + 0.5f);
}

int other_unit(int* out);  // api_other.cu: its own module and variables

int main() {
  const int n = 300;
  int h_in[n], h_out[n], h_back[n];
  for (int i = 0; i < n; i++) h_in[i] = i - 100;

  int count = 0, dev = -1;
  CHECK(cudaGetDeviceCount(&count));
  EXPECT(count == 1);
  CHECK(cudaSetDevice(0));
  CHECK(cudaGetDevice(&dev));
  EXPECT(dev == 0);
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  EXPECT(prop.warpSize == 32 && prop.maxThreadsPerBlock == 1024 && prop.multiProcessorCount >= 1);
  EXPECT(strncmp(prop.name, "warpforge", 9) == 0);
  int clock_khz = 0, major = 0;
  CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
  CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0));
  EXPECT(clock_khz > 0 && major == prop.major);

  // Memory and copies of every kind.
  int *d_in, *d_out, *d_copy;
  CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CHECK(cudaMalloc(&d_out, n * sizeof(int)));
  CHECK(cudaMalloc(&d_copy, n * sizeof(int)));
  CHECK(cudaMemset(d_out, 0xff, n * sizeof(int)));
  CHECK(cudaMemcpy(h_back, d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT(h_back[0] == -1 && h_back[n - 1] == -1);
  CHECK(cudaMemcpy(d_in, h_in, n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_copy, d_in, n * sizeof(int), cudaMemcpyDeviceToDevice));
  CHECK(cudaMemcpy(h_back, d_copy, n * sizeof(int), cudaMemcpyDefault));
  EXPECT(memcmp(h_back, h_in, sizeof h_in) == 0);

  // Symbols: __constant__, __device__ (with an offset), read back.
  int c[4] = {1, 2, 3, 4};
  CHECK(cudaMemcpyToSymbol(coeffs, c, sizeof c));
  int c2 = 5;
  CHECK(cudaMemcpyToSymbol(coeffs, &c2, sizeof c2, sizeof(int)));
  c[1] = 5;
  // A symbol named by a string, as CUDA before 5.0 took it (old programs
  // such as Rodinia kmeans still pass one).
  int c3 = 9;
  CHECK(cudaMemcpyToSymbol("coeffs", &c3, sizeof c3, 3 * sizeof(int)));
  c[3] = 9;
  int zero = 0;
  CHECK(cudaMemcpyToSymbol(total, &zero, sizeof zero));
  size_t table_size = 0;
  CHECK(cudaGetSymbolSize(&table_size, table));
  EXPECT(table_size == 8 * sizeof(float));
  float* d_table = nullptr;
  CHECK(cudaGetSymbolAddress((void**)&d_table, table));
  float t3 = 0;
  CHECK(cudaMemcpy(&t3, d_table + 3, sizeof t3, cudaMemcpyDeviceToHost));
  EXPECT(t3 == 4.0f);

  // Launches: <<<>>> with a struct argument, timed by events.
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  CHECK(cudaEventRecord(start, 0));
  Pair p = {7, 2.5};
  scale<<<(n + 127) / 128, 128>>>(d_in, d_out, n, p);
  CHECK(cudaGetLastError());
  CHECK(cudaEventRecord(stop, 0));
  CHECK(cudaEventSynchronize(stop));
  float ms = -1;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  EXPECT(ms >= 0);
  printf("scale: %.6f ms\n", ms);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h_out, d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) EXPECT(h_out[i] == h_in[i] * c[i % 4] + 7 + 2);
  int launched = 0;
  CHECK(cudaMemcpyFromSymbol(&launched, total, sizeof launched));
  EXPECT(launched == n);

  // Dynamic shared memory, on a stream, through cudaLaunchKernel.
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  void* args[] = {&d_copy};
  CHECK(cudaLaunchKernel((const void*)reverse, dim3(3), dim3(100), args, 100 * sizeof(int), s));
  CHECK(cudaMemcpyAsync(h_back, d_copy, n * sizeof(int), cudaMemcpyDeviceToHost, s));
  CHECK(cudaStreamSynchronize(s));
  for (int i = 0; i < n; i++) EXPECT(h_back[i] == h_in[(i / 100) * 100 + 99 - i % 100]);
  CHECK(cudaStreamDestroy(s));

  // Pitched 2D memory.
  const int w = 37, h = 5;
  float* d2;
  size_t pitch = 0;
  CHECK(cudaMallocPitch((void**)&d2, &pitch, w * sizeof(float), h));
  EXPECT(pitch >= w * sizeof(float));
  float h2[h][w];
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) h2[y][x] = x * 0.5f;
  CHECK(cudaMemcpy2D(d2, pitch, h2, w * sizeof(float), w * sizeof(float), h, cudaMemcpyHostToDevice));
  rows<<<dim3(2, h), 32>>>(d2, pitch, w, h);
  float r2[h][w];
  CHECK(cudaMemcpy2D(r2, w * sizeof(float), d2, pitch, w * sizeof(float), h, cudaMemcpyDeviceToHost));
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) EXPECT(r2[y][x] == x * 0.5f + y + (x % 8 + 1));

  // Texture objects.
  {
    const int tn = 64, tw = 8;
    float hl[tn], hi[tn], ho[tn];
    for (int i = 0; i < tn; i++) {
      hl[i] = i * 0.25f;
      hi[i] = 100.0f + i;
    }
    float *dl, *di, *dout;
    CHECK(cudaMalloc(&dl, sizeof hl));
    CHECK(cudaMalloc(&di, sizeof hi));
    CHECK(cudaMalloc(&dout, sizeof ho));
    CHECK(cudaMemcpy(dl, hl, sizeof hl, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(di, hi, sizeof hi, cudaMemcpyHostToDevice));
    cudaResourceDesc rl = {}, ri = {};
    rl.resType = cudaResourceTypeLinear;
    rl.res.linear.devPtr = dl;
    rl.res.linear.desc = cudaCreateChannelDesc<float>();
    rl.res.linear.sizeInBytes = sizeof hl;
    ri.resType = cudaResourceTypePitch2D;
    ri.res.pitch2D.devPtr = di;
    ri.res.pitch2D.desc = cudaCreateChannelDesc<float>();
    ri.res.pitch2D.width = tw;
    ri.res.pitch2D.height = tn / tw;
    ri.res.pitch2D.pitchInBytes = tw * sizeof(float);
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModePoint;
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t tl = 0, ti = 0;
    CHECK(cudaCreateTextureObject(&tl, &rl, &td, nullptr));
    CHECK(cudaCreateTextureObject(&ti, &ri, &td, nullptr));
    fetch<<<2, 32>>>(tl, ti, dout, tn, tw);
    CHECK(cudaMemcpy(ho, dout, sizeof ho, cudaMemcpyDeviceToHost));
    for (int i = 0; i < tn; i++) EXPECT(ho[i] == hl[i] + hi[i]);
    // The image again, as a CUDA array.
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
    cudaArray_t arr;
    CHECK(cudaMallocArray(&arr, &fd, tw, tn / tw));
    CHECK(cudaMemcpy2DToArray(arr, 0, 0, hi, tw * sizeof(float), tw * sizeof(float), tn / tw, cudaMemcpyHostToDevice));
    cudaResourceDesc ra = {};
    ra.resType = cudaResourceTypeArray;
    ra.res.array.array = arr;
    cudaTextureObject_t tarr = 0;
    CHECK(cudaCreateTextureObject(&tarr, &ra, &td, nullptr));
    CHECK(cudaMemset(dout, 0, sizeof ho));
    fetch<<<2, 32>>>(tl, tarr, dout, tn, tw);
    CHECK(cudaMemcpy(ho, dout, sizeof ho, cudaMemcpyDeviceToHost));
    for (int i = 0; i < tn; i++) EXPECT(ho[i] == hl[i] + hi[i]);
    float back[tn];
    CHECK(cudaMemcpy2DFromArray(back, tw * sizeof(float), arr, 0, 0, tw * sizeof(float), tn / tw, cudaMemcpyDeviceToHost));
    EXPECT(memcmp(back, hi, sizeof hi) == 0);
    CHECK(cudaDestroyTextureObject(tarr));
    CHECK(cudaFreeArray(arr));
    CHECK(cudaDestroyTextureObject(tl));
    CHECK(cudaDestroyTextureObject(ti));
    CHECK(cudaFree(dl));
    CHECK(cudaFree(di));
    CHECK(cudaFree(dout));
  }

  // Function attributes.
  cudaFuncAttributes fa;
  CHECK(cudaFuncGetAttributes(&fa, scale));
  EXPECT(fa.numRegs > 0 && fa.maxThreadsPerBlock >= 128);
  CHECK(cudaFuncSetCacheConfig(scale, cudaFuncCachePreferL1));

  // Errors: returned, remembered, cleared.
  EXPECT(cudaMemcpy(h_back, d_in + n - 1, 2 * sizeof(int), cudaMemcpyDeviceToHost) == cudaErrorInvalidValue);
  EXPECT(cudaPeekAtLastError() == cudaErrorInvalidValue);
  EXPECT(cudaGetLastError() == cudaErrorInvalidValue);
  EXPECT(cudaGetLastError() == cudaSuccess);
  EXPECT(cudaFree(d_in + 1) == cudaErrorInvalidDevicePointer);
  cudaGetLastError();
  EXPECT(strcmp(cudaGetErrorString(cudaErrorInvalidValue), "invalid argument") == 0);

  // Pinned host memory.
  int* pinned;
  CHECK(cudaMallocHost(&pinned, n * sizeof(int)));
  CHECK(cudaMemcpy(pinned, d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT(memcmp(pinned, h_out, sizeof h_out) == 0);
  CHECK(cudaFreeHost(pinned));

  // A second translation unit: its own module, kernel and variables.
  int other = 0;
  if (other_unit(&other)) return 1;
  EXPECT(other == 10 * 11 / 2 + 1000);
  launched = 0;
  CHECK(cudaMemcpyFromSymbol(&launched, total, sizeof launched));
  EXPECT(launched == n);

  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  CHECK(cudaFree(d_copy));
  CHECK(cudaFree(d2));
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  CHECK(cudaDeviceReset());
  printf("PASS\n");
  return 0;
}
