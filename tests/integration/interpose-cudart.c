/* A stand-in for the CUDA runtime's cudaGetDriverEntryPoint[ByVersion] (built as libcudart.so.13 in the test
 * directory), implemented as the runtime does, over the driver's cuGetProcAddress_v2.  It looks that function
 * up with glibc's own dlsym (found by version), not through libcudatrace's, so the pointers it returns are
 * the driver's own and the tracer's exports of these two functions must swap them. */
#include "config.h"

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <limits.h>

typedef CUresult (*get_proc_fn)(const char *, void **, int, cuuint64_t, CUdriverProcAddressQueryResult *);

static cudaError_t entry_point(const char *symbol, void **funcPtr, int version, unsigned long long flags,
                               enum cudaDriverEntryPointQueryResult *status)
{
    void *(*glibc_dlsym)(void *, const char *) = (void *(*)(void *, const char *))dlvsym(RTLD_DEFAULT, "dlsym", "GLIBC_2.34");
    if (!glibc_dlsym)
        glibc_dlsym = (void *(*)(void *, const char *))dlvsym(RTLD_DEFAULT, "dlsym", "GLIBC_2.2.5");
    void *driver = dlopen("libcuda.so.1", RTLD_NOW);
    get_proc_fn get = driver && glibc_dlsym ? (get_proc_fn)glibc_dlsym(driver, "cuGetProcAddress_v2") : NULL;
    CUdriverProcAddressQueryResult found = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    if (!get)
        return cudaErrorInitializationError;
    cuuint64_t driver_flags = flags & cudaEnablePerThreadDefaultStream ? CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM
                                                                       : CU_GET_PROC_ADDRESS_DEFAULT;
    CUresult r = get(symbol, funcPtr, version, driver_flags, &found);
    if (status)
        *status = found == CU_GET_PROC_ADDRESS_SUCCESS ? cudaDriverEntryPointSuccess
                  : found == CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT ? cudaDriverEntryPointVersionNotSufficent
                                                                         : cudaDriverEntryPointSymbolNotFound;
    return r == CUDA_SUCCESS ? cudaSuccess : cudaErrorSymbolNotFound;
}

cudaError_t cudaGetDriverEntryPointByVersion(const char *symbol, void **funcPtr, unsigned int cudaVersion,
                                             unsigned long long flags, enum cudaDriverEntryPointQueryResult *driverStatus)
{
    return entry_point(symbol, funcPtr, (int)cudaVersion, flags, driverStatus);
}

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
cudaError_t cudaGetDriverEntryPoint(const char *symbol, void **funcPtr, unsigned long long flags,
                                    enum cudaDriverEntryPointQueryResult *driverStatus)
{
    return entry_point(symbol, funcPtr, CUDART_VERSION, flags, driverStatus);
}
