// GPU time against the kernels' own clock: single-thread kernels that spin for 10 µs, 100 µs and 1 ms on
// %globaltimer, 40 launches each, every launch writing the duration it saw.  The means of those go to the
// figures file (gpu_timer.cuh) as `spin10us NS` ...; tests/gpu/expect/rt_gpu_spin.sh compares them with the
// Avg of cudatrace-report's gpu_kernels table.
// Each batch of 40 queues behind a 5 ms `spinHead`, so that the GPU never waits for the host in the
// batch: a timing event recorded on an idle stream would also time the host's launch.  That case is
// `spinIdle10us`: 40 launches of the 10 µs spin each after a stream synchronize (noted, not asserted).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#include "gpu_timer.cuh"

#define CHECK(call)                                                                                      \
    do {                                                                                                 \
        cudaError_t err_ = (call);                                                                       \
        if (err_ != cudaSuccess) {                                                                       \
            fprintf(stderr, "rt_gpu_spin: %s failed: %s\n", #call, cudaGetErrorString(err_));            \
            exit(1);                                                                                     \
        }                                                                                                \
    } while (0)

static const int kLaunches = 40;

SPIN_KERNEL(spin10us, 10000ull)
SPIN_KERNEL(spin100us, 100000ull)
SPIN_KERNEL(spin1000us, 1000000ull)
SPIN_KERNEL(spinIdle10us, 10000ull)
SPIN_KERNEL(spinHead, 5000000ull)

static const struct {
    const char *name;
    spin_fn fn;
    unsigned long long ns;
    bool idle; // each launch after a synchronize: the stream is idle when the launch comes
} kSpins[] = {
    {"spin10us", spin10us, 10000, false},
    {"spin100us", spin100us, 100000, false},
    {"spin1000us", spin1000us, 1000000, false},
    {"spinIdle10us", spinIdle10us, 10000, true},
};
static const int kKinds = sizeof kSpins / sizeof kSpins[0];

int main(void)
{
    const size_t slots = 2 * (size_t)kLaunches * kKinds;
    unsigned long long *dev, *head, *host = (unsigned long long *)calloc(slots, sizeof *host);
    cudaStream_t s;
    if (!host) {
        fprintf(stderr, "rt_gpu_spin: out of host memory\n");
        return 1;
    }
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CHECK(cudaMalloc((void **)&dev, slots * sizeof *dev));
    CHECK(cudaMalloc((void **)&head, 2 * sizeof *head));

    for (int k = 0; k < kKinds; k++) {
        unsigned long long *out = dev + 2 * (size_t)kLaunches * k;
        if (!kSpins[k].idle)
            spinHead<<<1, 1, 0, s>>>(head);
        for (int i = 0; i < kLaunches; i++) {
            if (kSpins[k].idle)
                CHECK(cudaStreamSynchronize(s));
            kSpins[k].fn<<<1, 1, 0, s>>>(out + 2 * i);
        }
        CHECK(cudaGetLastError());
    }
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaMemcpy(host, dev, slots * sizeof *host, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(head));
    CHECK(cudaFree(dev));
    CHECK(cudaStreamDestroy(s));

    for (int k = 0; k < kKinds; k++) {
        const unsigned long long *st = host + 2 * (size_t)kLaunches * k;
        double sum = 0;
        for (int i = 0; i < kLaunches; i++) {
            const unsigned long long d = st[2 * i + 1] - st[2 * i];
            if (st[2 * i] == 0 || d < kSpins[k].ns) {
                fprintf(stderr, "rt_gpu_spin: %s launch %d measured %llu ns, less than %llu\n", kSpins[k].name, i, d,
                        kSpins[k].ns);
                return 1;
            }
            sum += (double)d;
        }
        sample_figure("%s %.1f", kSpins[k].name, sum / kLaunches);
    }
    free(host);
    printf("spin kernels 10us 100us 1000us and idle 10us, %d launches each: ok\n", kLaunches);
    return 0;
}
