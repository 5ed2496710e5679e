/* A small cudaTypedefs.h for tests/unit/test_generator.sh: the shapes the generator must handle. */
#include <cuda.h>

/* plain, and a newer variant: cuMemAlloc, cuMemAlloc_v2 */
typedef CUresult (CUDAAPI *PFN_cuMemAlloc_v3020)(CUdeviceptr_v2 *dptr, size_t bytesize);
typedef CUresult(CUDAAPI *PFN_cuInit_v2000)(unsigned int Flags);
/* a typedef over several lines, a function-pointer parameter */
typedef CUresult (CUDAAPI *PFN_cuLaunchHostFunc_v10000)(
    CUstream hStream,
    CUhostFn fn,
    void *userData);
typedef CUresult (CUDAAPI *PFN_cuLaunchHostFunc_v10000_ptsz)(CUstream hStream, CUhostFn fn, void *userData);
/* per-thread variants take the newest default-stream symbol at or before their version */
typedef CUresult (CUDAAPI *PFN_cuMemcpyHtoD_v7000_ptds)(CUdeviceptr_v2 dstDevice, const void *srcHost, size_t ByteCount);
typedef CUresult (CUDAAPI *PFN_cuMemcpyHtoD_v3020)(CUdeviceptr_v2 dstDevice, const void *srcHost, size_t ByteCount);
/* no parameters; an unnamed parameter */
typedef CUresult (CUDAAPI *PFN_cuCtxSynchronize_v2000)(void);
typedef CUresult (CUDAAPI *PFN_cuCtxPushCurrent_v4000)(CUcontext);
/* not a CUresult: reported and skipped */
typedef int (CUDAAPI *PFN_cuNotAResult_v1000)(int x);
/* legacy variants behind a guard still count */
#if defined(__CUDA_API_VERSION_INTERNAL)
    typedef CUresult (CUDAAPI *PFN_cuMemAlloc_v2000)(CUdeviceptr_v1 *dptr, unsigned int bytesize);
    typedef CUresult (CUDAAPI *PFN_cuMemcpyHtoD_v2000)(CUdeviceptr_v1 dstDevice, const void *srcHost, unsigned int ByteCount);
#endif
/* typedef CUresult (CUDAAPI *PFN_cuInComment_v1000)(int x); */
/* Windows-only variants (their types exist only there) are left out, nested conditionals included */
#ifdef _WIN32
#if defined(SOMETHING)
#endif
typedef CUresult (CUDAAPI *PFN_cuWindowsOnly_v2020)(CUdevice_v1 *pDevice, HGPUNV hGpu);
#else
typedef CUresult (CUDAAPI *PFN_cuNotWindows_v2020)(CUdevice_v1 *pDevice);
#endif
