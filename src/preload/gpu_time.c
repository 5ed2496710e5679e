/* GPU time: choosing and timing calls on the program's threads (gpu_time.h).  The program's thread never
 * waits on the GPU here: it records two events and queues them; reading them is gpu_collect.c's. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "preload/gpu_pool.h"
#include "preload/gpu_time.h"
#include "preload/interpose.h"
#include "recorder/rings.h"
#include "recorder/tsan.h"
#include "recorder/warn.h"
#include "recorder/writer.h"

__thread struct ct_gpu_kind *ct_gpu_kinds __attribute__((tls_model("initial-exec")));
__thread uint32_t ct_gpu_overflow_left __attribute__((tls_model("initial-exec")));

struct ct_gpu_driver ct_gpu_drv;
struct ct_gpu_pool *_Atomic ct_gpu_pools;
pthread_mutex_t ct_gpu_collect_mu = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t ct_gpu_pools_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t found_once = PTHREAD_ONCE_INIT;
static int found; /* every function of ct_gpu_drv is there */

/* The last pool this thread used: a program drives one context per thread most of the time. */
static __thread struct ct_gpu_pool *last_pool __attribute__((tls_model("initial-exec")));

/* One warning per kind of trouble per process. */
static void warn_once(_Atomic int *said, const char *what)
{
    if (!atomic_exchange(said, 1))
        ct_warn("GPU time: %s; such calls are counted as untimed", what);
}

static void find_driver(void)
{
    struct ct_gpu_driver *d = &ct_gpu_drv;

    d->ctx_get_current = CT_DRIVER(cuCtxGetCurrent);
    d->stream_ctx = CT_DRIVER(cuStreamGetCtx);
    d->ctx_get_device = CT_DRIVER(cuCtxGetDevice);
    d->ctx_push = CT_DRIVER(cuCtxPushCurrent_v2);
    d->ctx_pop = CT_DRIVER(cuCtxPopCurrent_v2);
    d->primary_state = CT_DRIVER(cuDevicePrimaryCtxGetState);
    d->primary_retain = CT_DRIVER(cuDevicePrimaryCtxRetain);
    d->primary_release = CT_DRIVER(cuDevicePrimaryCtxRelease_v2);
    d->is_capturing = CT_DRIVER(cuStreamIsCapturing);
    d->stream_create = CT_DRIVER(cuStreamCreate);
    d->event_create = CT_DRIVER(cuEventCreate);
    d->event_record = CT_DRIVER(cuEventRecord);
    d->event_destroy = CT_DRIVER(cuEventDestroy_v2);
    d->event_query = CT_DRIVER(cuEventQuery);
    d->elapsed = (PFN_cuEventElapsedTime_v2000)CT_DRIVER(cuEventElapsedTime_v2);
    if (!d->elapsed)
        d->elapsed = CT_DRIVER(cuEventElapsedTime);
    d->exchange_mode = CT_DRIVER(cuThreadExchangeStreamCaptureMode);
    found = d->ctx_get_current && d->ctx_get_device && d->ctx_push && d->ctx_pop && d->primary_state &&
            d->primary_retain && d->primary_release && d->is_capturing && d->stream_create && d->event_create &&
            d->event_record && d->event_destroy && d->event_query && d->elapsed && d->exchange_mode;
    if (!found)
        ct_warn("GPU time: the driver lacks a function it needs; no call is timed");
}

/* A thread's table goes with the thread (a key's destructor: threads come and go by the thousand). */
static pthread_key_t kinds_key;
static pthread_once_t kinds_once = PTHREAD_ONCE_INIT;
static int kinds_keyed;

static void kinds_free(void *t)
{
    if (ct_gpu_kinds == t)
        ct_gpu_kinds = NULL;
    free(t);
}

static void kinds_key_make(void) { kinds_keyed = pthread_key_create(&kinds_key, kinds_free) == 0; }

struct ct_gpu_kind *ct_gpu_kinds_make(void)
{
    pthread_once(&kinds_once, kinds_key_make);
    struct ct_gpu_kind *t = aligned_alloc(64, CT_GPU_KINDS * sizeof *t); /* a set on two whole lines */
    if (t)
        memset(t, 0, CT_GPU_KINDS * sizeof *t);
    if (t && kinds_keyed && pthread_setspecific(kinds_key, t) != 0) {
        free(t);
        t = NULL;
    }
    return ct_gpu_kinds = t;
}

