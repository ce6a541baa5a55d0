/* Texture references over linear memory, which CUDA 12 removed, for
 * programs that bind 1D textures with cudaBindTexture and read them with
 * tex1Dfetch (Rodinia kmeans, Parboil bfs and spmv, ISPASS AES). Force-included per application (its
 * apps.toml flags), not for every program: a reference becomes a __device__
 * variable holding the bound pointer, set by cudaBindTexture through
 * cudaMemcpyToSymbol, and tex1Dfetch a load through it. The kernels then
 * read global memory where they read the texture path on a GPU of their
 * time; the values are the same (a bound linear texture is read-only memory
 * read without filtering). */
#pragma once
#ifdef __CUDACC__
#include <cuda_runtime.h>

template <class T, int dim = 1, enum cudaTextureReadMode mode = cudaReadModeElementType>
struct wf_texture_ref {
  const T* ptr;  // first: cudaBindTexture writes it
  // textureReference's fields, which host code sets; tex1Dfetch ignores them.
  int normalized;
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureAddressMode addressMode[3];
  struct cudaChannelFormatDesc channelDesc;
};

#define texture __device__ wf_texture_ref

template <class T, int dim, enum cudaTextureReadMode mode>
__device__ inline T tex1Dfetch(const wf_texture_ref<T, dim, mode>& t, int i) {
  return t.ptr[i];
}

template <class T, int dim, enum cudaTextureReadMode mode>
static inline cudaError_t cudaBindTexture(size_t* offset, const wf_texture_ref<T, dim, mode>* tex, const void* ptr,
                                          const cudaChannelFormatDesc* desc, size_t size = ~(size_t)0) {
  (void)desc;
  (void)size;
  if (offset) *offset = 0;
  return cudaMemcpyToSymbol(*tex, &ptr, sizeof ptr);
}

template <class T, int dim, enum cudaTextureReadMode mode>
static inline cudaError_t cudaBindTexture(size_t* offset, const wf_texture_ref<T, dim, mode>& tex, const void* ptr,
                                          const cudaChannelFormatDesc& desc, size_t size = ~(size_t)0) {
  return cudaBindTexture(offset, &tex, ptr, &desc, size);
}

template <class T, int dim, enum cudaTextureReadMode mode>
static inline cudaError_t cudaBindTexture(size_t* offset, const wf_texture_ref<T, dim, mode>& tex, const void* ptr,
                                          size_t size = ~(size_t)0) {
  return cudaBindTexture(offset, &tex, ptr, (const cudaChannelFormatDesc*)0, size);
}

template <class T, int dim, enum cudaTextureReadMode mode>
static inline cudaError_t cudaUnbindTexture(const wf_texture_ref<T, dim, mode>* tex) {
  (void)tex;
  return cudaSuccess;
}

template <class T, int dim, enum cudaTextureReadMode mode>
static inline cudaError_t cudaUnbindTexture(const wf_texture_ref<T, dim, mode>& tex) {
  return cudaUnbindTexture(&tex);
}
#endif
