// The minimal CUPTI callback tracer of doc/driver-facts.md (driver and runtime API domains,
// one timestamp per enter and per exit into a per-thread array), measured as `overhead -p` measures
// cudatrace: inside one process, blocks of launches with its callbacks on and off alternating (off-on,
// on-off, ...; "off" is CUPTI subscribed with its domains disabled, as cudatrace's "off" is the tracer
// loaded with capture off), each block starting with the GPU idle.  The timestamp is a bare rdtsc, the
// cheapest there is, so that the figure is CUPTI's own cost.  Run it without cudatrace.
// Usage: cupti_ab [PAIRS [LAUNCHES]]   (default 50 pairs, 200,000 launches)
// Prints `cupti_launch_off_us=`, `cupti_launch_on_us=` (medians of the blocks' µs per launch),
// `cupti_launch_ratio=` with `_q1=`/`_q3=` (the median and quartiles over the pairs of on / off) and
// `cupti_callbacks_per_launch=` (that the callbacks ran: 6 on the H100 with CUDA 13.0, an enter and an exit
// for each of the three API calls a `<<<...>>>` launch makes there).
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cupti.h>
#include <cuda_runtime.h>
#include <vector>
#include <x86intrin.h>

#include "quantile.h"

#define CHECK(call)                                                                                      \
    do {                                                                                                 \
        cudaError_t err_ = (call);                                                                       \
        if (err_ != cudaSuccess) {                                                                       \
            fprintf(stderr, "cupti_ab: %s failed: %s\n", #call, cudaGetErrorString(err_));               \
            exit(1);                                                                                     \
        }                                                                                                \
    } while (0)
#define CHECK_CUPTI(call)                                                                                \
    do {                                                                                                 \
        CUptiResult err_ = (call);                                                                       \
        if (err_ != CUPTI_SUCCESS) {                                                                     \
            const char *s_ = "?";                                                                        \
            cuptiGetResultString(err_, &s_);                                                             \
            fprintf(stderr, "cupti_ab: %s failed: %s\n", #call, s_);                                     \
            exit(1);                                                                                     \
        }                                                                                                \
    } while (0)

__global__ void emptyKernel(void) {}

thread_local uint64_t stamps[1 << 16]; // external: kept, as a tracer's records would be
thread_local unsigned long nstamps;

static void CUPTIAPI on_callback(void *, CUpti_CallbackDomain, CUpti_CallbackId, const void *)
{
    stamps[nstamps++ & ((1u << 16) - 1)] = __rdtsc();
}

static double now_us(void)
{
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

static double quantile(const std::vector<double> &sorted, double p)
{
    return bench_quantile(sorted.data(), sorted.size(), p);
}

static void enable(CUpti_SubscriberHandle sub, uint32_t on)
{
    CHECK_CUPTI(cuptiEnableDomain(on, sub, CUPTI_CB_DOMAIN_DRIVER_API));
    CHECK_CUPTI(cuptiEnableDomain(on, sub, CUPTI_CB_DOMAIN_RUNTIME_API));
}

int main(int argc, char **argv)
{
    const long pairs = argc > 1 ? atol(argv[1]) : 50, launches = argc > 2 ? atol(argv[2]) : 200000;
    if (pairs < 1 || launches < 2 * pairs) {
        fprintf(stderr, "usage: cupti_ab [PAIRS [LAUNCHES]] (LAUNCHES at least 2 * PAIRS)\n");
        return 2;
    }
    const long per = launches / (2 * pairs);
    CUpti_SubscriberHandle sub;

    CHECK_CUPTI(cuptiSubscribe(&sub, on_callback, nullptr));
    CHECK(cudaFree(0));
    emptyKernel<<<1, 1>>>();
    CHECK(cudaDeviceSynchronize());
    std::vector<double> off_us, on_us, ratio;
    const unsigned long stamps_before = nstamps;
    for (long p = 0; p < pairs; p++)
        for (int k = 0; k < 2; k++) {
            const bool on = (p % 2 == 0) == (k == 1);
            CHECK(cudaDeviceSynchronize());
            enable(sub, on);
            const double t0 = now_us();
            for (long i = 0; i < per; i++)
                emptyKernel<<<1, 1>>>();
            const double us = (now_us() - t0) / per;
            enable(sub, 0);
            (on ? on_us : off_us).push_back(us);
        }
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaGetLastError());
    CHECK_CUPTI(cuptiUnsubscribe(sub));
    for (long p = 0; p < pairs; p++)
        ratio.push_back(on_us[p] / off_us[p]);
    for (std::vector<double> *v : {&off_us, &on_us, &ratio})
        bench_sort(v->data(), v->size());
    printf("cupti_launch_off_us=%.4f\ncupti_launch_on_us=%.4f\n", quantile(off_us, 0.5), quantile(on_us, 0.5));
    printf("cupti_launch_ratio=%.4f\ncupti_launch_ratio_q1=%.4f\ncupti_launch_ratio_q3=%.4f\n", quantile(ratio, 0.5),
           quantile(ratio, 0.25), quantile(ratio, 0.75));
    // A check that the callbacks ran (an enter and an exit per API call the launch makes).
    printf("cupti_callbacks_per_launch=%.2f\n", (double)(nstamps - stamps_before) / (double)(pairs * per));
    return 0;
}
