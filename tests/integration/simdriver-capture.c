/* CUnit suite of the simulated driver's stream capture: captured work becomes graph nodes and does not run,
 * a launched graph runs them in order on its stream (results and durations), capture modes decide which
 * thread's potentially unsafe calls (cuEventQuery here) invalidate a capture, and the legacy stream may not
 * be used while a blocking stream captures. Linked with the toolkit's libcuda stub. */
#include "config.h"

#include <CUnit/Basic.h>
#include <cuda.h>
#include <pthread.h>
#include <string.h>

#include "cunit-run.h"

#define OK(call) CU_ASSERT_EQUAL_FATAL((call), CUDA_SUCCESS)
#define MS 1000000ull /* ns */
#define N 256

static const char ptx[] = ".version 8.0\n.target sm_75\n.address_size 64\n"
                          ".visible .entry spin(.param .u64 ns)\n{\n ret;\n}\n"
                          ".visible .entry vectorAdd(.param .u64 a, .param .u64 b, .param .u64 c, .param .u32 n)\n"
                          "{\n ret;\n}\n";

static CUcontext ctx;
static CUmodule module;
static CUfunction spin_fn, add_fn;
static CUdeviceptr da, db, dc;
static CUevent done; /* recorded inside the captured graph */
static CUgraph graph;

static CUresult spin(CUstream s, unsigned long long ns)
{
    void *params[] = {&ns};
    return cuLaunchKernel(spin_fn, 1, 1, 1, 1, 1, 1, 0, s, params, NULL);
}

