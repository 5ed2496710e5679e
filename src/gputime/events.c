/* GPU time from timing events (events.h): timing calls on the program's threads.  The program's thread never
 * waits on the GPU here: it records two events and queues them; reading them is events_collect.c's. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "format/record.h"
#include "gputime/events.h"
#include "gputime/backend.h"
#include "gputime/sample.h"
#include "recorder/clock.h"
#include "recorder/gpu.h"
#include "recorder/rings.h"
#include "recorder/tsan.h"
#include "recorder/warn.h"
#include "recorder/writer.h"
#include "recorder/alloc.h"

/* The last pool this thread used: a program drives one context per thread most of the time. */
static __thread struct ct_gpu_pool *last_pool __attribute__((tls_model("initial-exec")));

/* One warning per kind of trouble per process. */
static void warn_once(_Atomic int *said, const char *what)
{
    if (!atomic_exchange(said, 1))
        ct_warn("GPU time: %s; such calls are counted as untimed", what);
}

/* The driver's functions, found on the first timed call (0 when one it needs is missing: nothing is timed). */
static int found_driver(void)
{
    static _Atomic int said;
    const struct ct_gpu_driver *d = ct_gpu_d ? ct_gpu_d : ct_gpu_drv();

    if (!d) {
        if (!atomic_exchange(&said, 1))
            ct_warn("GPU time: the driver lacks a function it needs; no call is timed");
        return 0;
    }
    ct_gpu_d = d;
    return 1;
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
    if (!p && (p = ct_calloc(1, sizeof *p)) != NULL) {
        CUdevice dev = -1;
        CUcontext popped;
        sigset_t old;
        ct_signals_block(&old); /* the driver may allocate here: see take_pair */
        CUstreamCaptureMode was = ct_gpu_relax();
        if (ct_gpu_d->ctx_push(ctx) == CUDA_SUCCESS) { /* ctx is a stream's, perhaps not the current one */
            if (ct_gpu_d->ctx_get_device(&dev) != CUDA_SUCCESS)
                dev = -1;
            ct_gpu_d->ctx_pop(&popped);
        }
        ct_gpu_unrelax(was);
        ct_signals_restore(&old);
        p->ctx = ctx;
        p->device = dev;
        pthread_mutex_init(&p->mu, NULL);
        p->pend_tail = &p->pend;
        p->wait_tail = &p->wait;
        p->next = atomic_load(&ct_gpu_pools);
        ct_tsan_release(p); /* for those that find it without ct_gpu_pools_mu: the collector, a context closing */
        atomic_store(&ct_gpu_pools, p);
        ct_gpu_first_use();
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
    /* cuEventCreate allocates with glibc's malloc, inside the program's call: a signal handler that
     * interrupted it there and forked would wait forever on the allocator's lock (glibc's fork takes it), where
     * the program untraced would not.  So no handler runs on this thread until the pair is made (a pool's
     * rare growth, at most CT_GPU_POOL_MAX pairs). */
    sigset_t old;
    ct_signals_block(&old);
    CUstreamCaptureMode was = ct_gpu_relax();
    CUresult r = CUDA_ERROR_OUT_OF_MEMORY;
    if ((p = ct_calloc(1, sizeof *p)) != NULL &&
        (r = ct_gpu_d->event_create(&p->start, CU_EVENT_DEFAULT)) == CUDA_SUCCESS &&
        (r = ct_gpu_d->event_create(&p->end, CU_EVENT_DEFAULT)) != CUDA_SUCCESS)
        ct_gpu_d->event_destroy(p->start);
    ct_gpu_unrelax(was);
    ct_signals_restore(&old);
    if (r == CUDA_SUCCESS) {
        p->pool = pool;
        return p;
    }
    ct_free(p);
    pthread_mutex_lock(&pool->mu);
    pool->pairs--;
    pthread_mutex_unlock(&pool->mu);
    atomic_fetch_add(&ct_gpu_counts.untimed_refused, 1);
    warn_once(&said_create, "the driver refused to create a timing event");
    return NULL;
}

static void drop_pair(struct ct_gpu_pair *p)
{
    p->next = NULL;
    ct_gpu_release(p->pool, p);
}

static void drop(struct ct_gpu_call *c) { drop_pair((struct ct_gpu_pair *)c); }

/* The driver would not record one of a pair's events: the pair goes back, the call is untimed. */
static void record_refused(struct ct_gpu_pair *p)
{
    static _Atomic int said;
    drop_pair(p);
    atomic_fetch_add(&ct_gpu_counts.untimed_refused, 1);
    warn_once(&said, "the driver refused to record a timing event");
}

static struct ct_gpu_call *begin(uint16_t api_id, CUstream stream, int pick)
{
    CUcontext ctx = NULL;
    CUstreamCaptureStatus st = CU_STREAM_CAPTURE_STATUS_NONE;
    struct ct_gpu_pool *pool;
    struct ct_gpu_pair *p;

    if (!found_driver())
        return NULL;
    /* The events must be in the stream's context, which need not be the current one (a copy on another
     * device's stream); the special handles (0, legacy, per-thread) are the current context's. */
    const int special = stream == NULL || stream == CU_STREAM_LEGACY || stream == CU_STREAM_PER_THREAD;
    if ((special || !ct_gpu_d->stream_ctx || ct_gpu_d->stream_ctx(stream, &ctx) != CUDA_SUCCESS) &&
        ct_gpu_d->ctx_get_current(&ctx) != CUDA_SUCCESS)
        ctx = NULL;
    if (!ctx || !(pool = pool_of(ctx)))
        return NULL; /* no context: the call fails, and is not timed */
    /* An event recorded on a stream being captured would become a node of the program's graph. */
    if (ct_gpu_d->is_capturing(stream, &st) != CUDA_SUCCESS || st != CU_STREAM_CAPTURE_STATUS_NONE) {
        atomic_fetch_add(&ct_gpu_counts.untimed_capture, 1);
        return NULL;
    }
    if (!(p = take_pair(pool)))
        return NULL;
    if (ct_gpu_d->event_record(p->start, stream) != CUDA_SUCCESS) {
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
    p->rec.flags = pick == CT_GPU_PICK_SAMPLE ? CT_GPU_SPAN_SAMPLED : 0;
    p->call.backend = &ct_gpu_events;
    return &p->call;
}

static void returned(struct ct_gpu_call *c) { ((struct ct_gpu_pair *)c)->returned_ns = ct_now_ns(); }

/* The call succeeded and its record was kept: the end event, then the pair waits for the collector. */
static void finish(struct ct_gpu_pair *p, CUresult r)
{
    struct ct_ring *ring = ct_rec_ring;
    struct ct_gpu_pool *pool = p->pool;

    if (r != CUDA_SUCCESS || !ring || ring->seq_next == p->seq_mark) {
        drop_pair(p); /* a failed call is not timed; a call without a record has nothing to join */
        return;
    }
    if (ct_gpu_d->event_record(p->end, p->stream) != CUDA_SUCCESS) {
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
    atomic_fetch_add_explicit(&pool->out, 1, memory_order_relaxed);
    pthread_mutex_unlock(&pool->mu);
    if (n % CT_GPU_NUDGE == 0)
        ct_writer_nudge(); /* read them before the pool runs dry */
}

static void end_launch(struct ct_gpu_call *c, CUresult r, const struct ct_pl_launch *pl)
{
    struct ct_gpu_pair *p = (struct ct_gpu_pair *)c;
    p->rec.family = CT_FAM_LAUNCH;
    p->rec.name_id = pl->name_id;
    p->rec.launch_kind = pl->kind;
    memcpy(p->rec.grid, pl->grid, sizeof p->rec.grid);
    memcpy(p->rec.block, pl->block, sizeof p->rec.block);
    finish(p, r);
}

static void end_copy(struct ct_gpu_call *c, CUresult r, const struct ct_pl_copy *pl)
{
    struct ct_gpu_pair *p = (struct ct_gpu_pair *)c;
    p->rec.family = CT_FAM_COPY;
    p->rec.bytes = pl->bytes;
    p->rec.copy_flags = pl->flags;
    p->rec.src_kind = pl->src_kind;
    p->rec.dst_kind = pl->dst_kind;
    finish(p, r);
}

static int start(const char *cupti, char *why, size_t size)
{
    (void)cupti, (void)why, (void)size;
    return 0; /* the driver is looked for on the first timed call */
}

const struct ct_gpu_backend ct_gpu_events = {
    .name = "events",
    .in_stream = 1,
    .start = start,
    .begin = begin,
    .returned = returned,
    .end_launch = end_launch,
    .end_copy = end_copy,
    .drop = drop,
    .collect = ct_gpu_events_collect,
    .pending = ct_gpu_events_pending,
    .ctx_closing = ct_gpu_events_closing,
    .ctx_closed = ct_gpu_events_closed,
    .fork_child = ct_gpu_events_fork_child,
};
