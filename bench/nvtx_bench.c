/* NVTX push+pop cost: nvtxRangePushA/nvtxRangePop pairs in a loop, with the toolkit's header-only NVTX 3,
 * on the simulated driver (one driver call first, so the trace is the usual one; the pairs themselves touch
 * no driver).  Run it preloaded (bench/run-nvtx does, and untraced for the baseline: NVTX's own no-op).
 * Prints the median over rounds of ns per pair; never pass/fail. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <cuda.h>
#include <nvtx3/nvToolsExt.h>

#include "quantile.h"

#define ROUNDS 15

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
    long pairs = argc > 1 ? atol(argv[1]) : 200000;
    double per[ROUNDS];
    cuInit(0);
    for (int w = 0; w < 1000; w++) { /* NVTX's initialization and the message's first interning */
        nvtxRangePushA("step");
        nvtxRangePop();
    }
    for (int r = 0; r < ROUNDS; r++) {
        double t0 = now_ns();
        for (long i = 0; i < pairs; i++) {
            nvtxRangePushA("step");
            nvtxRangePop();
        }
        per[r] = (now_ns() - t0) / (double)pairs;
    }
    bench_sort(per, ROUNDS);
    printf("nvtx push+pop: %.1f ns per pair (median of %d rounds of %ld pairs; min %.1f)\n",
           bench_quantile(per, ROUNDS, 0.5), ROUNDS, pairs, per[0]);
    return 0;
}
