// Eight host threads, each with its own stream: thread t allocates 4096*(t+1) bytes, copies them in with
// cudaMemcpyAsync, launches `threadScale` 4 times on its stream, copies back and checks.  The trace must show
// 32 launches from 8 distinct threads on 8 distinct streams (tests/gpu/expect/rt_threads.sh): the streams are
// created up front and the threads all start before any works, so no thread id or stream handle is reused.
#include <atomic>
#include <cstdio>
#include <thread>
#include <vector>
#include <cuda_runtime.h>

static const int kThreads = 8;
static const int kLaunchesPerThread = 4;

__global__ void threadScale(float *x, int n, float add)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = x[i] * 2.0f + add;
}

static std::atomic<int> started(0);

// Returns 0 on success, else prints why on stderr.
static int worker(int t, cudaStream_t stream)
{
    started++;
    while (started.load() < kThreads)
        std::this_thread::yield();

    const int n = 1024 * (t + 1);
    const size_t bytes = n * sizeof(float);
    std::vector<float> host(n);
    for (int i = 0; i < n; i++)
        host[i] = (float)(i % 64);

    float *dev;
    cudaError_t err = cudaMalloc((void **)&dev, bytes);
    if (err == cudaSuccess)
        err = cudaMemcpyAsync(dev, host.data(), bytes, cudaMemcpyHostToDevice, stream);
    for (int k = 0; err == cudaSuccess && k < kLaunchesPerThread; k++) {
        threadScale<<<(n + 127) / 128, 128, 0, stream>>>(dev, n, (float)t);
        err = cudaGetLastError();
    }
    if (err == cudaSuccess)
        err = cudaMemcpyAsync(host.data(), dev, bytes, cudaMemcpyDeviceToHost, stream);
    if (err == cudaSuccess)
        err = cudaStreamSynchronize(stream);
    if (err == cudaSuccess)
        err = cudaFree(dev);
    if (err != cudaSuccess) {
        fprintf(stderr, "rt_threads: thread %d: %s\n", t, cudaGetErrorString(err));
        return 1;
    }
    for (int i = 0; i < n; i++) {
        float want = (float)(i % 64);
        for (int k = 0; k < kLaunchesPerThread; k++)
            want = want * 2.0f + (float)t;
        if (host[i] != want) {
            fprintf(stderr, "rt_threads: thread %d: x[%d] = %g, expected %g\n", t, i, host[i], want);
            return 1;
        }
    }
    return 0;
}

int main(void)
{
    cudaStream_t streams[kThreads];
    for (int t = 0; t < kThreads; t++) {
        cudaError_t err = cudaStreamCreateWithFlags(&streams[t], cudaStreamNonBlocking);
        if (err != cudaSuccess) {
            fprintf(stderr, "rt_threads: cudaStreamCreateWithFlags: %s\n", cudaGetErrorString(err));
            return 1;
        }
    }
    int failed[kThreads] = {0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; t++)
        threads.emplace_back([t, &failed, &streams] { failed[t] = worker(t, streams[t]); });
    for (auto &th : threads)
        th.join();
    for (int t = 0; t < kThreads; t++) {
        cudaError_t err = cudaStreamDestroy(streams[t]);
        if (err != cudaSuccess) {
            fprintf(stderr, "rt_threads: cudaStreamDestroy: %s\n", cudaGetErrorString(err));
            return 1;
        }
        if (failed[t])
            return 1;
    }
    printf("threads=%d launches=%d: ok\n", kThreads, kThreads * kLaunchesPerThread);
    return 0;
}
