/* GPU time on the simulated driver (gpu-time.sh): each scenario drives what the tracer's timing events must
 * survive, and checks what the program itself can see (a graph's nodes, a capture that must not break).
 * Kernels are the simulated driver's `spin(ns)`, which keeps its stream busy for ns of device time.
 * Usage: gpu-time SCENARIO; exit 0 when the program saw nothing wrong, 1 with a message otherwise. */
#define _GNU_SOURCE
#include <cuda.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

/* The per-thread default stream's launch, named as the driver exports it. */
CUresult CUDAAPI cuLaunchKernel_ptsz(CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx,
                                     unsigned int by, unsigned int bz, unsigned int shmem, CUstream s, void **params,
                                     void **extra);

static const char ptx[] = ".version 8.0\n.target sm_90\n.address_size 64\n"
                          ".visible .entry spin(.param .u64 ns)\n{\n ret;\n}\n";

#define CHECK(call) check((call), #call, __LINE__)
static void check(CUresult r, const char *what, int line)
{
    if (r != CUDA_SUCCESS) {
        fprintf(stderr, "gpu-time:%d: %s returned %d\n", line, what, (int)r);
        exit(1);
    }
}

static CUfunction spin_fn;

static void load(void)
{
    CUmodule mod;
    CHECK(cuModuleLoadData(&mod, ptx));
    CHECK(cuModuleGetFunction(&spin_fn, mod, "spin"));
}

static CUresult spin(CUstream s, unsigned long long ns)
{
    void *args[] = {&ns};
    return cuLaunchKernel(spin_fn, 1, 1, 1, 1, 1, 1, 0, s, args, NULL);
}

static void primary(CUcontext *ctx)
{
    CUdevice dev;
    CHECK(cuInit(0));
    CHECK(cuDeviceGet(&dev, 0));
    CHECK(cuDevicePrimaryCtxRetain(ctx, dev));
    CHECK(cuCtxSetCurrent(*ctx));
    load();
}

/* 100 launches of one shape and 10 copies of one size on a stream, the stream kept busy by a first long
 * spin so that every span is the kernel's own 50 us. */
static int steady(void)
{
    CUcontext ctx;
    CUstream s;
    CUdeviceptr d;
    static char host[4096];
    primary(&ctx);
    CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CHECK(cuMemAlloc(&d, sizeof host));
    CHECK(spin(s, 5000000));
    for (int i = 0; i < 100; i++)
        CHECK(spin(s, 50000));
    for (int i = 0; i < 10; i++)
        CHECK(cuMemcpyHtoDAsync(d, host, sizeof host, s));
    CHECK(cuStreamSynchronize(s));
    CHECK(cuMemFree(d));
    return 0;
}

/* n launches of a 50 us spin, each after the stream drained: every launch finds its stream idle, and with
 * SIM_LAUNCH_LATENCY_NS its kernel starts that long after the call (a timing event recorded before it does
 * not wait: the span of events includes the latency, CUPTI's record does not). */
static int idle(int n)
{
    CUcontext ctx;
    CUstream s;
    primary(&ctx);
    CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    for (int i = 0; i < n; i++) {
        CHECK(cuStreamSynchronize(s));
        CHECK(spin(s, 50000));
    }
    CHECK(cuStreamSynchronize(s));
    return 0;
}

/* One kind of launch whose first 8 calls are slow (100 us: warm-up) and the next 312 fast (10 us), on a busy
 * stream: 3,920 us of GPU time in all, 12.25 us a call.  Sampled, the first 8 are timed for themselves and 1
 * in 32 of the rest for 32 calls each; an estimate that weighed them alike would read 4 times too much. */
static int warmup(void)
{
    CUcontext ctx;
    CUstream s;
    primary(&ctx);
    CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CHECK(spin(s, 5000000)); /* not counted: a kind of its own (other shape) below */
    for (int i = 0; i < 320; i++)
        CHECK(cuLaunchKernel(spin_fn, 2, 1, 1, 1, 1, 1, 0, s,
                             (void *[]){&(unsigned long long){i < 8 ? 100000ull : 10000ull}}, NULL));
    CHECK(cuStreamSynchronize(s));
    return 0;
}