static unsigned int bits(float f)
{
    unsigned int u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static float result(size_t i)
{
    float c[N];
    CU_ASSERT_EQUAL(cuMemcpyDtoH(c, dc, sizeof c), CUDA_SUCCESS);
    return c[i];
}

static size_t node_count(CUgraph g)
{
    size_t n = 12345;
    CU_ASSERT_EQUAL(cuGraphGetNodes(g, NULL, &n), CUDA_SUCCESS);
    return n;
}

static void test_capture_makes_nodes(void)
{
    CUstream s;
    CUstreamCaptureStatus status;
    OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    OK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    CU_ASSERT_EQUAL(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL), CUDA_ERROR_ILLEGAL_STATE);
    OK(cuStreamIsCapturing(s, &status));
    CU_ASSERT_EQUAL(status, CU_STREAM_CAPTURE_STATUS_ACTIVE);
    OK(cuMemsetD32Async(da, bits(1.0f), N, s));
    OK(cuMemsetD32Async(db, bits(2.0f), N, s));
    unsigned int n = N;
    void *params[] = {&da, &db, &dc, &n};
    OK(cuLaunchKernel(add_fn, 1, 1, 1, N, 1, 1, 0, s, params, NULL));
    OK(spin(s, 10 * MS));
    OK(cuEventRecord(done, s));
    cuuint64_t id = 0;
    CUgraph g = NULL;
    const CUgraphNode *deps = NULL;
    const CUgraphEdgeData *edges = (const CUgraphEdgeData *)1;
    size_t ndeps = 0;
    OK(cuStreamGetCaptureInfo(s, &status, &id, &g, &deps, &edges, &ndeps));
    CU_ASSERT_EQUAL(status, CU_STREAM_CAPTURE_STATUS_ACTIVE);
    CU_ASSERT(id != 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(g);
    CU_ASSERT_EQUAL(ndeps, 1);
    CU_ASSERT_PTR_NULL(edges);
    CU_ASSERT_EQUAL(node_count(g), 5);
    CU_ASSERT_EQUAL(result(0), 0.0f); /* nothing ran */
    const CUgraphNode last = deps[0]; /* deps is valid until the capture's next call */
    OK(cuStreamEndCapture(s, &graph));
    CU_ASSERT_PTR_EQUAL(graph, g);
    CU_ASSERT_EQUAL(cuStreamEndCapture(s, &g), CUDA_ERROR_ILLEGAL_STATE);
    OK(cuStreamIsCapturing(s, &status));
    CU_ASSERT_EQUAL(status, CU_STREAM_CAPTURE_STATUS_NONE);
    CUgraphNode nodes[8];
    size_t count = 8;
    OK(cuGraphGetNodes(graph, nodes, &count));
    CU_ASSERT_EQUAL(count, 5);
    CU_ASSERT_PTR_EQUAL(nodes[4], last);
    CU_ASSERT_PTR_NULL(nodes[5]);
    CU_ASSERT_EQUAL(result(0), 0.0f);
    float ms;
    OK(cuEventQuery(done)); /* a captured record stamped nothing: never recorded */
    CU_ASSERT_EQUAL(cuEventElapsedTime(&ms, done, done), CUDA_ERROR_INVALID_HANDLE);
    OK(cuStreamDestroy(s));
}

/* The graph runs in capture order on the launch stream: memsets, add, a 10 ms spin, the record. */
static void test_graph_launch(void)
{
    CU_ASSERT_PTR_NOT_NULL_FATAL(graph);
    CUgraphExec exec;
    CUstream s;
    CUevent start;
    float ms = -1;
    OK(cuGraphInstantiate(&exec, graph, 0));
    OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    OK(cuEventCreate(&start, 0));
    OK(spin(s, 5 * MS)); /* busy: start is stamped where the graph begins */
    OK(cuEventRecord(start, s));
    OK(cuGraphLaunch(exec, s));
    CU_ASSERT_EQUAL(result(N - 1), 3.0f); /* results at once */
    CU_ASSERT_EQUAL(cuEventQuery(done), CUDA_ERROR_NOT_READY);
    OK(cuStreamSynchronize(s));
    OK(cuEventElapsedTime(&ms, start, done));
    CU_ASSERT_DOUBLE_EQUAL(ms, 10.0, 1e-4);
    OK(cuGraphExecDestroy(exec));
    CU_ASSERT_EQUAL(cuGraphLaunch(exec, s), CUDA_ERROR_INVALID_VALUE);
    OK(cuGraphDestroy(graph));
    graph = NULL;
    OK(cuEventDestroy(start));
    OK(cuStreamDestroy(s));
}

/* Another thread's calls, in its own capture mode: recording an event on a non-capturing stream (safe), then
 * cuEventQuery (potentially unsafe). */
struct other {
    CUstreamCaptureMode mode;
    CUstream stream;
    CUevent event;
    CUresult record, query;
};

static void *other_thread(void *arg)
{
    struct other *o = arg;
    CUstreamCaptureMode mode = o->mode;
    cuThreadExchangeStreamCaptureMode(&mode);
    o->record = cuEventRecord(o->event, o->stream);
    o->query = cuEventQuery(o->event);
    return NULL;
}

static void call_from_other_thread(struct other *o)
{
    pthread_t t;
    CU_ASSERT_FATAL(pthread_create(&t, NULL, other_thread, o) == 0);
    pthread_join(t, NULL);
}

/* Captures `mode` on a new stream while another thread in `other_mode` calls; returns cuStreamEndCapture's
 * result after checking the other thread's. */
static CUresult capture_beside(CUstreamCaptureMode mode, CUstreamCaptureMode other_mode, CUresult query)
{
    CUstream s, quiet;
    CUgraph g = (CUgraph)1;
    struct other o = {other_mode, NULL, NULL, CUDA_ERROR_UNKNOWN, CUDA_ERROR_UNKNOWN};
    OK(cuStreamCreate(&s, 0));
    OK(cuStreamCreate(&quiet, CU_STREAM_NON_BLOCKING));
    OK(cuEventCreate(&o.event, 0));
    o.stream = quiet;
    OK(cuStreamBeginCapture(s, mode));
    OK(spin(s, MS));
    call_from_other_thread(&o);
    CU_ASSERT_EQUAL(o.record, CUDA_SUCCESS);
    CU_ASSERT_EQUAL(o.query, query);
    CUresult r = cuStreamEndCapture(s, &g);
    if (r == CUDA_SUCCESS) {
        CU_ASSERT_EQUAL(node_count(g), 1);
        OK(cuGraphDestroy(g));
    } else {
        CU_ASSERT_PTR_NULL(g);
    }
    OK(cuEventDestroy(o.event));
    OK(cuStreamDestroy(s));
    OK(cuStreamDestroy(quiet));
    return r;
}

static void test_global_mode(void)
{
    /* another GLOBAL thread's unsafe call invalidates a GLOBAL capture, not a THREAD_LOCAL or RELAXED one */
    CU_ASSERT_EQUAL(capture_beside(CU_STREAM_CAPTURE_MODE_GLOBAL, CU_STREAM_CAPTURE_MODE_GLOBAL,
                                   CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED),
                    CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);
    CU_ASSERT_EQUAL(capture_beside(CU_STREAM_CAPTURE_MODE_THREAD_LOCAL, CU_STREAM_CAPTURE_MODE_GLOBAL, CUDA_SUCCESS),
                    CUDA_SUCCESS);
    CU_ASSERT_EQUAL(capture_beside(CU_STREAM_CAPTURE_MODE_RELAXED, CU_STREAM_CAPTURE_MODE_GLOBAL, CUDA_SUCCESS),
                    CUDA_SUCCESS);
    /* a thread in RELAXED (or THREAD_LOCAL) mode may make the call */
    CU_ASSERT_EQUAL(capture_beside(CU_STREAM_CAPTURE_MODE_GLOBAL, CU_STREAM_CAPTURE_MODE_RELAXED, CUDA_SUCCESS),
                    CUDA_SUCCESS);
    CU_ASSERT_EQUAL(capture_beside(CU_STREAM_CAPTURE_MODE_GLOBAL, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL,
                                   CUDA_SUCCESS),
                    CUDA_SUCCESS);
}

/* The capturing thread's own unsafe calls are refused unless it is RELAXED; a sync on the capture is refused. */
static void test_own_thread(void)
{
    CUstream s;
    CUevent e;
    CUgraph g;
    CUstreamCaptureStatus status;
    CUstreamCaptureMode mode = CU_STREAM_CAPTURE_MODE_RELAXED;
    OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    OK(cuEventCreate(&e, 0));
    OK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL));
    OK(cuThreadExchangeStreamCaptureMode(&mode));
    OK(cuEventQuery(e));
    OK(cuThreadExchangeStreamCaptureMode(&mode));
    CU_ASSERT_EQUAL(mode, CU_STREAM_CAPTURE_MODE_RELAXED);
    OK(cuStreamEndCapture(s, &g));
    OK(cuGraphDestroy(g));
    OK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL));
    CU_ASSERT_EQUAL(cuEventQuery(e), CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
    OK(cuStreamIsCapturing(s, &status));
    CU_ASSERT_EQUAL(status, CU_STREAM_CAPTURE_STATUS_INVALIDATED);
    CU_ASSERT_EQUAL(spin(s, MS), CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);
    CU_ASSERT_EQUAL(cuStreamEndCapture(s, &g), CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);
    OK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_RELAXED));
    CU_ASSERT_EQUAL(cuStreamSynchronize(s), CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
    CU_ASSERT_EQUAL(cuStreamEndCapture(s, &g), CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);
    OK(cuEventQuery(e)); /* no capture left */
    OK(cuEventDestroy(e));
    OK(cuStreamDestroy(s));
}

