// What timing events cost a launch-bound loop when the program records them itself, with no tracer: the
// floor under cudatrace's GPU time (doc/gpu-time.md).  In one process, blocks of empty <<<1,1>>> launches
// on the default stream alternate between three kinds, in rotating order: plain; a pair of timing events
// (cudaEventRecord before and after, from a pool made beforehand) around 1 launch in 32; a pair around every
// launch.  Each block starts with the GPU idle.  Events are read back only after the measurement.
// Usage: events_ab [ROUNDS [LAUNCHES]]   (default 12 rounds of 100,000 launches)
// Prints the median µs per launch of each kind and `events_1in32_ratio=`, `events_all_ratio=` (medians over
// the rounds of each kind over the plain block of its round) with `_q1=`/`_q3=`.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#include "quantile.h"

#define CHECK(call)                                                                                      \
    do {                                                                                                 \
        cudaError_t err_ = (call);                                                                       \
        if (err_ != cudaSuccess) {                                                                       \
            fprintf(stderr, "events_ab: %s failed: %s\n", #call, cudaGetErrorString(err_));              \
            exit(1);                                                                                     \
        }                                                                                                \
    } while (0)

__global__ void empty_kernel() {}

/* Quantile p of v (sorted here). */
static double quantile(std::vector<double> &v, double p)
{
    bench_sort(v.data(), v.size());
    return bench_quantile(v.data(), v.size(), p);
}

static double now_us()
{
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

int main(int argc, char **argv)
{
    const int rounds = argc > 1 ? atoi(argv[1]) : 12, launches = argc > 2 ? atoi(argv[2]) : 100000;
    if (rounds < 1 || launches < 32) {
        fprintf(stderr, "usage: events_ab [ROUNDS [LAUNCHES]] (ROUNDS >= 1, LAUNCHES >= 32)\n");
        return 2;
    }
    std::vector<cudaEvent_t> ev(2 * (size_t)launches);
    for (auto &e : ev)
        CHECK(cudaEventCreate(&e));
    empty_kernel<<<1, 1>>>();
    CHECK(cudaDeviceSynchronize());
    std::vector<double> us[3], r32, rall;
    for (int round = 0; round < rounds; round++) {
        double t[3];
        for (int i = 0; i < 3; i++) {
            const int kind = (i + round) % 3; /* 0 plain, 1 one in 32, 2 every launch */
            CHECK(cudaDeviceSynchronize());
            const double t0 = now_us();
            for (int n = 0, k = 0; n < launches; n++) {
                const bool timed = kind == 2 || (kind == 1 && n % 32 == 0);
                if (timed)
                    cudaEventRecord(ev[2 * k], 0);
                empty_kernel<<<1, 1>>>();
                if (timed)
                    cudaEventRecord(ev[2 * k++ + 1], 0);
            }
            CHECK(cudaDeviceSynchronize());
            t[kind] = (now_us() - t0) / launches;
            us[kind].push_back(t[kind]);
        }
        r32.push_back(t[1] / t[0]);
        rall.push_back(t[2] / t[0]);
    }
    CHECK(cudaGetLastError());
    printf("events_plain_us=%.4f\nevents_1in32_us=%.4f\nevents_all_us=%.4f\n", quantile(us[0], 0.5),
           quantile(us[1], 0.5), quantile(us[2], 0.5));
    printf("events_1in32_ratio=%.4f\nevents_1in32_ratio_q1=%.4f\nevents_1in32_ratio_q3=%.4f\n", quantile(r32, 0.5),
           quantile(r32, 0.25), quantile(r32, 0.75));
    printf("events_all_ratio=%.4f\nevents_all_ratio_q1=%.4f\nevents_all_ratio_q3=%.4f\n", quantile(rall, 0.5),
           quantile(rall, 0.25), quantile(rall, 0.75));
    return 0;
}
