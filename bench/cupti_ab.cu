// The minimal CUPTI callback tracer of doc/driver-facts.md (driver and runtime API domains,
// one timestamp per enter and per exit into a per-thread array), measured as `overhead -p` measures
// cudatrace: inside one process, blocks of launches with its callbacks on and off alternating (off-on,
// on-off, ...; "off" is CUPTI subscribed with its domains disabled, as cudatrace's "off" is the tracer
// loaded with capture off), each block starting with the GPU idle.  The timestamp is a bare rdtsc, the
// cheapest there is, so that the figure is CUPTI's own cost.  Run it without cudatrace.
// Usage: cupti_ab [-a] [PAIRS [LAUNCHES]]   (default 50 pairs, 200,000 launches)
// Prints `cupti_launch_off_us=`, `cupti_launch_on_us=` (medians of the blocks' µs per launch),
// `cupti_launch_ratio=` with `_q1=`/`_q3=` (the median and quartiles over the pairs of on / off) and
// `cupti_callbacks_per_launch=` (that the callbacks ran: 6 on the H100 with CUDA 13.0, an enter and an exit
// for each of the three API calls a `<<<...>>>` launch makes there).
//
// -a: CUPTI activity tracing instead of callbacks, with only CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL enabled:
// the GPU-side kernel timing nsys and torch.profiler use, to set beside cudatrace's CUDATRACE_GPU_TIME=all.
// "On" blocks enable the kind; at the end of each, with the GPU idle again, it is disabled and the records
// flushed (forced) to the buffer-completed callback, which counts them, so an "off" block starts with
// nothing pending.  The flush's wall time per launch of its block stands for what cudatrace's writer
// costs (overhead -p adds the writer's CPU time): it is added to the "on" block's time in the ratio.
// Prints `cupti_kernel_activity_off_us=`, `_on_us=`, `_flush_ns=` (medians: µs per launch, ns of flush per
// launch), `cupti_kernel_activity_ratio=` with `_q1=`/`_q3=` (over the pairs of (on + flush) / off) and
// `cupti_kernel_records_per_launch=` (that the records came: 1.00).
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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

// -a: CUPTI's activity buffers.  The completed callback may run on CUPTI's own thread.
static std::atomic<unsigned long> kernel_records{0};
static const size_t kActivityBuffer = 8 << 20;

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
    *buffer = (uint8_t *)aligned_alloc(8, kActivityBuffer); // CUPTI wants 8-byte alignment
    *size = *buffer ? kActivityBuffer : 0;
    *max_records = 0; // as many as fit
}