/* The legacy stream is ordered with blocking streams: using it while one captures is IMPLICIT and
 * invalidates; a non-blocking stream's capture does not mind. */
static void test_legacy_stream(void)
{
    CUstream blocking, nonblocking;
    CUgraph g;
    CUstreamCaptureStatus status;
    OK(cuStreamCreate(&blocking, 0));
    OK(cuStreamCreate(&nonblocking, CU_STREAM_NON_BLOCKING));
    OK(cuStreamBeginCapture(nonblocking, CU_STREAM_CAPTURE_MODE_RELAXED));
    OK(spin(NULL, MS));
    OK(cuStreamIsCapturing(NULL, &status));
    CU_ASSERT_EQUAL(status, CU_STREAM_CAPTURE_STATUS_NONE);
    OK(cuStreamEndCapture(nonblocking, &g));
    CU_ASSERT_EQUAL(node_count(g), 0);
    OK(cuGraphDestroy(g));
    OK(cuStreamBeginCapture(blocking, CU_STREAM_CAPTURE_MODE_RELAXED));
    CU_ASSERT_EQUAL(cuStreamIsCapturing(NULL, &status), CUDA_ERROR_STREAM_CAPTURE_IMPLICIT);
    OK(cuStreamIsCapturing(blocking, &status));
    CU_ASSERT_EQUAL(status, CU_STREAM_CAPTURE_STATUS_ACTIVE);
    CU_ASSERT_EQUAL(spin(NULL, MS), CUDA_ERROR_STREAM_CAPTURE_IMPLICIT);
    CU_ASSERT_EQUAL(cuStreamEndCapture(blocking, &g), CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);
    CU_ASSERT_EQUAL(cuStreamBeginCapture(NULL, CU_STREAM_CAPTURE_MODE_GLOBAL), CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
    OK(cuStreamDestroy(blocking));
    OK(cuStreamDestroy(nonblocking));
}

static int enter_context(void)
{
    return cuInit(0) || cuCtxCreate(&ctx, NULL, 0, 0) || cuModuleLoadData(&module, ptx) ||
           cuModuleGetFunction(&spin_fn, module, "spin") || cuModuleGetFunction(&add_fn, module, "vectorAdd") ||
           cuMemAlloc(&da, N * sizeof(float)) || cuMemAlloc(&db, N * sizeof(float)) ||
           cuMemAlloc(&dc, N * sizeof(float)) || cuEventCreate(&done, 0);
}

static int leave_context(void)
{
    return cuEventDestroy(done) || cuModuleUnload(module) || cuCtxDestroy(ctx);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"captured work becomes nodes and does not run", test_capture_makes_nodes},
        {"a launched graph runs its nodes in order", test_graph_launch}, /* the graph captured above */
        {"global mode: other threads' unsafe calls", test_global_mode},
        {"the capturing thread's own unsafe calls", test_own_thread},
        {"the legacy stream during a capture", test_legacy_stream},
        CU_TEST_INFO_NULL,
    };
    CU_SuiteInfo suites[] = {
        {"simdriver: capture", enter_context, leave_context, NULL, NULL, tests},
        CU_SUITE_INFO_NULL,
    };
    return cunit_run(suites);
}
