/* Contexts sample (driver API, linked with -lcuda, runs on the simulated driver and on a GPU): a created
 * context handed from the main thread to a worker thread and back with cuCtxPopCurrent/cuCtxPushCurrent,
 * the primary context retained twice and released, and a library-style call that pushes the primary
 * context, works in it and pops it, leaving the caller's context current.  Each step adds two vectors with
 * vectorAdd from vectoradd_kernel.ptx (grid 16, block 256) and checks the result.
 * Usage: ctx_drv [PTX_DIR]   (default: the executable's directory). Exit 0 and "PASSED" when every check
 * holds; 1 otherwise. */
#include "config.h"

#include "drv_sample.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define N 4096
#define THREADS 256
#define KERNEL "_Z9vectorAddPKfS0_Pfi"

static const char *ptx_path;

static CUcontext current(void)
{
    CUcontext ctx = NULL;
    CHECK(cuCtxGetCurrent(&ctx));
    return ctx;
}

/* Loads vectorAdd into the current context, adds two vectors with it, checks and frees everything. */
static void add_vectors(float scale)
{
    CUmodule module;
    CUfunction add;
    CHECK(cuModuleLoad(&module, ptx_path));
    CHECK(cuModuleGetFunction(&add, module, KERNEL));

    static float a[N], b[N], c[N]; /* one thread at a time runs this */
    for (int i = 0; i < N; i++) { /* small integers times a power of two: exact sums */
        a[i] = scale * (float)(i % 100);
        b[i] = (float)(i % 7);
    }
    size_t bytes = sizeof a;
    CUdeviceptr d_a, d_b, d_c;
    CHECK(cuMemAlloc(&d_a, bytes));
    CHECK(cuMemAlloc(&d_b, bytes));
    CHECK(cuMemAlloc(&d_c, bytes));
    CHECK(cuMemcpyHtoD(d_a, a, bytes));
    CHECK(cuMemcpyHtoD(d_b, b, bytes));
    int n = N;
    void *params[] = {&d_a, &d_b, &d_c, &n};
    CHECK(cuLaunchKernel(add, N / THREADS, 1, 1, THREADS, 1, 1, 0, NULL, params, NULL));
    CHECK(cuMemcpyDtoH(c, d_c, bytes));
    for (int i = 0; i < N; i++)
        sample_require(c[i] == a[i] + b[i], "vectorAdd result");
    CHECK(cuMemFree(d_a));
    CHECK(cuMemFree(d_b));
    CHECK(cuMemFree(d_c));
    CHECK(cuModuleUnload(module));
}

/* The worker: starts with no current context, pushes the one it is given, works, pops it. */
static void *worker(void *arg)
{
    CUcontext ctx = arg, popped = NULL;
    sample_require(current() == NULL, "a new thread has no current context");
    CHECK(cuCtxPushCurrent(ctx));
    sample_require(current() == ctx, "the pushed context is current in the worker");
    add_vectors(2.0f);
    CHECK(cuCtxPopCurrent(&popped));
    sample_require(popped == ctx && current() == NULL, "the worker pops what it pushed");
    return NULL;
}

/* A library's entry point: it works in the device's primary context, whatever the caller has current, and
 * leaves the caller's context stack as it found it. */
static void library_call(CUdevice device)
{
    CUcontext primary, popped = NULL;
    CHECK(cuDevicePrimaryCtxRetain(&primary, device));
    CHECK(cuCtxPushCurrent(primary));
    add_vectors(4.0f);
    CHECK(cuCtxPopCurrent(&popped));
    sample_require(popped == primary, "the library pops the primary context it pushed");
    CHECK(cuDevicePrimaryCtxRelease(device));
}

static int primary_active(CUdevice device)
{
    unsigned int flags;
    int active = -1;
    CHECK(cuDevicePrimaryCtxGetState(device, &flags, &active));
    return active;
}

int main(int argc, char **argv)
{
    ptx_path = sample_path(sample_ptx_dir(argc, argv), "vectoradd_kernel.ptx");
    CUdevice device, ctx_device;
    CUcontext owned, popped = NULL;
    CHECK(cuInit(0));
    CHECK(cuDeviceGet(&device, 0));

    /* 1: a created context is current to the thread that created it. */
    CHECK(cuCtxCreate(&owned, NULL, 0, device));
    sample_require(current() == owned, "cuCtxCreate makes the context current");
    CHECK(cuCtxGetDevice(&ctx_device));
    sample_require(ctx_device == device, "the context is on device 0");
    unsigned int api = 0;
    CHECK(cuCtxGetApiVersion(owned, &api));
    sample_require(api >= 3020, "context API version");
    add_vectors(1.0f);
    printf("created context: current, on device 0, vectorAdd: ok\n");

    /* 2: popped here, pushed and popped by a worker thread, pushed back here. */
    CHECK(cuCtxPopCurrent(&popped));
    sample_require(popped == owned && current() == NULL, "pop leaves the main thread without a context");
    pthread_t thread;
    sample_require(pthread_create(&thread, NULL, worker, owned) == 0, "pthread_create");
    sample_require(pthread_join(thread, NULL) == 0, "pthread_join");
    CHECK(cuCtxPushCurrent(owned));
    sample_require(current() == owned, "the context is current again after the push");
    printf("context handed to a worker thread and back: ok\n");

    /* 3: the primary context: one context per device, reference counted, distinct from ours. */
    CUcontext primary1, primary2;
    CHECK(cuDevicePrimaryCtxRetain(&primary1, device));
    CHECK(cuDevicePrimaryCtxRetain(&primary2, device));
    sample_require(primary1 == primary2 && primary1 != owned, "retain gives the one primary context");
    sample_require(primary_active(device) == 1, "a retained primary context is active");
    sample_require(current() == owned, "retaining does not change the current context");
    printf("primary context retained twice: same handle, active: ok\n");

    /* 4: a library pushes the primary context, works in it and pops it. */
    library_call(device);
    sample_require(current() == owned, "the library left the caller's context current");
    printf("library push/work/pop in the primary context: ok\n");

    CHECK(cuDevicePrimaryCtxRelease(device));
    sample_require(primary_active(device) == 1, "one reference left: still active");
    CHECK(cuDevicePrimaryCtxRelease(device));
    sample_require(primary_active(device) == 0, "the last release deactivates the primary context");
    printf("primary context released: inactive: ok\n");

    /* Destroying the current context pops it. */
    CHECK(cuCtxDestroy(owned));
    sample_require(current() == NULL, "the destroyed context is no longer current");
    free((void *)ptx_path);
    printf("ctx_drv: PASSED\n");
    return 0;
}
