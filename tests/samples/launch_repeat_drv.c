/* Launch loops, as programs make them: one kernel launched over and over with one shape, a shape that changes
 * and changes back, two kernels alternating, a second stream, and all of it again from a second thread, which
 * pauses after its first loop (the tracer's writer passes meanwhile) and launches twice more from a TLS
 * destructor (after the tracer's own has handed the thread's buffer over: a second buffer for the same thread
 * id).  Last, the main thread launches kernelA once more, unloads the module and launches kernelZ of a new
 * one three times with the same arguments: the simulated driver gives kernelZ kernelA's old handle (said on
 * stderr), and those launches must not read back as kernelA's.  The tracer writes most of these as 32-byte
 * launch repeats (format.h, launch shapes); the tests check that every launch reads back with its own
 * kernel, grid, block and stream.  Each thread also asks for its context's device 80 times, between the
 * launches and back to back: the tracer writes most of those as 16-byte short calls (format.h,
 * CT_REC_CALL_SHORT).  Prints the launches made. */
#include <pthread.h>
#include <stdio.h>
#include <time.h>

#include "drv_sample.h"

#define LOOP_LAUNCHES 222 /* per run of loop() */
#define AT_EXIT_LAUNCHES 2
#define RELOAD_LAUNCHES 4 /* kernelA once, kernelZ three times */

static const char ptx[] = ".version 8.0\n.target sm_75\n.address_size 64\n"
                          ".visible .entry kernelA()\n{\n\tret;\n}\n"
                          ".visible .entry kernelB()\n{\n\tret;\n}\n";
static const char ptx2[] = ".version 8.0\n.target sm_75\n.address_size 64\n"
                           ".visible .entry kernelZ()\n{\n\tret;\n}\n"
                           ".visible .entry kernelY()\n{\n\tret;\n}\n";

static CUcontext ctx;
static CUfunction a, b;
static pthread_key_t at_exit_key;

static void launch(CUfunction f, unsigned grid, CUstream s)
{
    CHECK(cuLaunchKernel(f, grid, 1, 1, 32, 1, 1, 0, s, NULL, NULL));
}

static void query_device(void)
{
    CUdevice d;
    CHECK(cuCtxGetDevice(&d));
}

static void launch_at_exit(void *arg)
{
    (void)arg;
    CHECK(cuCtxSetCurrent(ctx));
    for (int i = 0; i < AT_EXIT_LAUNCHES; i++)
        launch(a, 2, NULL);
    CHECK(cuCtxSynchronize());
}

/* arg: non-NULL in the second thread. */
static void *loop(void *arg)
{
    CUstream s;

    CHECK(cuCtxSetCurrent(ctx));
    CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    for (int i = 0; i < 100; i++)
        launch(a, 1, NULL);
    if (arg) {
        const struct timespec pause = {0, 300000000}; /* longer than the writer's default interval */
        sample_require(pthread_setspecific(at_exit_key, arg) == 0, "a TLS destructor");
        nanosleep(&pause, NULL);
    }
    launch(a, 2, NULL);
    launch(a, 1, NULL);
    for (int i = 0; i < 50; i++) {
        launch(a, 1, NULL);
        launch(b, 3, NULL);
        query_device();
    }
    for (int i = 0; i < 20; i++)
        launch(a, 1, s);
    for (int i = 0; i < 30; i++)
        query_device();
    CHECK(cuStreamSynchronize(s));
    CHECK(cuStreamDestroy(s));
    return NULL;
}

int main(void)
{
    CUdevice dev;
    CUmodule mod;
    pthread_t t;

    sample_primary_context(&dev, &ctx);
    CHECK(cuModuleLoadData(&mod, ptx));
    CHECK(cuModuleGetFunction(&a, mod, "kernelA"));
    CHECK(cuModuleGetFunction(&b, mod, "kernelB"));
    sample_require(pthread_key_create(&at_exit_key, launch_at_exit) == 0, "a TLS key");
    loop(NULL);
    sample_require(pthread_create(&t, NULL, loop, &at_exit_key) == 0, "a second thread");
    sample_require(pthread_join(t, NULL) == 0, "the second thread's end");
    CHECK(cuCtxSynchronize());

    CUfunction z, old_a = a;
    launch(a, 1, NULL);
    CHECK(cuModuleUnload(mod));
    CHECK(cuModuleLoadData(&mod, ptx2));
    CHECK(cuModuleGetFunction(&z, mod, "kernelZ"));
    if (z == old_a)
        fprintf(stderr, "launch_repeat_drv: kernelZ has kernelA's old handle\n");
    for (int i = 0; i < RELOAD_LAUNCHES - 1; i++)
        launch(z, 1, NULL);
    CHECK(cuCtxSynchronize());
    CHECK(cuModuleUnload(mod));
    CHECK(cuDevicePrimaryCtxRelease(dev));
    printf("launch_repeat_drv: %d launches\n", 2 * LOOP_LAUNCHES + AT_EXIT_LAUNCHES + RELOAD_LAUNCHES);
    return 0;
}
