/* Capture ranges: launches before, inside and after cuProfilerStart/cuProfilerStop ranges, and a range left
 * open at exit, as a program marks the part of its run it wants profiled.  In order: 3 launches of grid 1
 * and a cuCtxSynchronize; a cuGetProcAddress of cuCtxSynchronize; cuProfilerStart, 5 launches of grid 2, a
 * cuCtxSynchronize through the pointer looked up before the range, cuProfilerStop; 7 launches of grid 3;
 * the module unloaded and another loaded, whose kernel otherKernel the simulated driver gives emptyKernel's
 * old handle (said on stderr); cuProfilerStart, 11 launches of otherKernel with grid 4, a cuCtxSynchronize,
 * and the range stays open to the end (module unload, context release).  What happens outside the ranges
 * must still count: the pointer looked up is the tracer's, and otherKernel's launches are not named
 * emptyKernel.  Runs on a GPU and on the simulated driver.  Prints the launch count on stdout. */
#include <cuda.h>
#include <cudaProfiler.h>
#include <stdio.h>

#include "drv_sample.h"

static const char other_ptx[] = ".version 8.0\n.target sm_75\n.address_size 64\n"
                                ".visible .entry otherKernel()\n{\n\tret;\n}\n";

static void launches(CUfunction fn, unsigned grid, int n)
{
    for (int i = 0; i < n; i++)
        CHECK(cuLaunchKernel(fn, grid, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL));
}

int main(void)
{
    struct sample_empty_kernel k;
    CUresult (*sync)(void) = NULL;
    CUdriverProcAddressQueryResult found;

    sample_empty_kernel_load(&k);
    launches(k.fn, 1, 3);
    CHECK(cuCtxSynchronize());
    CHECK(cuGetProcAddress("cuCtxSynchronize", (void **)&sync, 12000, CU_GET_PROC_ADDRESS_DEFAULT, &found));
    sample_require(sync != NULL && found == CU_GET_PROC_ADDRESS_SUCCESS, "cuCtxSynchronize by cuGetProcAddress");

    CHECK(cuProfilerStart());
    launches(k.fn, 2, 5);
    CHECK(sync());
    CHECK(cuProfilerStop());

    launches(k.fn, 3, 7);
    CUfunction old = k.fn;
    CHECK(cuModuleUnload(k.mod));
    CHECK(cuModuleLoadData(&k.mod, other_ptx));
    CHECK(cuModuleGetFunction(&k.fn, k.mod, "otherKernel"));
    if (k.fn == old)
        fprintf(stderr, "profiler_range_drv: otherKernel has emptyKernel's old handle\n");

    CHECK(cuProfilerStart());
    launches(k.fn, 4, 11);
    CHECK(cuCtxSynchronize());
    printf("profiler_range_drv: %d launches\n", 3 + 5 + 7 + 11);
    sample_empty_kernel_done(&k);
    return 0;
}
