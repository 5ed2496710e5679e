/* A CUPTI injection library that asks CUPTI for what cudatrace's default GPU time asks it for (kernel, copy
 * and set activity) and does nothing with the records but count them: the price of CUPTI alone, to set
 * beside the tracer's.  Buffers are kept and given again, zeroed here, as src/gputime/activity.c does; a
 * thread named cudatrace-bench flushes every 100 ms (the tracer's default collection interval), so that
 * bench/run-train-overhead adds its CPU time to the "on" blocks as it adds the tracer's.  The kinds follow
 * cuProfilerStart/cuProfilerStop, as CUDATRACE_CAPTURE=profiler does, so the in-process method sees them
 * on in its "on" blocks only:
 *
 *   bench/run-train-overhead ... LD_PRELOAD=,CUDA_INJECTION64_PATH=$PWD/bench/libcupti_alone.so
 *
 * (LD_PRELOAD empty: untraced).  At exit one line on stderr: records, buffers, dropped records.  Built as
 * bench/libcupti_count.so is (bench/overhead.mk, scripts/gpu-bundle). */
#define _GNU_SOURCE /* pthread_setname_np */
#include <cupti.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BUFFER_BYTES (2u << 20)
#define SPARES 16u

static CUpti_SubscriberHandle subscriber;
static const CUpti_ActivityKind kinds[] = {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
                                           CUPTI_ACTIVITY_KIND_MEMSET};
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static uint8_t *spare[SPARES];
static unsigned nspare;
static _Atomic unsigned long long records, buffers, dropped;

static void set_kinds(int on)
{
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        on ? cuptiActivityEnable(kinds[i]) : cuptiActivityDisable(kinds[i]);
}

static void CUPTIAPI on_call(void *data, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void *info)
{
    const CUpti_CallbackData *cb = info;
    (void)data, (void)domain;
    if (cb->callbackSite == CUPTI_API_EXIT)
        set_kinds(cbid == CUPTI_DRIVER_TRACE_CBID_cuProfilerStart);
}

static void CUPTIAPI requested(uint8_t **buf, size_t *size, size_t *max)
{
    pthread_mutex_lock(&mu);
    uint8_t *b = nspare ? spare[--nspare] : NULL;
    pthread_mutex_unlock(&mu);
    *buf = b ? b : calloc(1, BUFFER_BYTES); /* zeroed: CUPTI is told buffers come so */
    *size = *buf ? BUFFER_BYTES : 0;
    *max = 0;
}

static void CUPTIAPI done(CUcontext ctx, uint32_t stream, uint8_t *buf, size_t size, size_t valid)
{
    CUpti_Activity *r = NULL;
    size_t lost = 0;
    (void)size;
    while (cuptiActivityGetNextRecord(buf, valid, &r) == CUPTI_SUCCESS)
        atomic_fetch_add_explicit(&records, 1, memory_order_relaxed);
    if (cuptiActivityGetNumDroppedRecords(ctx, stream, &lost) == CUPTI_SUCCESS)
        atomic_fetch_add(&dropped, lost);
    atomic_fetch_add(&buffers, 1);
    if (!buf)
        return;
    memset(buf, 0, valid < BUFFER_BYTES ? valid : BUFFER_BYTES);
    pthread_mutex_lock(&mu);
    if (nspare < SPARES) {
        spare[nspare++] = buf;
        buf = NULL;
    }
    pthread_mutex_unlock(&mu);
    free(buf);
}

static void *flusher(void *arg)
{
    (void)arg;
    pthread_setname_np(pthread_self(), "cudatrace-bench");
    for (;;) {
        nanosleep(&(struct timespec){0, 100000000L}, NULL);
        cuptiActivityFlushAll(0);
    }
    return NULL;
}

static void at_exit(void)
{
    cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    fprintf(stderr, "cupti_alone: %llu records in %llu buffers, %llu dropped\n", atomic_load(&records),
            atomic_load(&buffers), atomic_load(&dropped));
}

static int fail(const char *what, CUptiResult r)
{
    const char *s = "?";
    cuptiGetResultString(r, &s);
    fprintf(stderr, "cupti_alone: %s: %s\n", what, s);
    return 0;
}

/* CUDA's injection entry point: called once when the driver initializes. */
__attribute__((visibility("default"))) int InitializeInjection(void)
{
    uint8_t zeroed = 1;
    size_t len = sizeof zeroed;
    pthread_t t;
    CUptiResult r;

    if ((r = cuptiSubscribe(&subscriber, on_call, NULL)) != CUPTI_SUCCESS)
        return fail("cuptiSubscribe", r);
    if ((r = cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuProfilerStart)) !=
            CUPTI_SUCCESS ||
        (r = cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuProfilerStop)) !=
            CUPTI_SUCCESS)
        return fail("cuptiEnableCallback", r);
    if ((r = cuptiActivitySetAttribute(CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER, &len, &zeroed)) != CUPTI_SUCCESS)
        return fail("cuptiActivitySetAttribute", r);
    if ((r = cuptiActivityRegisterCallbacks(requested, done)) != CUPTI_SUCCESS)
        return fail("cuptiActivityRegisterCallbacks", r);
    set_kinds(1);
    if (pthread_create(&t, NULL, flusher, NULL) == 0)
        pthread_detach(t);
    atexit(at_exit);
    return 1;
}