/* A per-thread launch on stream 0, one that fails, then two that succeed. */
static int variants(void)
{
    CUcontext ctx;
    unsigned long long ns = 1000;
    void *args[] = {&ns};
    primary(&ctx);
    CHECK(cuLaunchKernel_ptsz(spin_fn, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL));
    if (cuLaunchKernel(spin_fn, 1, 1, 1, 2048, 1, 1, 0, NULL, args, NULL) == CUDA_SUCCESS) {
        fprintf(stderr, "gpu-time: a block of 2048 threads was accepted\n");
        return 1;
    }
    CHECK(spin(NULL, 1000000)); /* keeps the stream busy: the next span is its kernel's own 2 us */
    CHECK(spin(NULL, 2000));
    CHECK(cuCtxSynchronize());
    return 0;
}

/* A capture: nothing of the tracer's becomes a node of the program's graph; the graph's launches are timed. */
static int capture(void)
{
    CUcontext ctx;
    CUstream s;
    CUgraph g;
    CUgraphExec ge;
    size_t nodes = 0;
    primary(&ctx);
    CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CHECK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    CHECK(spin(s, 30000));
    CHECK(spin(s, 20000));
    CHECK(cuStreamEndCapture(s, &g));
    CHECK(cuGraphGetNodes(g, NULL, &nodes));
    if (nodes != 2) {
        fprintf(stderr, "gpu-time: the captured graph has %zu nodes, not 2\n", nodes);
        return 1;
    }
    CHECK(cuGraphInstantiateWithFlags(&ge, g, 0));
    CHECK(spin(s, 1000000)); /* keeps the stream busy: the graphs' spans are their own work */
    CHECK(cuGraphLaunch(ge, s));
    CHECK(cuGraphLaunch(ge, s));
    CHECK(cuStreamSynchronize(s));
    return 0;
}

/* Another thread captures in global mode for a while, as the tracer's writer reads events and this thread
 * launches (timed) on a stream of its own: the capture must end well. */
static CUstream cap_stream;
static CUcontext cap_ctx;
static void *capturer(void *arg)
{
    CUgraph g;
    (void)arg;
    CHECK(cuCtxSetCurrent(cap_ctx));
    CHECK(cuStreamBeginCapture(cap_stream, CU_STREAM_CAPTURE_MODE_GLOBAL));
    CHECK(spin(cap_stream, 1000));
    usleep(300000);
    CHECK(cuStreamEndCapture(cap_stream, &g));
    return NULL;
}

static int global_capture(void)
{
    CUstream s;
    pthread_t t;
    primary(&cap_ctx);
    CHECK(cuStreamCreate(&cap_stream, CU_STREAM_NON_BLOCKING));
    CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    pthread_create(&t, NULL, capturer, NULL);
    for (int i = 0; i < 40; i++) {
        CHECK(spin(s, 1000));
        usleep(10000);
    }
    pthread_join(t, NULL);
    CHECK(cuStreamSynchronize(s));
    return 0;
}

/* Contexts that go away with timed work still running: a created one destroyed, then the primary one
 * released for the last time; then a new context's work, which completes. */
static int destroy(void)
{
    CUdevice dev;
    CUcontext ctx, prim;
    CHECK(cuInit(0));
    CHECK(cuDeviceGet(&dev, 0));
    CHECK(cuCtxCreate(&ctx, NULL, 0, dev));
    load();
    CHECK(spin(NULL, 2000000000ull));
    CHECK(cuCtxDestroy(ctx));
    CHECK(cuDevicePrimaryCtxRetain(&prim, dev));
    CHECK(cuCtxSetCurrent(prim));
    load();
    CHECK(spin(NULL, 2000000000ull));
    CHECK(cuDevicePrimaryCtxRelease(dev));
    CHECK(cuCtxCreate(&ctx, NULL, 0, dev));
    load();
    CHECK(spin(NULL, 1000000));
    CHECK(spin(NULL, 3000));
    CHECK(cuCtxSynchronize());
    return 0;
}

/* Exit with a kernel of 3 s still running: the process must not wait for it. */
static int exit_pending(void)
{
    CUcontext ctx;
    primary(&ctx);
    CHECK(spin(NULL, 3000000000ull));
    return 0;
}

/* A child forked with timed work pending in its parent: the child's trace has none of it. */
static int fork_pending(void)
{
    CUcontext ctx;
    int st, v;
    primary(&ctx);
    for (int i = 0; i < 3; i++)
        CHECK(spin(NULL, 100000));
    pid_t pid = fork();
    if (pid == 0) {
        CHECK(cuDriverGetVersion(&v));
        _exit(0);
    }
    if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        fprintf(stderr, "gpu-time: the child failed\n");
        return 1;
    }
    CHECK(cuCtxSynchronize());
    return 0;
}

