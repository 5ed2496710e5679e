/* A driver-API program that makes N launches of an empty kernel and N cuCtxGetDevice calls, for counting
 * the tracer's instructions per call under callgrind (bench/run-hotpath).  Runs on the simulated driver
 * or a real one.  Usage: hotpath N */
#include "config.h"

#include <cuda.h>
#include <stdlib.h>

#include "samples/drv_sample.h" /* CHECK: exit with the error named */

static const char ptx[] = ".version 8.0\n.target sm_75\n.address_size 64\n"
                          ".visible .entry emptyKernel()\n{\n\tret;\n}\n";

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 10000;
    CUdevice dev;
    CUcontext ctx;
    CUmodule mod;
    CUfunction fn;

    CHECK(cuInit(0));
    CHECK(cuDeviceGet(&dev, 0));
    CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CHECK(cuCtxSetCurrent(ctx));
    CHECK(cuModuleLoadData(&mod, ptx));
    CHECK(cuModuleGetFunction(&fn, mod, "emptyKernel"));
    for (long i = 0; i < n; i++)
        CHECK(cuLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL));
    for (long i = 0; i < n; i++)
        CHECK(cuCtxGetDevice(&dev));
    CHECK(cuCtxSynchronize());
    CHECK(cuModuleUnload(mod));
    CHECK(cuDevicePrimaryCtxRelease(dev));
    return 0;
}
