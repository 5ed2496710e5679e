/* A program that uses CUPTI itself, as torch.profiler does (gpu-activity.sh), on the simulated driver and
 * CUPTI: it subscribes to the callbacks of cuLaunchKernel, takes CONCURRENT_KERNEL activity records into
 * buffers of its own, launches 10 kernels and checks that it saw 10 callbacks and 10 records.  Traced, it must
 * get CUPTI as it would untraced.
 *   cupti-user late    10 launches first (the tracer times them with CUPTI), then the program takes CUPTI
 *   cupti-user early   the program takes CUPTI before its first driver call, before the tracer starts
 *   cupti-user fork    10 launches, then a forked child calls cuptiActivityFlushAll (the CUPTI it has is
 *                      its parent's: the tracer must not hand it over there), then 10 more launches
 * Prints "callbacks N records M"; exit 0 when both are 10 (fork: "child N", 0 when the child exited 0). */
#include <cuda.h>
#include <cupti_activity.h>
#include <cupti_callbacks.h>
#include <cupti_driver_cbid.h>
#include <cupti_result.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const char ptx[] = ".version 8.0\n.target sm_90\n.address_size 64\n"
                          ".visible .entry spin(.param .u64 ns)\n{\n ret;\n}\n";

#define CHECK(call) check((int)(call), #call, __LINE__)
static void check(int r, const char *what, int line)
{
    if (r != 0) {
        fprintf(stderr, "cupti-user:%d: %s returned %d\n", line, what, r);
        exit(1);
    }
}

static int callbacks, records;

static void CUPTIAPI on_api(void *data, CUpti_CallbackDomain d, CUpti_CallbackId id, const void *info)
{
    (void)data, (void)d, (void)id;
    if (((const CUpti_CallbackData *)info)->callbackSite == CUPTI_API_EXIT)
        callbacks++;
}

static void CUPTIAPI want(uint8_t **buf, size_t *size, size_t *max)
{
    *size = 1 << 16;
    *buf = aligned_alloc(8, *size);
    if (*buf) /* not zeroed, as CUPTI allows by default: it zeroes buffers itself (the tracer must not have told it otherwise) */
        memset(*buf, 0xA5, *size);
    *max = 0;
}

static void CUPTIAPI done(CUcontext ctx, uint32_t stream, uint8_t *buf, size_t size, size_t valid)
{
    CUpti_Activity *r = NULL;
    (void)ctx, (void)stream, (void)size;
    while (cuptiActivityGetNextRecord(buf, valid, &r) == CUPTI_SUCCESS)
        records += r->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
    free(buf);
}

static void take_cupti(void)
{
    CUpti_SubscriberHandle sub;
    CHECK(cuptiSubscribe(&sub, on_api, NULL));
    CHECK(cuptiEnableCallback(1, sub, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel));
    CHECK(cuptiActivityRegisterCallbacks(want, done));
    CHECK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
}

static void launches(CUfunction f, int n)
{
    for (int i = 0; i < n; i++) {
        unsigned long long ns = 1000;
        CHECK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, (void *[]){&ns}, NULL));
    }
    CHECK(cuCtxSynchronize());
}

int main(int argc, char **argv)
{
    const int early = argc > 1 && strcmp(argv[1], "early") == 0;
    const int forks = argc > 1 && strcmp(argv[1], "fork") == 0;
    CUdevice dev;
    CUcontext ctx;
    CUmodule mod;
    CUfunction f;

    if (argc != 2 || (!early && !forks && strcmp(argv[1], "late") != 0)) {
        fprintf(stderr, "usage: cupti-user late|early|fork\n");
        return 2;
    }
    if (early)
        take_cupti();
    CHECK(cuInit(0));
    CHECK(cuDeviceGet(&dev, 0));
    CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CHECK(cuCtxSetCurrent(ctx));
    CHECK(cuModuleLoadData(&mod, ptx));
    CHECK(cuModuleGetFunction(&f, mod, "spin"));
    if (forks) {
        int st = -1;
        launches(f, 10);
        pid_t pid = fork();
        if (pid == 0)
            _exit(cuptiActivityFlushAll(0) == CUPTI_SUCCESS ? 0 : 1);
        if (pid < 0 || waitpid(pid, &st, 0) != pid)
            return 1;
        launches(f, 10);
        printf("child %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
        return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : 1;
    }
    if (!early) {
        launches(f, 10);
        take_cupti();
    }
    launches(f, 10);
    CHECK(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));
    printf("callbacks %d records %d\n", callbacks, records);
    return callbacks == 10 && records == 10 ? 0 : 1;
}
