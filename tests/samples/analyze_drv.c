/* A driver-API sample with one planted problem per analyze rule, and the same loop fixed, for
 * tests/integration/analyze-rules.sh on the simulated driver (its spin kernel keeps the device busy for
 * the nanoseconds it is given).  Usage: analyze_drv RULE[-fixed], RULE one of sync, pageable, churn, small,
 * idle, launch, leak; or analyze_drv rank (one rank of a job: tests/integration/analyze-ranks.sh).  Each
 * runs STEPS steps after a short set-up; the lines the report must name carry a comment the test finds
 * them by.  Exit 0 and "analyze_drv: PASSED" when every call succeeded. */
#include "config.h"

#include "drv_sample.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define STEPS 40
#define MIB (1u << 20)

static const char ptx[] = ".version 8.0\n.target sm_90\n.address_size 64\n"
                          ".visible .entry spin(.param .u64 ns)\n{\n ret;\n}\n"
                          ".visible .entry ncclDevKernel_AllReduce_Sum_f32_RING_LL()\n{\n ret;\n}\n";
static CUfunction spin_fn, allreduce_fn;
static CUstream stream;
static CUdeviceptr dbuf;
/* Loop bounds the compiler cannot see: an unrolled loop would make one source line several call sites. */
static volatile int steps = STEPS, launches_per_step = 100, copies_per_step = 32;

/* Keep the stream busy for ns of device time. */
__attribute__((noinline)) static void spin(unsigned long long ns)
{
    void *args[] = {&ns};
    CHECK(cuLaunchKernel(spin_fn, 1, 1, 1, 1, 1, 1, 0, stream, args, NULL)); /* ANALYZE-LAUNCH */
}

/* sync: every step waits for the GPU; fixed: one wait at the end. */
__attribute__((noinline)) static void step_sync(int fixed)
{
    spin(200000);
    if (!fixed)
        CHECK(cuCtxSynchronize()); /* ANALYZE-SYNC */
}

/* pageable: an async copy from malloc'ed memory each step; fixed: from pinned memory. */
__attribute__((noinline)) static void step_copy(void *host)
{
    CHECK(cuMemcpyHtoDAsync(dbuf, host, MIB, stream)); /* ANALYZE-PAGEABLE */
    spin(50000);
}

/* churn: a buffer allocated and freed each step; fixed: the buffer of the set-up. */
__attribute__((noinline)) static void step_alloc(int fixed)
{
    CUdeviceptr p = dbuf;
    if (!fixed)
        CHECK(cuMemAlloc(&p, MIB)); /* ANALYZE-CHURN */
    CHECK(cuMemsetD8Async(p, 0, MIB, stream));
    spin(50000);
    if (!fixed) {
        CHECK(cuStreamSynchronize(stream));
        CHECK(cuMemFree(p));
    }
}

/* small: 32 copies of 4 KiB each step; fixed: one of 128 KiB. */
__attribute__((noinline)) static void step_small(const char *pinned, int fixed)
{
    if (fixed) {
        CHECK(cuMemcpyHtoDAsync(dbuf, pinned, 32 * 4096, stream));
        return;
    }
    for (int i = 0; i < copies_per_step; i++)
        CHECK(cuMemcpyHtoDAsync(dbuf + (size_t)i * 4096, pinned + (size_t)i * 4096, 4096, stream)); /* ANALYZE-SMALL */
}

/* The host's own work between launches: a query and 2 ms of something else. */
__attribute__((noinline)) static void host_work(void)
{
    size_t free_b, total_b;
    usleep(2000);
    CHECK(cuMemGetInfo(&free_b, &total_b)); /* ANALYZE-HOST */
}

/* idle: 100 us of GPU work, then host work the GPU waits through; fixed: 10 ms of GPU work a step, which
 * keeps work queued ahead of the GPU however long the host's 2 ms take on a loaded machine. */
__attribute__((noinline)) static void step_idle(int fixed)
{
    spin(fixed ? 10000000 : 100000); /* ANALYZE-IDLE */
    host_work();
}

