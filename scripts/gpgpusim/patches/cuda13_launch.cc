
/*******************************************************************************
 * warpforge patch (scripts/gpgpusim/patches/cuda13_launch.cc), appended to
 * libcuda/cuda_runtime_api.cc by scripts/gpgpusim/patch.sh.
 *
 * CUDA 12 and 13 host stubs launch a kernel through
 *   __cudaGetKernel(&handle, hostFun)   (once per kernel, cached in a static)
 *   __cudaLaunchKernel(handle, grid, block, args, smem, stream)
 * (crt/host_runtime.h, unless the program is built with -D__NV_LEGACY_LAUNCH,
 * which goes through cudaLaunchKernel(hostFun, ...) that GPGPU-Sim already
 * has). GPGPU-Sim keys kernels by the host stub's address, so the "kernel
 * handle" is simply that address. cudaKernel_t (CUDA >= 12.0) does not exist
 * in the CUDA 11.8 headers this is compiled against; it is an opaque pointer,
 * so void * is ABI-compatible.
 ******************************************************************************/
extern "C" {

__host__ cudaError_t CUDARTAPI __cudaGetKernel(void **kernel,
                                               const void *hostFun) {
  if (kernel == NULL) return g_last_cudaError = cudaErrorInvalidValue;
  *kernel = const_cast<void *>(hostFun);
  return cudaSuccess;
}

__host__ cudaError_t CUDARTAPI cudaGetKernel(void **kernel,
                                             const void *hostFun) {
  return __cudaGetKernel(kernel, hostFun);
}

__host__ cudaError_t CUDARTAPI __cudaLaunchKernel(void *kernel, dim3 gridDim,
                                                  dim3 blockDim, void **args,
                                                  size_t sharedMem,
                                                  cudaStream_t stream) {
  return cudaLaunchKernelInternal((const char *)kernel, gridDim, blockDim,
                                  (const void **)args, sharedMem, stream);
}

__host__ cudaError_t CUDARTAPI __cudaLaunchKernel_ptsz(
    void *kernel, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
    cudaStream_t stream) {
  return cudaLaunchKernelInternal((const char *)kernel, gridDim, blockDim,
                                  (const void **)args, sharedMem, stream);
}

}  // extern "C"
