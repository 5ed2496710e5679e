// Streams stay concurrent under GPU timing: two non-blocking streams each run 8 single-thread kernels that
// spin 200 µs, launched alternately.  Each kernel stamps its start and end with %globaltimer; the figure
// `overlap F` (figures file, gpu_timer.cuh) is the time both streams were running a kernel over the busy
// time of the less busy stream: near 1 when they run side by side, near 0 when something (a timing event
// on a shared stream, a synchronize) serializes them.  tests/gpu/expect/rt_gpu_streams.sh compares the
// traced figure with the untraced one.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#include "gpu_timer.cuh"

#define CHECK(call)                                                                                      \
    do {                                                                                                 \
        cudaError_t err_ = (call);                                                                       \
        if (err_ != cudaSuccess) {                                                                       \
            fprintf(stderr, "rt_gpu_streams: %s failed: %s\n", #call, cudaGetErrorString(err_));         \
            exit(1);                                                                                     \
        }                                                                                                \
    } while (0)

static const int kStreams = 2;
static const int kPerStream = 8;
static const unsigned long long kSpinNs = 200000;

__global__ void streamSpin(unsigned long long *out)
{
    if (threadIdx.x == 0 && blockIdx.x == 0)
        gpu_spin(kSpinNs, &out[0], &out[1]);
}

int main(void)
{
    const int n = kStreams * kPerStream;
    unsigned long long host[2 * kStreams * kPerStream], *dev;
    cudaStream_t s[kStreams];
    for (int k = 0; k < kStreams; k++)
        CHECK(cudaStreamCreateWithFlags(&s[k], cudaStreamNonBlocking));
    CHECK(cudaMalloc((void **)&dev, sizeof host));
    // Module loading and the first launch stay out of the measured kernels.
    streamSpin<<<1, 1, 0, s[0]>>>(dev);
    CHECK(cudaDeviceSynchronize());

    for (int i = 0; i < kPerStream; i++)
        for (int k = 0; k < kStreams; k++)
            streamSpin<<<1, 1, 0, s[k]>>>(dev + 2 * (k * kPerStream + i));
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(host, dev, sizeof host, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(dev));
    for (int k = 0; k < kStreams; k++)
        CHECK(cudaStreamDestroy(s[k]));

    // A stream's kernels run one after another, so its intervals are disjoint: the overlap of the two
    // streams is the sum of the pairwise intersections.
    double busy[kStreams] = {0}, both = 0;
    for (int i = 0; i < n; i++) {
        if (host[2 * i + 1] - host[2 * i] < kSpinNs) {
            fprintf(stderr, "rt_gpu_streams: kernel %d spun %llu ns, less than %llu\n", i, host[2 * i + 1] - host[2 * i],
                    kSpinNs);
            return 1;
        }
        busy[i / kPerStream] += (double)(host[2 * i + 1] - host[2 * i]);
    }
    for (int a = 0; a < kPerStream; a++)
        for (int b = kPerStream; b < n; b++) {
            const unsigned long long lo = std::max(host[2 * a], host[2 * b]);
            const unsigned long long hi = std::min(host[2 * a + 1], host[2 * b + 1]);
            both += hi > lo ? (double)(hi - lo) : 0;
        }
    sample_figure("overlap %.4f", both / std::min(busy[0], busy[1]));
    printf("streams: %d x %d kernels of %llu us: ok\n", kStreams, kPerStream, kSpinNs / 1000);
    return 0;
}
