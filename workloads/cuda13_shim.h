/* Force-included (`nvcc -include`) when `warpforge workloads` builds the
 * benchmark programs, whose sources stay as upstream wrote them: the
 * runtime calls that CUDA 13 removed (deprecated since CUDA 4), as the calls
 * that replaced them. Only CUDA translation units see it.
 *
 * Fields CUDA 13 removed from cudaDeviceProp are mapped per application in
 * its apps.toml flags instead (a macro here would rename every variable of
 * that name): -DclockRate=reserved[0] (warpforge's runtime stores the clock
 * in kHz there) and -DdeviceOverlap=asyncEngineCount. */
#pragma once
#ifdef __CUDACC__
#include <cuda_runtime.h>
static inline cudaError_t cudaThreadSynchronize(void) { return cudaDeviceSynchronize(); }
static inline cudaError_t cudaThreadExit(void) { return cudaDeviceReset(); }
#endif