CUstreamCaptureMode ct_gpu_relax(void)
{
    CUstreamCaptureMode m = CU_STREAM_CAPTURE_MODE_RELAXED;
    if (ct_gpu_drv.exchange_mode(&m) != CUDA_SUCCESS)
        m = CU_STREAM_CAPTURE_MODE_RELAXED; /* nothing to put back */
    return m;
}

void ct_gpu_unrelax(CUstreamCaptureMode was)
{
    if (was != CU_STREAM_CAPTURE_MODE_RELAXED)
        ct_gpu_drv.exchange_mode(&was);
}

static struct ct_gpu_pool *pool_of(CUcontext ctx)
{
    struct ct_gpu_pool *p = last_pool;

    if (p && p->ctx == ctx && !atomic_load_explicit(&p->dead, memory_order_acquire))
        return p; /* closing or not: a call of the program's on a context it is destroying is its own affair */
    pthread_mutex_lock(&ct_gpu_pools_mu);
    for (p = atomic_load(&ct_gpu_pools); p; p = p->next)
        if (p->ctx == ctx && !atomic_load(&p->dead))
            break;
    if (!p && (p = calloc(1, sizeof *p)) != NULL) {
        CUdevice dev = -1;
        CUcontext popped;
        CUstreamCaptureMode was = ct_gpu_relax();
        if (ct_gpu_drv.ctx_push(ctx) == CUDA_SUCCESS) { /* ctx is a stream's, perhaps not the current one */
            if (ct_gpu_drv.ctx_get_device(&dev) != CUDA_SUCCESS)
                dev = -1;
            ct_gpu_drv.ctx_pop(&popped);
        }
        p->ctx = ctx;
        p->device = dev;
        ct_gpu_unrelax(was);
        pthread_mutex_init(&p->mu, NULL);
        p->pend_tail = &p->pend;
        p->wait_tail = &p->wait;
        p->next = atomic_load(&ct_gpu_pools);
        ct_tsan_release(p); /* for those that find it without ct_gpu_pools_mu: the collector, a context closing */
        atomic_store(&ct_gpu_pools, p);
        ct_gpu_install();
    }
    pthread_mutex_unlock(&ct_gpu_pools_mu);
    return last_pool = p;
}

/* A free pair of the pool, made if there is none and the pool may grow; NULL otherwise (counted). */
static struct ct_gpu_pair *take_pair(struct ct_gpu_pool *pool)
{
    static _Atomic int said_pool, said_create;
    struct ct_gpu_pair *p;
    int make = 0;

    pthread_mutex_lock(&pool->mu);
    if ((p = pool->free) != NULL)
        pool->free = p->next;
    else if (pool->pairs < CT_GPU_POOL_MAX)
        make = 1, pool->pairs++;
    pthread_mutex_unlock(&pool->mu);
    if (p || !make) {
        if (!p) {
            atomic_fetch_add(&ct_gpu_counts.untimed_pool, 1);
            warn_once(&said_pool, "every timing event of a context is in use (the GPU is far behind)");
        }
        return p;
    }
    CUstreamCaptureMode was = ct_gpu_relax();
    CUresult r = CUDA_ERROR_OUT_OF_MEMORY;
    if ((p = calloc(1, sizeof *p)) != NULL &&
        (r = ct_gpu_drv.event_create(&p->start, CU_EVENT_DEFAULT)) == CUDA_SUCCESS &&
        (r = ct_gpu_drv.event_create(&p->end, CU_EVENT_DEFAULT)) != CUDA_SUCCESS)
        ct_gpu_drv.event_destroy(p->start);
    ct_gpu_unrelax(was);
    if (r == CUDA_SUCCESS) {
        p->pool = pool;
        return p;
    }
    free(p);
    pthread_mutex_lock(&pool->mu);
    pool->pairs--;
    pthread_mutex_unlock(&pool->mu);
    atomic_fetch_add(&ct_gpu_counts.untimed_refused, 1);
    warn_once(&said_create, "the driver refused to create a timing event");
    return NULL;
}

void ct_gpu_release(struct ct_gpu_pool *pool, struct ct_gpu_pair *list)
{
    if (!list)
        return;
    struct ct_gpu_pair *last = list;
    while (last->next)
        last = last->next;
    pthread_mutex_lock(&pool->mu);
    last->next = pool->free;
    pool->free = list;
    pthread_mutex_unlock(&pool->mu);
}

void ct_gpu_drop(struct ct_gpu_pair *p)
{
    p->next = NULL;
    ct_gpu_release(p->pool, p);
}

