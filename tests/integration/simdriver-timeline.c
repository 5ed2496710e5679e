/* CUnit suite of the simulated driver's device timeline: the `spin` kernel's duration seen through events,
 * events pending until the clock reaches them, synchronisation that waits, copy durations, elapsed time
 * across streams, and strict handle mode (SIM_STRICT_HANDLES=1: a destroyed event used again aborts).
 * Run with SIM_COPY_BYTES_PER_NS=1 (simdriver-timeline.sh). Linked with the toolkit's libcuda stub. */
#include "config.h"

#include <CUnit/Basic.h>
#include <cuda.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cunit-run.h"

#define OK(call) CU_ASSERT_EQUAL_FATAL((call), CUDA_SUCCESS)
#define MS 1000000ull /* ns */

static const char ptx[] = ".version 8.0\n.target sm_75\n.address_size 64\n"
                          ".visible .entry spin(.param .u64 ns)\n{\n ret;\n}\n";

static CUcontext ctx;
static CUmodule module;
static CUfunction spin_fn;

static unsigned long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (unsigned long long)ts.tv_sec * 1000000000u + (unsigned long long)ts.tv_nsec;
}

static CUresult spin(CUstream s, unsigned long long ns)
{
    void *params[] = {&ns};
    return cuLaunchKernel(spin_fn, 1, 1, 1, 1, 1, 1, 0, s, params, NULL);
}

/* ms measured by the events equals the expected ns to float rounding */
static void assert_elapsed(CUevent a, CUevent b, unsigned long long ns)
{
    float ms = -1;
    OK(cuEventElapsedTime(&ms, a, b));
    CU_ASSERT_DOUBLE_EQUAL(ms, (double)ns / 1e6, 1e-4);
}

/* The first spin makes the stream busy, so both records are stamped at the end of queued work and the
 * elapsed time is exactly the second spin's argument (on an idle stream, host time between the record and the
 * launch would count too). */
static void test_spin_duration(void)
{
    CUstream s;
    CUevent a, b;
    float ms;
    OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    OK(cuEventCreate(&a, 0));
    OK(cuEventCreate(&b, 0));
    OK(spin(s, 5 * MS));
    OK(cuEventRecord(a, s));
    OK(spin(s, 20 * MS));
    OK(cuEventRecord(b, s));
    CU_ASSERT_EQUAL(cuEventQuery(b), CUDA_ERROR_NOT_READY);
    CU_ASSERT_EQUAL(cuStreamQuery(s), CUDA_ERROR_NOT_READY);
    CU_ASSERT_EQUAL(cuEventElapsedTime(&ms, a, b), CUDA_ERROR_NOT_READY);
    OK(cuEventSynchronize(b));
    OK(cuEventQuery(a));
    OK(cuEventQuery(b));
    OK(cuStreamQuery(s));
    assert_elapsed(a, b, 20 * MS);
    OK(cuEventElapsedTime(&ms, b, a)); /* the other way round: negative */
    CU_ASSERT_DOUBLE_EQUAL(ms, -20.0, 1e-4);
    OK(cuEventDestroy(a));
    OK(cuEventDestroy(b));
    OK(cuStreamDestroy(s));
}

static void test_synchronize_waits(void)
{
    CUstream s;
    OK(cuStreamCreate(&s, 0));
    unsigned long long t0 = now_ns();
    OK(spin(s, 15 * MS));
    CU_ASSERT(now_ns() - t0 < 15 * MS); /* a launch does not wait */
    OK(cuStreamSynchronize(s));
    CU_ASSERT(now_ns() - t0 >= 15 * MS);
    t0 = now_ns();
    OK(spin(s, 10 * MS));
    OK(cuCtxSynchronize());
    CU_ASSERT(now_ns() - t0 >= 10 * MS);
    OK(cuStreamDestroy(s));
}

/* SIM_COPY_BYTES_PER_NS=1: a byte per ns. A synchronous copy returns once it has ended; an async one does not. */
static void test_copy_durations(void)
{
    size_t n = 4 * MS;
    CUdeviceptr d;
    char *host = calloc(1, n);
    CU_ASSERT_PTR_NOT_NULL_FATAL(host);
    CUstream s;
    CUevent a, b;
    OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    OK(cuEventCreate(&a, 0));
    OK(cuEventCreate(&b, 0));
    OK(cuMemAlloc(&d, n));
    unsigned long long t0 = now_ns();
    OK(cuMemcpyHtoD(d, host, n));
    CU_ASSERT(now_ns() - t0 >= 4 * MS);
    OK(spin(s, 200 * MS)); /* the async work queues behind it: returning before it ends is returning early */
    OK(cuEventRecord(a, s));
    OK(cuMemcpyDtoHAsync(host, d, n, s));
    OK(cuMemsetD32Async(d, 1, n / 8, s)); /* n / 2 bytes */
    CU_ASSERT_EQUAL(cuStreamQuery(s), CUDA_ERROR_NOT_READY);
    OK(cuEventRecord(b, s));
    OK(cuEventSynchronize(b));
    assert_elapsed(a, b, n + n / 2);
    OK(cuMemFree(d));
    OK(cuEventDestroy(a));
    OK(cuEventDestroy(b));
    OK(cuStreamDestroy(s));
    free(host);
}

