// A stream capture in cudaStreamCaptureModeGlobal while another thread keeps launching on its own stream:
// in global mode a "potentially unsafe" call from any thread during the capture (cudaEventQuery, a
// synchronize, cudaMalloc) fails and invalidates the capture, so a tracer that times calls with events
// must neither record nor poll them in the capture's way.  The graph (a kernel, a device-to-device
// memcpy, a kernel) is instantiated and launched kReplays times and its result checked; the other
// thread's launches are counted on the GPU and checked after the capture.  Any failed call exits 1 with
// its name: the harness runs it untraced and traced (tests/gpu/expect/rt_gpu_capture.sh).
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <thread>

#define CHECK(call)                                                                                      \
    do {                                                                                                 \
        cudaError_t err_ = (call);                                                                       \
        if (err_ != cudaSuccess) {                                                                       \
            fprintf(stderr, "rt_gpu_capture: %s failed: %s\n", #call, cudaGetErrorString(err_));         \
            exit(1);                                                                                     \
        }                                                                                                \
    } while (0)

static const int kN = 4096;
static const int kReplays = 5;
// The other thread's launches before the capture begins and while it lasts (at least).
static const long kBefore = 20, kDuring = 50;

__global__ void fillPattern(int *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = i % 13;
}

__global__ void accumulateTwice(int *z, const int *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        z[i] += 2 * y[i];
}

__global__ void countLaunch(unsigned long long *counter)
{
    if (threadIdx.x == 0)
        atomicAdd(counter, 1ull);
}

static std::atomic<long> launched{0};
static std::atomic<bool> stop{false};

// The other thread: launches only (legal during another thread's global capture) until told to stop, then
// synchronizes its stream and checks that the GPU counted every launch.
static void launcher(void)
{
    cudaStream_t s;
    unsigned long long *counter, count = 0;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CHECK(cudaMalloc((void **)&counter, sizeof *counter));
    CHECK(cudaMemsetAsync(counter, 0, sizeof *counter, s));
    CHECK(cudaStreamSynchronize(s));
    launched.store(-1); // ready: the main thread may begin
    long n = 0;
    while (!stop.load()) {
        countLaunch<<<1, 32, 0, s>>>(counter);
        CHECK(cudaGetLastError());
        launched.store(++n);
    }
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaMemcpy(&count, counter, sizeof count, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(counter));
    CHECK(cudaStreamDestroy(s));
    if (count != (unsigned long long)n) {
        fprintf(stderr, "rt_gpu_capture: the other thread launched %ld kernels, the GPU counted %llu\n", n, count);
        exit(1);
    }
}

// Waits for the other thread's launches; 30 s without them is a hang (a launch blocked by the capture).
static void wait_launched(long at_least)
{
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (launched.load() < at_least) {
        if (std::chrono::steady_clock::now() > deadline) {
            fprintf(stderr, "rt_gpu_capture: the other thread made %ld launches in 30 s, waiting for %ld\n",
                    launched.load(), at_least);
            exit(1);
        }
        std::this_thread::yield();
    }
}

int main(void)
{
    const size_t bytes = kN * sizeof(int);
    int *x, *y, *z, host[kN];
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CHECK(cudaMalloc((void **)&x, bytes));
    CHECK(cudaMalloc((void **)&y, bytes));
    CHECK(cudaMalloc((void **)&z, bytes));
    CHECK(cudaMemsetAsync(z, 0, bytes, s));
    CHECK(cudaStreamSynchronize(s));

    launched.store(-2);
    std::thread other(launcher);
    wait_launched(kBefore);

    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    const long at_begin = launched.load();
    fillPattern<<<kN / 256, 256, 0, s>>>(x, kN);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpyAsync(y, x, bytes, cudaMemcpyDeviceToDevice, s));
    accumulateTwice<<<kN / 256, 256, 0, s>>>(z, y, kN);
    CHECK(cudaGetLastError());
    wait_launched(at_begin + kDuring); // the capture stays open while the other thread launches
    CHECK(cudaStreamEndCapture(s, &graph));
    stop.store(true);
    other.join();

    size_t nodes = 0;
    CHECK(cudaGraphGetNodes(graph, nullptr, &nodes));
    if (nodes != 3) {
        fprintf(stderr, "rt_gpu_capture: the graph has %zu nodes, expected 3\n", nodes);
        return 1;
    }
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    for (int r = 0; r < kReplays; r++)
        CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaMemcpy(host, z, bytes, cudaMemcpyDeviceToHost));
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(graph));
    CHECK(cudaFree(x));
    CHECK(cudaFree(y));
    CHECK(cudaFree(z));
    CHECK(cudaStreamDestroy(s));

    long sum = 0;
    for (int i = 0; i < kN; i++) {
        const int want = kReplays * 2 * (i % 13);
        if (host[i] != want) {
            fprintf(stderr, "rt_gpu_capture: z[%d] = %d, expected %d\n", i, host[i], want);
            return 1;
        }
        sum += host[i];
    }
    printf("global capture beside a launching thread: %zu nodes, %d replays, sum=%ld: ok\n", nodes, kReplays, sum);
    return 0;
}
