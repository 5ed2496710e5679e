/* cuGetProcAddress (CUDA 11.3 ABI, exported as cuGetProcAddress) and cuGetProcAddress_v2 (12.0): the
 * trampolines are generated like every other; these hooks swap the pointer the driver returned for the
 * trampoline of its exact variant.  The driver's result and *symbolStatus pass unchanged, and *pfn too
 * unless the call succeeded with a pointer we can identify. */
#include "config.h"

#include "preload/hooks.h"
#include "preload/interpose.h"

static void swap(CUresult r, const char *symbol, void **pfn, int version, cuuint64_t flags)
{
    if (r == CUDA_SUCCESS && pfn && symbol)
        *pfn = ct_wrap(*pfn, symbol, version > 0 ? (unsigned)version : 0,
                       (flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) != 0);
}

void ct_hook_cuGetProcAddress_v11030(CUresult r, const char *symbol, void **pfn, int driverVersion, cuuint64_t flags)
{
    swap(r, symbol, pfn, driverVersion, flags);
}

void ct_hook_cuGetProcAddress_v12000(CUresult r, const char *symbol, void **pfn, int driverVersion, cuuint64_t flags,
                                     CUdriverProcAddressQueryResult *symbolFound)
{
    swap(r, symbol, pfn, driverVersion, flags);
}
