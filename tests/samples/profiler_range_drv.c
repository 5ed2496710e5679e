/* Capture ranges: launches before, inside and after cuProfilerStart/cuProfilerStop ranges, and a range left
 * open at exit, as a program marks the part of its run it wants profiled.  Per phase, in order: 3 launches
 * and a cuCtxSynchronize, then cuProfilerStart, 5 launches of grid 2, cuProfilerStop, 7 launches of grid 3,
 * cuProfilerStart, 11 launches of grid 4 (the range stays open).  Runs on a GPU and on the simulated driver.
 * Prints the launch count on stdout. */
#include "config.h"

#include <cuda.h>
#include <cudaProfiler.h>
#include <stdio.h>

#include "drv_sample.h"

static void launches(const struct sample_empty_kernel *k, unsigned grid, int n)
{
    for (int i = 0; i < n; i++)
        CHECK(cuLaunchKernel(k->fn, grid, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL));
}

int main(void)
{
    struct sample_empty_kernel k;

    sample_empty_kernel_load(&k);
    launches(&k, 1, 3);
    CHECK(cuCtxSynchronize());
    CHECK(cuProfilerStart());
    launches(&k, 2, 5);
    CHECK(cuProfilerStop());
    launches(&k, 3, 7);
    CHECK(cuProfilerStart());
    launches(&k, 4, 11);
    CHECK(cuCtxSynchronize());
    printf("profiler_range_drv: %d launches\n", 3 + 5 + 7 + 11);
    sample_empty_kernel_done(&k);
    return 0;
}
