// CUDA graph: capture 3 launches of `graphStep` on a stream, instantiate, replay the graph 10 times, check.
// The trace must show the 3 captured launches, the capture and instantiate calls, and 10 graph launches
// (tests/gpu/expect/rt_graph.sh).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                                                      \
    do {                                                                                                 \
        cudaError_t err_ = (call);                                                                       \
        if (err_ != cudaSuccess) {                                                                       \
            fprintf(stderr, "rt_graph: %s failed: %s\n", #call, cudaGetErrorString(err_));               \
            exit(1);                                                                                     \
        }                                                                                                \
    } while (0)

static const int kStepsPerGraph = 3;
static const int kReplays = 10;

__global__ void graphStep(int *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] += i % 7 + 1;
}

int main(void)
{
    const int n = 8192;
    const size_t bytes = n * sizeof(int);
    int *host = (int *)calloc(n, sizeof(int));
    if (!host) {
        fprintf(stderr, "rt_graph: out of host memory\n");
        return 1;
    }
    int *dev;
    cudaStream_t stream;
    CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    CHECK(cudaMalloc((void **)&dev, bytes));
    CHECK(cudaMemsetAsync(dev, 0, bytes, stream));
    CHECK(cudaStreamSynchronize(stream));

    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    for (int k = 0; k < kStepsPerGraph; k++)
        graphStep<<<n / 256, 256, 0, stream>>>(dev, n);
    CHECK(cudaStreamEndCapture(stream, &graph));
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    for (int r = 0; r < kReplays; r++)
        CHECK(cudaGraphLaunch(exec, stream));
    CHECK(cudaStreamSynchronize(stream));
    CHECK(cudaMemcpy(host, dev, bytes, cudaMemcpyDeviceToHost));
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(graph));
    CHECK(cudaFree(dev));
    CHECK(cudaStreamDestroy(stream));

    for (int i = 0; i < n; i++) {
        int want = kReplays * kStepsPerGraph * (i % 7 + 1);
        if (host[i] != want) {
            fprintf(stderr, "rt_graph: x[%d] = %d, expected %d\n", i, host[i], want);
            return 1;
        }
    }
    free(host);
    printf("graph steps=%d replays=%d: ok\n", kStepsPerGraph, kReplays);
    return 0;
}