/* Events of different streams compare on one clock; cuStreamWaitEvent orders the second stream after the
 * first, which makes the difference exact. The legacy stream is one more stream. */
static void test_cross_stream(void)
{
    CUstream s1, s2;
    CUevent a, b, c;
    OK(cuStreamCreate(&s1, CU_STREAM_NON_BLOCKING));
    OK(cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING));
    OK(cuEventCreate(&a, 0));
    OK(cuEventCreate(&b, 0));
    OK(cuEventCreate(&c, 0));
    OK(spin(s1, 10 * MS));
    OK(cuEventRecord(a, s1));
    OK(cuStreamWaitEvent(s2, a, 0));
    OK(spin(s2, 3 * MS));
    OK(cuEventRecord(b, s2));
    OK(cuStreamWaitEvent(NULL, b, 0));
    OK(spin(NULL, 2 * MS));
    OK(cuEventRecord(c, NULL));
    OK(cuEventSynchronize(c));
    assert_elapsed(a, b, 3 * MS);
    assert_elapsed(a, c, 5 * MS);
    OK(cuEventDestroy(a));
    OK(cuEventDestroy(b));
    OK(cuEventDestroy(c));
    OK(cuStreamDestroy(s1));
    OK(cuStreamDestroy(s2));
}

/* An event belongs to its context: recorded on another context's stream it is INVALID_HANDLE, and destroying
 * the context destroys it (INVALID_HANDLE afterwards, outside strict mode). */
static void test_event_contexts(void)
{
    CUcontext other;
    CUevent mine, theirs;
    CUstream s;
    OK(cuEventCreate(&mine, 0));
    OK(cuCtxCreate(&other, NULL, 0, 0));
    OK(cuEventCreate(&theirs, 0));
    OK(cuStreamCreate(&s, 0));
    CU_ASSERT_EQUAL(cuEventRecord(mine, s), CUDA_ERROR_INVALID_HANDLE);
    CU_ASSERT_EQUAL(cuEventRecord(mine, NULL), CUDA_ERROR_INVALID_HANDLE);
    OK(cuEventRecord(theirs, s));
    OK(cuCtxDestroy(other));
    CU_ASSERT_EQUAL(cuEventQuery(theirs), CUDA_ERROR_INVALID_HANDLE);
    CU_ASSERT_EQUAL(cuStreamQuery(s), CUDA_ERROR_INVALID_HANDLE);
    OK(cuEventRecord(mine, NULL));
    OK(cuEventDestroy(mine));
}

/* ---- strict handle mode, in a child process (the parent re-executes itself with an argument) ---- */

static const char *self;

/* The child's misuse of a destroyed event; it returns only if the driver did not abort. */
static int misuse(const char *how)
{
    CUcontext c;
    CUevent e;
    if (cuInit(0) || cuCtxCreate(&c, NULL, 0, 0) || cuEventCreate(&e, 0))
        return 2;
    if (strcmp(how, "destroyed") == 0) {
        if (cuEventDestroy(e))
            return 2;
        cuEventQuery(e);
    } else {
        if (cuCtxDestroy(c) || cuCtxCreate(&c, NULL, 0, 0))
            return 2;
        cuEventRecord(e, NULL);
    }
    return 0;
}

/* Runs the child with SIM_STRICT_HANDLES=1; its status and the first line of its stderr. */
static int run_child(const char *how, char *err, size_t errlen)
{
    int fds[2];
    if (pipe(fds) != 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], 2);
        close(fds[0]);
        setenv("SIM_STRICT_HANDLES", "1", 1);
        execl(self, self, "--misuse", how, (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    ssize_t n = read(fds[0], err, errlen - 1);
    err[n > 0 ? n : 0] = '\0';
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    return status;
}

static void test_strict_handles(void)
{
    char err[256];
    int status = run_child("destroyed", err, sizeof err);
    CU_ASSERT(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
    CU_ASSERT_STRING_EQUAL(err, "simdriver: use of destroyed event\n");
    status = run_child("context", err, sizeof err);
    CU_ASSERT(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
    CU_ASSERT_STRING_EQUAL(err, "simdriver: use of destroyed event\n");
}

static int enter_context(void)
{
    return cuInit(0) || cuCtxCreate(&ctx, NULL, 0, 0) || cuModuleLoadData(&module, ptx) ||
           cuModuleGetFunction(&spin_fn, module, "spin");
}

static int leave_context(void)
{
    return cuModuleUnload(module) || cuCtxDestroy(ctx);
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--misuse") == 0)
        return misuse(argv[2]);
    self = argv[0];
    CU_TestInfo tests[] = {
        {"spin kernel duration through events", test_spin_duration},
        {"synchronize waits for the timeline", test_synchronize_waits},
        {"copy and set durations", test_copy_durations},
        {"elapsed time across streams", test_cross_stream},
        {"events belong to their context", test_event_contexts},
        {"strict handles: a destroyed event aborts", test_strict_handles},
        CU_TEST_INFO_NULL,
    };
    CU_SuiteInfo suites[] = {
        {"simdriver: timeline", enter_context, leave_context, NULL, NULL, tests},
        CU_SUITE_INFO_NULL,
    };
    return cunit_run(suites);
}