/* The driver would not record one of a pair's events: the pair goes back, the call is untimed. */
static void record_refused(struct ct_gpu_pair *p)
{
    static _Atomic int said;
    ct_gpu_drop(p);
    atomic_fetch_add(&ct_gpu_counts.untimed_refused, 1);
    warn_once(&said, "the driver refused to record a timing event");
}

struct ct_gpu_pair *ct_gpu_begin(uint16_t api_id, CUstream stream)
{
    CUcontext ctx = NULL;
    CUstreamCaptureStatus st = CU_STREAM_CAPTURE_STATUS_NONE;
    struct ct_gpu_pool *pool;
    struct ct_gpu_pair *p;

    pthread_once(&found_once, find_driver);
    if (!found)
        return NULL;
    /* The events must be in the stream's context, which need not be the current one (a copy on another
     * device's stream); the special handles (0, legacy, per-thread) are the current context's. */
    const int special = stream == NULL || stream == CU_STREAM_LEGACY || stream == CU_STREAM_PER_THREAD;
    if ((special || !ct_gpu_drv.stream_ctx || ct_gpu_drv.stream_ctx(stream, &ctx) != CUDA_SUCCESS) &&
        ct_gpu_drv.ctx_get_current(&ctx) != CUDA_SUCCESS)
        ctx = NULL;
    if (!ctx || !(pool = pool_of(ctx)))
        return NULL; /* no context: the call fails, and is not timed */
    /* An event recorded on a stream being captured would become a node of the program's graph. */
    if (ct_gpu_drv.is_capturing(stream, &st) != CUDA_SUCCESS || st != CU_STREAM_CAPTURE_STATUS_NONE) {
        atomic_fetch_add(&ct_gpu_counts.untimed_capture, 1);
        return NULL;
    }
    if (!(p = take_pair(pool)))
        return NULL;
    if (ct_gpu_drv.event_record(p->start, stream) != CUDA_SUCCESS) {
        record_refused(p);
        return NULL;
    }
    p->stream = stream;
    p->seq_mark = ct_rec_ring ? ct_rec_ring->seq_next : 0;
    memset(&p->rec, 0, sizeof p->rec);
    ct_put_hdr(&p->rec.h, CT_REC_GPU, sizeof p->rec, 0);
    p->rec.api_id = api_id;
    p->rec.stream = (uint64_t)(uintptr_t)stream;
    p->rec.device = pool->device;
    return p;
}

void ct_gpu_returned(struct ct_gpu_pair *p) { p->returned_ns = ct_now_ns(); }

/* The call succeeded and its record was kept: the end event, then the pair waits for the collector. */
static void finish(struct ct_gpu_pair *p, CUresult r)
{
    struct ct_ring *ring = ct_rec_ring;
    struct ct_gpu_pool *pool = p->pool;

    if (r != CUDA_SUCCESS || !ring || ring->seq_next == p->seq_mark) {
        ct_gpu_drop(p); /* a failed call is not timed; a call without a record has nothing to join */
        return;
    }
    if (ct_gpu_drv.event_record(p->end, p->stream) != CUDA_SUCCESS) {
        record_refused(p);
        return;
    }
    p->rec.h.tid = ring->tid;
    p->rec.seq = ring->seq_next - 1;
    p->next = NULL;
    pthread_mutex_lock(&pool->mu);
    *pool->pend_tail = p;
    pool->pend_tail = &p->next;
    const unsigned n = ++pool->npend;
    pthread_mutex_unlock(&pool->mu);
    if (n % CT_GPU_NUDGE == 0)
        ct_writer_nudge(); /* read them before the pool runs dry */
}

void ct_gpu_end_launch(struct ct_gpu_pair *p, CUresult r, const struct ct_pl_launch *pl)
{
    p->rec.family = CT_FAM_LAUNCH;
    p->rec.name_id = pl->name_id;
    p->rec.launch_kind = pl->kind;
    memcpy(p->rec.grid, pl->grid, sizeof p->rec.grid);
    memcpy(p->rec.block, pl->block, sizeof p->rec.block);
    finish(p, r);
}

void ct_gpu_end_copy(struct ct_gpu_pair *p, CUresult r, const struct ct_pl_copy *pl)
{
    p->rec.family = CT_FAM_COPY;
    p->rec.bytes = pl->bytes;
    p->rec.copy_flags = pl->flags;
    p->rec.src_kind = pl->src_kind;
    p->rec.dst_kind = pl->dst_kind;
    finish(p, r);
}
