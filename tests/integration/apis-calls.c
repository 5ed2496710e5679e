/* For apis.sh: a driver-API program whose calls the test counts.  Usage: apis-calls N
 *   N cuCtxGetDevice, N/2 cuCtxGetDevice_v2 (the same function, another variant), a cuCtxGetDevice and a
 *   cuDeviceGetAttribute that fail (CUDA_ERROR_INVALID_VALUE: a NULL output, attribute 0), one allocation of each
 *   kind the tracer tracks, and copies between them (tracked ends only: the tracer classifies them
 *   without asking the driver), 2 more from pinned memory after a primary context release that is not the
 *   last and a failed cuMemHostUnregister (the map keeps it), then 3 copies from and to pageable host memory (which the tracer never saw
 *   allocated: it asks only for cuMemcpy's unified address), then the frees.  Prints one line. */
#include "config.h"

#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>

#include "samples/drv_sample.h"

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 100;
    CUdevice dev, got;
    CUcontext ctx;
    CUdeviceptr d1, d2, m;
    void *pinned, *pinned2;
    char pageable[4096] = {1};
    const size_t bytes = sizeof pageable;

    sample_primary_context(&dev, &ctx);
    for (long i = 0; i < n; i++)
        CHECK(cuCtxGetDevice(&got));
    for (long i = 0; i < n / 2; i++)
        CHECK(cuCtxGetDevice_v2(&got, NULL));
    int value;
    sample_require(cuCtxGetDevice(NULL) == CUDA_ERROR_INVALID_VALUE, "cuCtxGetDevice(NULL) fails");
    sample_require(cuDeviceGetAttribute(&value, (CUdevice_attribute)0, dev) == CUDA_ERROR_INVALID_VALUE,
                   "cuDeviceGetAttribute of attribute 0 fails");
    CHECK(cuMemAlloc(&d1, bytes));
    CHECK(cuMemAlloc(&d2, bytes));
    CHECK(cuMemAllocManaged(&m, bytes, CU_MEM_ATTACH_GLOBAL));
    CHECK(cuMemAllocHost(&pinned, bytes));
    CHECK(cuMemHostAlloc(&pinned2, bytes, 0));
    /* Tracked ends: 8 copies, 0 questions to the driver. */
    CHECK(cuMemcpyHtoD(d1, pinned, bytes));
    CHECK(cuMemcpyDtoD(d2, d1, bytes));
    CHECK(cuMemcpyDtoH(pinned2, d2 + 16, bytes - 16)); /* an address inside an allocation */
    CHECK(cuMemcpy(d1, (CUdeviceptr)(uintptr_t)pinned, bytes));
    CHECK(cuMemcpy((CUdeviceptr)(uintptr_t)pinned2, d1, bytes));
    CHECK(cuMemcpy(m, d1, bytes));
    CHECK(cuMemcpyAsync(d2, m, bytes, NULL));
    CHECK(cuMemcpyHtoDAsync(d1, pinned2, bytes, NULL));
    /* A release that is not the last, and a failed unregister of pinned memory: the map keeps what it knew
     * (2 more copies from pinned memory, 0 questions). */
    CUcontext again;
    CHECK(cuDevicePrimaryCtxRetain(&again, dev));
    CHECK(cuDevicePrimaryCtxRelease(dev));
    sample_require(cuMemHostUnregister(pinned) != CUDA_SUCCESS, "unregistering memory never registered fails");
    CHECK(cuMemcpyHtoD(d1, pinned, bytes));
    CHECK(cuMemcpyHtoDAsync(d2, pinned, bytes, NULL));
    /* Pageable memory: 3 copies; only cuMemcpy's unified address is asked of the driver. */
    CHECK(cuMemcpyHtoD(d1, pageable, bytes));
    CHECK(cuMemcpyDtoH(pageable, d1, bytes));
    CHECK(cuMemcpy(d2, (CUdeviceptr)(uintptr_t)pageable, bytes));
    CHECK(cuCtxSynchronize());
    CHECK(cuMemFreeHost(pinned2));
    CHECK(cuMemFreeHost(pinned));
    CHECK(cuMemFree(m));
    CHECK(cuMemFree(d2));
    CHECK(cuMemFree(d1));
    CHECK(cuDevicePrimaryCtxRelease(dev));
    printf("apis-calls: %ld + %ld device queries, 13 copies\n", n, n / 2);
    return 0;
}