static void CUPTIAPI buffer_completed(CUcontext, uint32_t, uint8_t *buffer, size_t, size_t valid)
{
    CUpti_Activity *rec = nullptr;
    unsigned long n = 0;
    while (cuptiActivityGetNextRecord(buffer, valid, &rec) == CUPTI_SUCCESS)
        n += rec->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
    kernel_records += n;
    free(buffer);
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

// One pair of blocks per p, off-on then on-off, each starting with the GPU idle: `on` or `off` before the
// block, `off` after it; the blocks' µs per launch into on_us/off_us, and what `after_on` (run after an "on"
// block, before its `off`) returns into after_us.
template <typename On, typename Off, typename After>
static void alternate(long pairs, long per, On on, Off off, After after_on, std::vector<double> &off_us,
                      std::vector<double> &on_us, std::vector<double> &after_us)
{
    for (long p = 0; p < pairs; p++)
        for (int k = 0; k < 2; k++) {
            const bool is_on = (p % 2 == 0) == (k == 1);
            CHECK(cudaDeviceSynchronize());
            is_on ? on() : off();
            const double t0 = now_us();
            for (long i = 0; i < per; i++)
                emptyKernel<<<1, 1>>>();
            const double us = (now_us() - t0) / per;
            (is_on ? on_us : off_us).push_back(us);
            if (is_on)
                after_us.push_back(after_on());
            off();
        }
}

static void print_ratio(const char *name, std::vector<double> &ratio)
{
    bench_sort(ratio.data(), ratio.size());
    printf("%s_ratio=%.4f\n%s_ratio_q1=%.4f\n%s_ratio_q3=%.4f\n", name, quantile(ratio, 0.5), name,
           quantile(ratio, 0.25), name, quantile(ratio, 0.75));
}

static double median(std::vector<double> v)
{
    bench_sort(v.data(), v.size());
    return quantile(v, 0.5);
}

// -a: CONCURRENT_KERNEL activity on and off, flushed after each "on" block (see the top).
static void activity_ab(long pairs, long per)
{
    CHECK_CUPTI(cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed));
    CHECK(cudaFree(0));
    // The first enable sets CUPTI's activity tracing up (costly, once): outside the measured blocks.
    CHECK_CUPTI(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
    emptyKernel<<<1, 1>>>();
    CHECK(cudaDeviceSynchronize());
    CHECK_CUPTI(cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
    CHECK_CUPTI(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));
    const unsigned long records_before = kernel_records;

    std::vector<double> off_us, on_us, flush_us, ratio;
    alternate(
        pairs, per, [] { CHECK_CUPTI(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)); },
        [] {}, // disabled already, by the flush that follows each "on" block
        [] {
            CHECK(cudaDeviceSynchronize()); // every kernel of the block done: its records are all there
            CHECK_CUPTI(cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
            const double t0 = now_us();
            CHECK_CUPTI(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));
            return now_us() - t0;
        },
        off_us, on_us, flush_us);
    CHECK(cudaGetLastError());
    for (long p = 0; p < pairs; p++)
        ratio.push_back((on_us[p] + flush_us[p] / per) / off_us[p]);
    printf("cupti_kernel_activity_off_us=%.4f\ncupti_kernel_activity_on_us=%.4f\n", median(off_us), median(on_us));
    printf("cupti_kernel_activity_flush_ns=%.1f\n", median(flush_us) * 1000.0 / per);
    print_ratio("cupti_kernel_activity", ratio);
    printf("cupti_kernel_records_per_launch=%.2f\n", (double)(kernel_records - records_before) / (double)(pairs * per));
}

int main(int argc, char **argv)
{
    const bool activity = argc > 1 && strcmp(argv[1], "-a") == 0;
    if (activity) {
        argv++;
        argc--;
    }
    const long pairs = argc > 1 ? atol(argv[1]) : 50, launches = argc > 2 ? atol(argv[2]) : 200000;
    if (pairs < 1 || launches < 2 * pairs) {
        fprintf(stderr, "usage: cupti_ab [-a] [PAIRS [LAUNCHES]] (LAUNCHES at least 2 * PAIRS)\n");
        return 2;
    }
    const long per = launches / (2 * pairs);
    if (activity) {
        activity_ab(pairs, per);
        return 0;
    }
    CUpti_SubscriberHandle sub;

    CHECK_CUPTI(cuptiSubscribe(&sub, on_callback, nullptr));
    CHECK(cudaFree(0));
    emptyKernel<<<1, 1>>>();
    CHECK(cudaDeviceSynchronize());
    std::vector<double> off_us, on_us, none, ratio;
    const unsigned long stamps_before = nstamps;
    alternate(
        pairs, per, [&] { enable(sub, 1); }, [&] { enable(sub, 0); }, [] { return 0.0; }, off_us, on_us, none);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaGetLastError());
    CHECK_CUPTI(cuptiUnsubscribe(sub));
    for (long p = 0; p < pairs; p++)
        ratio.push_back(on_us[p] / off_us[p]);
    printf("cupti_launch_off_us=%.4f\ncupti_launch_on_us=%.4f\n", median(off_us), median(on_us));
    print_ratio("cupti_launch", ratio);
    // A check that the callbacks ran (an enter and an exit per API call the launch makes).
    printf("cupti_callbacks_per_launch=%.2f\n", (double)(nstamps - stamps_before) / (double)(pairs * per));
    return 0;
}