/* More launches queued behind a long kernel than a context has timing events. */
static int exhaust(int n)
{
    CUcontext ctx;
    primary(&ctx);
    CHECK(spin(NULL, 3000000000ull));
    for (int i = 0; i < n; i++)
        CHECK(spin(NULL, 1));
    return 0;
}

/* n launches, then the process ends at once: `how` is exit (main returns), term (SIGTERM, its default
 * action) or exec (/bin/true).  The launches have completed (synchronized), or with `busy` are all still
 * queued behind a kernel of 3 s. */
static int end_at_once(const char *how, int n, int busy)
{
    CUcontext ctx;
    primary(&ctx);
    if (busy)
        CHECK(spin(NULL, 3000000000ull));
    for (int i = 0; i < n; i++)
        CHECK(spin(NULL, 1000));
    if (!busy)
        CHECK(cuCtxSynchronize());
    if (strcmp(how, "term") == 0)
        raise(SIGTERM);
    else if (strcmp(how, "exec") == 0) {
        execl("/bin/true", "true", (char *)NULL);
        perror("gpu-time: exec /bin/true");
        return 1;
    }
    return strcmp(how, "exit") == 0 ? 0 : 2;
}

/* 20 synchronous copies of 2,000,000 bytes (2 ms at SIM_COPY_BYTES_PER_NS=1), each interrupted 1 ms in by
 * SIGUSR1 from another thread, whose handler queues a set on a stream of its own: timed calls that nest
 * inside timed calls. */
static CUstream handler_stream;
static CUdeviceptr handler_dst;
static _Atomic int copy_no, handled;
static volatile sig_atomic_t armed; /* the handler's set is made (storm: not after the copies) */

/* The signal handler of both scenarios: a 64-byte set on the handler's stream. */
static void queue_set(int sig)
{
    (void)sig;
    if (!armed)
        return;
    if (cuMemsetD8Async(handler_dst, 1, 64, handler_stream) != CUDA_SUCCESS)
        _exit(3);
    handled++;
}

static void *interrupter(void *arg)
{
    pthread_t copier = *(pthread_t *)arg;
    for (int i = 1; i <= 20; i++) {
        while (copy_no != i)
            sched_yield();
        usleep(1000);
        pthread_kill(copier, SIGUSR1);
        while (handled != i)
            sched_yield();
    }
    return NULL;
}

static int handler(void)
{
    CUcontext ctx;
    CUdeviceptr d;
    static char host[2000000];
    pthread_t self = pthread_self(), t;
    primary(&ctx);
    CHECK(cuStreamCreate(&handler_stream, CU_STREAM_NON_BLOCKING));
    CHECK(cuMemAlloc(&handler_dst, 64));
    CHECK(cuMemAlloc(&d, sizeof host));
    armed = 1;
    signal(SIGUSR1, queue_set);
    pthread_create(&t, NULL, interrupter, &self);
    for (int i = 1; i <= 20; i++) {
        copy_no = i;
        CHECK(cuMemcpyHtoD(d, host, sizeof host));
        while (handled != i)
            sched_yield();
    }
    pthread_join(t, NULL);
    CHECK(cuStreamSynchronize(handler_stream));
    return 0;
}

/* 3 launches, then 5 more from an atexit handler registered before the first driver call: it runs after the
 * tracer's exit handler has made its last collection, and before the trace is closed. */
static CUstream late_stream;
static void late_launches(void)
{
    for (int i = 0; i < 5; i++)
        CHECK(spin(late_stream, 1000));
    CHECK(cuStreamSynchronize(late_stream));
}

static int at_exit_launches(void)
{
    CUcontext ctx;
    atexit(late_launches);
    primary(&ctx);
    CHECK(cuStreamCreate(&late_stream, CU_STREAM_NON_BLOCKING));
    for (int i = 0; i < 3; i++)
        CHECK(spin(late_stream, 1000));
    CHECK(cuStreamSynchronize(late_stream));
    return 0;
}

/* 4,000 copies of 4096 bytes while a timer's signal comes every 200 us, its handler queueing a 64-byte set on a
 * stream of its own: handlers' calls land inside calls, inside the tracer between a call's return and its
 * end, and between calls. */
