// GPU time per launch against the kernels' own clock (issue: exact GPU time).  Single-thread kernels spin for
// about 2, 10 and 100 us on %globaltimer, 30 launches each, in two patterns: back to back (queued behind a
// 5 ms head, as a training loop queues them) and one at a time (each after a synchronize, onto an idle GPU).
// Every launch writes the span it saw; each goes to the figures file (gpu_timer.cuh) as `KERNEL_I NS` in
// launch order, and tests/gpu/expect/rt_gpu_exact.sh compares them launch by launch with the spans in the trace.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#include "gpu_timer.cuh"

#define CHECK(call)                                                                                      \
    do {                                                                                                 \
        cudaError_t err_ = (call);                                                                       \
        if (err_ != cudaSuccess) {                                                                       \
            fprintf(stderr, "rt_gpu_exact: %s failed: %s\n", #call, cudaGetErrorString(err_));           \
            exit(1);                                                                                     \
        }                                                                                                \
    } while (0)

static const int kLaunches = 30;

SPIN_KERNEL(exact2us_b2b, 2000ull)
SPIN_KERNEL(exact10us_b2b, 10000ull)
SPIN_KERNEL(exact100us_b2b, 100000ull)
SPIN_KERNEL(exact2us_idle, 2000ull)
SPIN_KERNEL(exact10us_idle, 10000ull)
SPIN_KERNEL(exact100us_idle, 100000ull)
SPIN_KERNEL(exactHead, 5000000ull)

static const struct {
    const char *name;
    spin_fn fn;
    unsigned long long ns;
    bool idle;
} kSpins[] = {
    {"exact2us_b2b", exact2us_b2b, 2000, false},     {"exact10us_b2b", exact10us_b2b, 10000, false},
    {"exact100us_b2b", exact100us_b2b, 100000, false}, {"exact2us_idle", exact2us_idle, 2000, true},
    {"exact10us_idle", exact10us_idle, 10000, true},   {"exact100us_idle", exact100us_idle, 100000, true},
};
static const int kKinds = sizeof kSpins / sizeof kSpins[0];

int main(void)
{
    const size_t slots = 2 * (size_t)kLaunches * kKinds;
    unsigned long long *dev, *head, *host = (unsigned long long *)calloc(slots, sizeof *host);
    cudaStream_t s;
    if (!host) {
        fprintf(stderr, "rt_gpu_exact: out of host memory\n");
        return 1;
    }
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CHECK(cudaMalloc((void **)&dev, slots * sizeof *dev));
    CHECK(cudaMalloc((void **)&head, 2 * sizeof *head));
    for (int k = 0; k < kKinds; k++) { // once each first: module loading and the first launch's costs
        kSpins[k].fn<<<1, 1, 0, s>>>(head);
        CHECK(cudaStreamSynchronize(s));
    }
    for (int k = 0; k < kKinds; k++) {
        unsigned long long *out = dev + 2 * (size_t)kLaunches * k;
        if (!kSpins[k].idle)
            exactHead<<<1, 1, 0, s>>>(head);
        for (int i = 0; i < kLaunches; i++) {
            if (kSpins[k].idle)
                CHECK(cudaStreamSynchronize(s));
            kSpins[k].fn<<<1, 1, 0, s>>>(out + 2 * i);
        }
        CHECK(cudaGetLastError());
        CHECK(cudaStreamSynchronize(s));
    }
    CHECK(cudaMemcpy(host, dev, slots * sizeof *host, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(head));
    CHECK(cudaFree(dev));
    CHECK(cudaStreamDestroy(s));
    for (int k = 0; k < kKinds; k++) {
        const unsigned long long *st = host + 2 * (size_t)kLaunches * k;
        for (int i = 0; i < kLaunches; i++) {
            const unsigned long long d = st[2 * i + 1] - st[2 * i];
            if (st[2 * i] == 0 || d < kSpins[k].ns) {
                fprintf(stderr, "rt_gpu_exact: %s launch %d measured %llu ns, less than %llu\n", kSpins[k].name, i, d,
                        kSpins[k].ns);
                return 1;
            }
            sample_figure("%s_%02d %llu", kSpins[k].name, i, d);
        }
    }
    free(host);
    printf("exact spin kernels 2us 10us 100us, back to back and one at a time, %d launches each: ok\n", kLaunches);
    return 0;
}
