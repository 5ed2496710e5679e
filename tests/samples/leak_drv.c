/* A driver-API sample that leaks device memory on purpose, for the memory and stacks reports: one function
 * keeps three 1 MiB buffers past the end (a cache never released), another allocates two 2 MiB scratch
 * buffers and frees them, which makes the 7 MiB peak.  The two are separate, never-inlined functions so the
 * call stacks name them.  Usage: leak_drv.  Exit 0 and "leak_drv: PASSED" when every call succeeded. */
#include "config.h"

#include "drv_sample.h"

#include <stdio.h>

#define CACHE_BUFFERS 3
#define CACHE_BYTES (1u << 20)
#define SCRATCH_BUFFERS 2
#define SCRATCH_BYTES (2u << 20)

static CUdeviceptr cache[CACHE_BUFFERS];
/* Loop bounds the compiler cannot see: an unrolled loop would make one source line several call sites. */
static volatile int cache_buffers = CACHE_BUFFERS, scratch_buffers = SCRATCH_BUFFERS;

/* Allocated once, never freed: the leak. */
__attribute__((noinline)) static void leak_cache_buffers(void)
{
    for (int i = 0; i < cache_buffers; i++)
        CHECK(cuMemAlloc(&cache[i], CACHE_BYTES));
}

/* Allocated and freed: at the peak, but not a leak. */
__attribute__((noinline)) static void scratch_roundtrip(void)
{
    CUdeviceptr scratch[SCRATCH_BUFFERS];
    for (int i = 0; i < scratch_buffers; i++)
        CHECK(cuMemAlloc(&scratch[i], SCRATCH_BYTES));
    CHECK(cuMemsetD8(scratch[0], 0, SCRATCH_BYTES));
    for (int i = 0; i < scratch_buffers; i++)
        CHECK(cuMemFree(scratch[i]));
}

int main(void)
{
    CUdevice dev;
    CUcontext ctx;

    CHECK(cuInit(0));
    CHECK(cuDeviceGet(&dev, 0));
    CHECK(cuCtxCreate(&ctx, NULL, 0, dev));
    leak_cache_buffers();
    scratch_roundtrip();
    CHECK(cuCtxSynchronize());
    puts("leak_drv: PASSED"); /* the context and the cache stay: the driver frees them at exit */
    return 0;
}
