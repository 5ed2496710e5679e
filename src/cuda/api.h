/* The driver API as the tracer's code sees it: every ABI variant, under its own name.
 *
 * __CUDA_API_VERSION_INTERNAL makes cuda.h declare the legacy variants and their types (CUdeviceptr_v1,
 * CUDA_MEMCPY2D_v1, ...) that cudaTypedefs.h's oldest PFN_ typedefs use, and undefine its name-mapping
 * macros (cuMemAlloc -> cuMemAlloc_v2), so `cuMemAlloc` means the function of that exported name.  Include
 * this before anything else that includes cuda.h. */
#ifndef CT_CUDA_API_H
#define CT_CUDA_API_H

#ifndef __CUDA_API_VERSION_INTERNAL
#define __CUDA_API_VERSION_INTERNAL 1
#endif
#include <cuda.h>
#include <cudaTypedefs.h>

#endif
