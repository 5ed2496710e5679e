/* Hooks: hand-written code a generated trampoline runs after every real call of a variant (outside the
 * tracer's own calls), recording or not.  scripts/gen-wrappers.py reads this header: a function
 * `void ct_hook_<key>(CUresult r, <the variant's parameters>)` applies to variant <name>_v<version> when
 * <key> is that, else to every variant of function <key>.  A `void ct_pre_<key>(<the parameters>)` runs
 * before the real call, and its ct_hook_ after it without fail (a pre-hook may take a lock the hook
 * releases). */
#ifndef CT_PRELOAD_HOOKS_H
#define CT_PRELOAD_HOOKS_H

#include "cuda/api.h"

/* procaddress.c: hand back the trampoline of the variant the driver returned (cuGetProcAddress asked for
 * itself returns our trampoline of the matching ABI, through which later look-ups come). */
void ct_hook_cuGetProcAddress_v11030(CUresult r, const char *symbol, void **pfn, int driverVersion, cuuint64_t flags);
void ct_hook_cuGetProcAddress_v12000(CUresult r, const char *symbol, void **pfn, int driverVersion, cuuint64_t flags,
                                     CUdriverProcAddressQueryResult *symbolFound);

/* driver_info.c: driver version and devices, written once after the first successful cuInit. */
void ct_hook_cuInit(CUresult r, unsigned int Flags);

/* kernel_names.c: unloading code may free function handles that later ones reuse. */
void ct_hook_cuModuleUnload(CUresult r, CUmodule hmod);
void ct_hook_cuLibraryUnload(CUresult r, CUlibrary library);

/* mem_map.c: the allocations the tracer saw, so that copies are classified without asking the driver. */
void ct_hook_cuMemAlloc_v3020(CUresult r, CUdeviceptr *dptr, size_t bytesize);
void ct_hook_cuMemAlloc_v2000(CUresult r, CUdeviceptr_v1 *dptr, unsigned int bytesize);
void ct_hook_cuMemAllocPitch_v3020(CUresult r, CUdeviceptr *dptr, size_t *pPitch, size_t WidthInBytes, size_t Height,
                                   unsigned int ElementSizeBytes);
void ct_hook_cuMemAllocPitch_v2000(CUresult r, CUdeviceptr_v1 *dptr, unsigned int *pPitch, unsigned int WidthInBytes,
                                   unsigned int Height, unsigned int ElementSizeBytes);
void ct_hook_cuMemAllocManaged(CUresult r, CUdeviceptr *dptr, size_t bytesize, unsigned int flags);
void ct_hook_cuMemAllocHost(CUresult r, void **pp, size_t bytesize);
void ct_hook_cuMemHostAlloc(CUresult r, void **pp, size_t bytesize, unsigned int Flags);
void ct_hook_cuMemHostRegister(CUresult r, void *p, size_t bytesize, unsigned int Flags);
void ct_hook_cuMemAllocAsync(CUresult r, CUdeviceptr *dptr, size_t bytesize, CUstream hStream);
void ct_hook_cuMemAllocFromPoolAsync(CUresult r, CUdeviceptr *dptr, size_t bytesize, CUmemoryPool pool,
                                     CUstream hStream);
void ct_hook_cuMemFree(CUresult r, CUdeviceptr dptr);
void ct_hook_cuMemFreeHost(CUresult r, void *p);
void ct_hook_cuMemHostUnregister(CUresult r, void *p);
void ct_hook_cuMemFreeAsync(CUresult r, CUdeviceptr dptr, CUstream hStream);

/* capture.c: CUDATRACE_CAPTURE=profiler records calls from a cuProfilerStart to the next cuProfilerStop. */
void ct_hook_cuProfilerStart(CUresult r);
void ct_hook_cuProfilerStop(CUresult r);

/* gpu_contexts.c: GPU time's events of a context are never touched once it is destroyed, and the
 * allocations the tracer saw (mem_map.h) are forgotten with the context. */
void ct_pre_cuCtxDestroy(CUcontext ctx);
void ct_hook_cuCtxDestroy(CUresult r, CUcontext ctx);
void ct_pre_cuDevicePrimaryCtxRelease(CUdevice dev);
void ct_hook_cuDevicePrimaryCtxRelease(CUresult r, CUdevice dev);
void ct_pre_cuDevicePrimaryCtxReset(CUdevice dev);
void ct_hook_cuDevicePrimaryCtxReset(CUresult r, CUdevice dev);
void ct_pre_cuGreenCtxDestroy(CUgreenCtx h);
void ct_hook_cuGreenCtxDestroy(CUresult r, CUgreenCtx h);

#endif