/* A framework's own work before each launch: 5 us of host time. */
static void host_overhead(void)
{
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    do
        clock_gettime(CLOCK_MONOTONIC, &t);
    while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < 5000);
}

/* launch: 100 launches of empty kernels each step, 5 us apart; fixed: kernels of 100 us each, longer than
 * the most the launch-bound rule counts between two launches (--launch-interval, 50 us). */
__attribute__((noinline)) static void step_launch(int fixed)
{
    for (int i = 0; i < launches_per_step; i++) {
        host_overhead();
        spin(fixed ? 100000 : 0); /* ANALYZE-LAUNCHES */
    }
}

/* rank: a step of 1 ms of compute (2 ms with ANALYZE_SLOW set: the slowed rank), then an all-reduce, a
 * kernel named as NCCL's whose duration (the simulated driver's SIM_KERNEL_NS) stands for the wait. */
__attribute__((noinline)) static void step_rank(void)
{
    spin(getenv("ANALYZE_SLOW") ? 2000000 : 1000000);
    CHECK(cuLaunchKernel(allreduce_fn, 1, 1, 1, 1, 1, 1, 0, stream, NULL, NULL));
    CHECK(cuStreamSynchronize(stream));
}

/* leak: a cache of three buffers never freed; fixed: freed. */
static CUdeviceptr cache[3];
__attribute__((noinline)) static void keep_cache(void)
{
    for (int i = 0; i < 3; i++)
        CHECK(cuMemAlloc(&cache[i], MIB)); /* ANALYZE-LEAK */
}

int main(int argc, char **argv)
{
    const char *rule = argc > 1 ? argv[1] : "";
    size_t n = strlen(rule);
    int fixed = n > 6 && !strcmp(rule + n - 6, "-fixed");
    if (fixed)
        n -= 6;
    CUdevice dev;
    CUcontext ctx;
    CUmodule mod;
    sample_primary_context(&dev, &ctx);
    CHECK(cuModuleLoadData(&mod, ptx));
    CHECK(cuModuleGetFunction(&spin_fn, mod, "spin"));
    CHECK(cuModuleGetFunction(&allreduce_fn, mod, "ncclDevKernel_AllReduce_Sum_f32_RING_LL"));
    CHECK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
    CHECK(cuMemAlloc(&dbuf, MIB));
    void *pageable = calloc(1, MIB), *pinned;
    CHECK(cuMemAllocHost(&pinned, MIB));
    sample_require(pageable != NULL, "calloc");
    for (int s = 0; s < steps; s++) {
        if (!strncmp(rule, "sync", n) && n == 4)
            step_sync(fixed);
        else if (!strncmp(rule, "pageable", n) && n == 8)
            step_copy(fixed ? pinned : pageable);
        else if (!strncmp(rule, "churn", n) && n == 5)
            step_alloc(fixed);
        else if (!strncmp(rule, "small", n) && n == 5)
            step_small(pinned, fixed);
        else if (!strncmp(rule, "idle", n) && n == 4)
            step_idle(fixed);
        else if (!strncmp(rule, "rank", n) && n == 4)
            step_rank();
        else if (!strncmp(rule, "launch", n) && n == 6)
            step_launch(fixed);
        else if (!strncmp(rule, "leak", n) && n == 4) {
            if (s == 0)
                keep_cache();
            spin(100000);
        } else {
            fprintf(stderr, "usage: analyze_drv sync|pageable|churn|small|idle|launch|leak[-fixed]|rank\n");
            return 2;
        }
    }
    CHECK(cuCtxSynchronize());
    if (!strncmp(rule, "leak", n) && fixed)
        for (int i = 0; i < 3; i++)
            CHECK(cuMemFree(cache[i]));
    CHECK(cuMemFree(dbuf));
    CHECK(cuMemFreeHost(pinned));
    free(pageable);
    CHECK(cuStreamDestroy(stream));
    CHECK(cuModuleUnload(mod));
    CHECK(cuDevicePrimaryCtxRelease(dev));
    puts("analyze_drv: PASSED");
    return 0;
}
