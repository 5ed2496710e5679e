/* A driver-API sample whose allocations are made in a `static inline` function forced inline into its
 * caller, for the report's inlined frames (tests/integration/report-symbols.sh): the memory report must
 * show alloc_device_buffer, with its own line, as a frame before keep_buffers.  Built with -g always.  The
 * lines marked INLINE-ALLOC and INLINE-CALL are found by the test.  Usage: inline_drv.  Exit 0 and
 * "inline_drv: PASSED" when every call succeeded. */
#include "config.h"

#include "drv_sample.h"

#include <stdio.h>

#define BUFFERS 2
#define BYTES (1u << 20)

static CUdeviceptr kept[BUFFERS];
static volatile int buffers = BUFFERS; /* no unrolling: one call site */

static inline __attribute__((always_inline)) void alloc_device_buffer(CUdeviceptr *p, size_t bytes)
{
    CHECK(cuMemAlloc(p, bytes)); /* INLINE-ALLOC */
}

/* Allocated, never freed: a leak whose innermost frame is the inlined function. */
__attribute__((noinline)) static void keep_buffers(void)
{
    for (int i = 0; i < buffers; i++)
        alloc_device_buffer(&kept[i], BYTES); /* INLINE-CALL */
}

int main(void)
{
    CUdevice dev;
    CUcontext ctx;

    sample_primary_context(&dev, &ctx);
    keep_buffers();
    CHECK(cuCtxSynchronize());
    puts("inline_drv: PASSED");
    return 0;
}
