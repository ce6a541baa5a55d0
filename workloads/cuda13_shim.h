/* Force-included (`nvcc -include`) when `warpforge workloads` builds the
 * benchmark programs, whose sources stay as upstream wrote them: the
 * runtime API that CUDA 13 removed, mapped onto what replaced it.
 *  - cudaThreadSynchronize / cudaThreadExit: deprecated since CUDA 4,
 *    removed in 13; the same as cudaDeviceSynchronize / cudaDeviceReset.
 *  - cudaDeviceProp::clockRate: moved to cudaDeviceGetAttribute; warpforge's
 *    runtime stores the simulated clock (kHz) in reserved[0] for it.
 *  - cudaDeviceProp::deviceOverlap: asyncEngineCount > 0 says the same.
 * Only CUDA translation units see it (host .c files compile unchanged). */
#pragma once
#ifdef __CUDACC__
#include <cuda_runtime.h>
static inline cudaError_t cudaThreadSynchronize(void) { return cudaDeviceSynchronize(); }
static inline cudaError_t cudaThreadExit(void) { return cudaDeviceReset(); }
#define clockRate reserved[0]
#define deviceOverlap asyncEngineCount
#endif
