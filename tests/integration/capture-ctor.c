/* libcapturector: a library whose constructor uses the driver, as some frameworks' do.  The loader runs it
 * before the constructor of a preloaded library (dependencies first), so the tracer sees these calls before
 * its own constructor has run.  It ends by opening a capture range (tests/integration/capture.sh). */
#include <cuda.h>
#include <cudaProfiler.h>
#include <stdio.h>
#include <stdlib.h>

static void check(CUresult r, const char *what)
{
    if (r != CUDA_SUCCESS) {
        fprintf(stderr, "libcapturector: %s failed: %d\n", what, (int)r);
        exit(1);
    }
}

static int ready;

/* For the program to link against: without a reference the linker may drop the library (--as-needed). */
int capturector_ready(void);
int capturector_ready(void) { return ready; }

__attribute__((constructor)) static void set_up(void)
{
    CUdevice dev;
    CUcontext ctx;

    check(cuInit(0), "cuInit");
    check(cuDeviceGet(&dev, 0), "cuDeviceGet");
    check(cuDevicePrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain");
    check(cuCtxSetCurrent(ctx), "cuCtxSetCurrent");
    check(cuProfilerStart(), "cuProfilerStart");
    ready = 1;
}
