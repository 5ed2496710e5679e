// Capture ranges through the runtime: launches before, inside and after cudaProfilerStart/cudaProfilerStop
// ranges, as tests/samples/profiler_range_drv.c does through the driver API: 3 launches of grid 1 and a
// synchronize, cudaProfilerStart, 5 of grid 2, cudaProfilerStop, 7 of grid 3, cudaProfilerStart, 11 of
// grid 4 and a synchronize (the range stays open).  Traced with CUDATRACE_CAPTURE=profiler only the ranges
// are recorded (tests/gpu/expect/rt_profiler_range.sh).
#include <cstdio>
#include <cstdlib>
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>

#define CHECK(call)                                                                                      \
    do {                                                                                                 \
        cudaError_t err_ = (call);                                                                       \
        if (err_ != cudaSuccess) {                                                                       \
            fprintf(stderr, "rt_profiler_range: %s failed: %s\n", #call, cudaGetErrorString(err_));      \
            exit(1);                                                                                     \
        }                                                                                                \
    } while (0)

__global__ void rangeKernel(void) {}

static void launches(unsigned grid, int n)
{
    for (int i = 0; i < n; i++)
        rangeKernel<<<grid, 1>>>();
    CHECK(cudaGetLastError());
}

int main(void)
{
    launches(1, 3);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaProfilerStart());
    launches(2, 5);
    CHECK(cudaProfilerStop());
    launches(3, 7);
    CHECK(cudaProfilerStart());
    launches(4, 11);
    CHECK(cudaDeviceSynchronize());
    printf("rt_profiler_range: %d launches\n", 3 + 5 + 7 + 11);
    return 0;
}