static int storm(void)
{
    CUcontext ctx;
    CUstream s;
    CUdeviceptr d;
    static char host[4096];
    primary(&ctx);
    CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CHECK(cuStreamCreate(&handler_stream, CU_STREAM_NON_BLOCKING));
    CHECK(cuMemAlloc(&handler_dst, 64));
    CHECK(cuMemAlloc(&d, sizeof host));
    struct sigaction sa = {.sa_handler = queue_set, .sa_flags = SA_RESTART};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, NULL);
    armed = 1;
    struct itimerval every = {{0, 200}, {0, 200}}, stop = {{0, 0}, {0, 0}};
    setitimer(ITIMER_REAL, &every, NULL);
    for (int i = 0; i < 4000; i++)
        CHECK(cuMemcpyHtoDAsync(d, host, sizeof host, s));
    setitimer(ITIMER_REAL, &stop, NULL);
    armed = 0;
    CHECK(cuStreamSynchronize(s));
    CHECK(cuStreamSynchronize(handler_stream));
    return 0;
}

/* n launches of an empty kernel on one stream, as fast as they go. */
static int launches(int n)
{
    CUcontext ctx;
    CUstream s;
    primary(&ctx);
    CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    for (int i = 0; i < n; i++)
        CHECK(spin(s, 0));
    CHECK(cuStreamSynchronize(s));
    return 0;
}

/* 20 cuLaunchKernelEx of a 10 us spin on a busy stream, the first 10 programmatic dependent launches (with
 * CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION), the last 10 plain. */
static int pdl(void)
{
    CUcontext ctx;
    CUstream s;
    unsigned long long ns = 10000;
    void *args[] = {&ns};
    primary(&ctx);
    CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CHECK(spin(s, 1000000));
    for (int i = 0; i < 20; i++) {
        CUlaunchAttribute a = {.id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION};
        a.value.programmaticStreamSerializationAllowed = 1;
        CUlaunchConfig c = {.gridDimX = 1, .gridDimY = 1, .gridDimZ = 1, .blockDimX = 1, .blockDimY = 1,
                            .blockDimZ = 1, .hStream = s, .attrs = &a, .numAttrs = i < 10 ? 1 : 0};
        CHECK(cuLaunchKernelEx(&c, spin_fn, args, NULL));
    }
    CHECK(cuStreamSynchronize(s));
    return 0;
}

/* n kinds of launch (grids 1..n) taken in turn, rounds times: in sample mode each kind is timed as often as if
 * it were the only one, however many share the thread. */
static int kinds(int n, int rounds)
{
    CUcontext ctx;
    unsigned long long ns = 1;
    void *args[] = {&ns};
    primary(&ctx);
    for (int r = 0; r < rounds; r++)
        for (int i = 1; i <= n; i++)
            CHECK(cuLaunchKernel(spin_fn, (unsigned)i, 1, 1, 1, 1, 1, 0, NULL, args, NULL));
    CHECK(cuCtxSynchronize());
    return 0;
}

int main(int argc, char **argv)
{
    const char *s = argc > 1 ? argv[1] : "";
    if (strcmp(s, "steady") == 0)
        return steady();
    if (strcmp(s, "variants") == 0)
        return variants();
    if (strcmp(s, "idle") == 0 && argc > 2)
        return idle(atoi(argv[2]));
    if (strcmp(s, "warmup") == 0)
        return warmup();
    if (strcmp(s, "capture") == 0)
        return capture();
    if (strcmp(s, "global") == 0)
        return global_capture();
    if (strcmp(s, "destroy") == 0)
        return destroy();
    if (strcmp(s, "exit") == 0)
        return exit_pending();
    if (strcmp(s, "fork") == 0)
        return fork_pending();
    if (strcmp(s, "exhaust") == 0 && argc > 2)
        return exhaust(atoi(argv[2]));
    if (strcmp(s, "end") == 0 && argc > 3)
        return end_at_once(argv[2], atoi(argv[3]), argc > 4 && strcmp(argv[4], "busy") == 0);
    if (strcmp(s, "launches") == 0 && argc > 2)
        return launches(atoi(argv[2]));
    if (strcmp(s, "pdl") == 0)
        return pdl();
    if (strcmp(s, "handler") == 0)
        return handler();
    if (strcmp(s, "atexit") == 0)
        return at_exit_launches();
    if (strcmp(s, "storm") == 0)
        return storm();
    if (strcmp(s, "kinds") == 0 && argc > 3)
        return kinds(atoi(argv[2]), atoi(argv[3]));
    fprintf(stderr, "usage: gpu-time steady|variants|idle N|warmup|capture|global|destroy|exit|fork|exhaust N|"
                    "kinds N ROUNDS|end exit|term|exec N [busy]|launches N|pdl|handler|atexit|storm\n");
    return 2;
}
