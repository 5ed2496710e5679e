/* GPU time: reading the events back, on the drain holder's thread (the writer, or the exit handler), never
 * waiting for one.  A span's duration is its two events' elapsed time; its start is placed on the trace's
 * clock relative to an anchor, an event the pool records on a stream of its own at a known host time.
 * Anchors are renewed every CT_GPU_ANCHOR_NS, so that the GPU's clock drifting from the host's, and the
 * float milliseconds the driver gives, stay far below a microsecond (doc/gpu-time.md has the measurement). */
#include "config.h"

#include <math.h>
#include <stdatomic.h>

#include "preload/gpu_pool.h"
#include "recorder/clock.h"
#include "recorder/gpu.h"

#define CT_GPU_ANCHOR_NS 100000000ull   /* 100 ms */
#define CT_GPU_ANCHOR_WAIT_NS 1000000ull /* 1 ms spent at most waiting for one anchor */
#define CT_GPU_ANCHOR_TRIES 3
#define CT_GPU_ANCHOR_GOOD_NS 20000ull  /* a window this narrow places spans within 10 us */
#define CT_GPU_BLOCKED 16             /* streams remembered as having a pair not completed, per pass */

enum { ANCHOR_NONE, ANCHOR_DONE };

/* The pool's own stream and anchor events, made in its context the first time they are needed. */
static int make_own(struct ct_gpu_pool *pool)
{
    CUcontext popped;

    if (pool->own_stream || pool->broken)
        return !pool->broken;
    pool->broken = 1;
    if (ct_gpu_drv.ctx_push(pool->ctx) != CUDA_SUCCESS)
        return 0;
    if (ct_gpu_drv.stream_create(&pool->own_stream, CU_STREAM_NON_BLOCKING) == CUDA_SUCCESS &&
        ct_gpu_drv.event_create(&pool->anchor[0].ev, CU_EVENT_DEFAULT) == CUDA_SUCCESS &&
        ct_gpu_drv.event_create(&pool->anchor[1].ev, CU_EVENT_DEFAULT) == CUDA_SUCCESS)
        pool->broken = 0;
    ct_gpu_drv.ctx_pop(&popped);
    return !pool->broken;
}

/* Record anchor b now and wait for it (it is alone on an idle stream of the pool's own): the GPU stamped
 * it between the record call's start and the moment it was seen complete, so that window's middle is its
 * host time, within half the window.  0 when it did not complete within CT_GPU_ANCHOR_WAIT_NS; the GPU then
 * takes long to reach a new stream (it is busy with the program's work), and a later drain tries again. */
static int stamp(struct ct_gpu_pool *pool, struct ct_gpu_anchor *b)
{
    const uint64_t t0 = ct_now_ns();
    uint64_t t;

    if (ct_gpu_drv.event_record(b->ev, pool->own_stream) != CUDA_SUCCESS)
        return 0;
    do {
        CUresult q = ct_gpu_drv.event_query(b->ev);
        t = ct_now_ns();
        if (q == CUDA_SUCCESS) {
            b->ns = t0 + (t - t0) / 2;
            b->window = t - t0;
            b->state = ANCHOR_DONE;
            return 1;
        }
        if (q != CUDA_ERROR_NOT_READY)
            break;
    } while (t - t0 < CT_GPU_ANCHOR_WAIT_NS);
    b->state = ANCHOR_NONE; /* recorded, not usable: recording it again later is allowed */
    return 0;
}

/* The anchor to place spans by, NULL while there is none.  Renewed when the newest is older than
 * CT_GPU_ANCHOR_NS, in a few tries until one has a window of CT_GPU_ANCHOR_GOOD_NS or less; a new one
 * replaces the old one unless its window is much wider. */
static const struct ct_gpu_anchor *anchor(struct ct_gpu_pool *pool)
{
    struct ct_gpu_anchor *a = &pool->anchor[pool->newest], *b = &pool->anchor[!pool->newest];
    int got = 0;

    if (!make_own(pool))
        return NULL;
    if (a->state == ANCHOR_DONE && ct_now_ns() - a->ns <= CT_GPU_ANCHOR_NS)
        return a;
    for (int i = 0; i < CT_GPU_ANCHOR_TRIES && !(got && b->window <= CT_GPU_ANCHOR_GOOD_NS); i++)
        got = stamp(pool, b);
    if (got && (a->state != ANCHOR_DONE || b->window <= 4 * a->window + CT_GPU_ANCHOR_GOOD_NS)) {
        pool->newest = !pool->newest;
        return b;
    }
    return a->state == ANCHOR_DONE ? a : NULL;
}

/* The span of a completed pair, on the trace's clock; 0 when the driver gives no time for it. */
static int place(const struct ct_gpu_anchor *a, struct ct_gpu_pair *p)
{
    float since = 0, dur = 0;

    if (ct_gpu_drv.elapsed(&since, a->ev, p->start) != CUDA_SUCCESS ||
        ct_gpu_drv.elapsed(&dur, p->start, p->end) != CUDA_SUCCESS || !isfinite(since) || !isfinite(dur) ||
        dur < 0)
        return 0;
    const double start = (double)a->ns + (double)since * 1e6;
    if (start < 0)
        return 0;
    p->rec.start_ns = (uint64_t)(start + 0.5);
    p->rec.end_ns = p->rec.start_ns + (uint64_t)((double)dur * 1e6 + 0.5);
    return 1;
}

static int blocked(CUstream *list, int n, CUstream s)
{
    for (int i = 0; i < n; i++)
        if (list[i] == s)
            return 1;
    return 0;
}

void ct_gpu_collect_pool(struct ct_gpu_pool *pool, int final)
{
    struct ct_gpu_pair *done = NULL, **keep, *p, *next;
    CUstream stuck[CT_GPU_BLOCKED];
    int nstuck = 0;

    pthread_mutex_lock(&pool->mu);
    if (pool->pend) {
        *pool->wait_tail = pool->pend;
        pool->wait_tail = pool->pend_tail;
        pool->pend = NULL;
        pool->pend_tail = &pool->pend;
        pool->npend = 0;
    }
    pthread_mutex_unlock(&pool->mu);
    if (!pool->wait)
        return;
    const struct ct_gpu_anchor *a = anchor(pool);
    keep = &pool->wait;
    for (p = pool->wait; p; p = next) {
        next = p->next;
        /* A stream's work completes in order: after one pair of it that has not, the later ones have not. */
        CUresult q = !final && blocked(stuck, nstuck, p->stream) ? CUDA_ERROR_NOT_READY : ct_gpu_drv.event_query(p->end);
        if (q == CUDA_ERROR_NOT_READY || (q == CUDA_SUCCESS && !a)) {
            if (q == CUDA_ERROR_NOT_READY && nstuck < CT_GPU_BLOCKED && !blocked(stuck, nstuck, p->stream))
                stuck[nstuck++] = p->stream;
            if (!final) {
                *keep = p;
                keep = &p->next;
                continue;
            }
            atomic_fetch_add(&ct_gpu_counts.not_completed, 1);
        } else if (q == CUDA_SUCCESS && place(a, p)) {
            ct_gpu_queue(&p->rec);
        } else {
            atomic_fetch_add(&ct_gpu_counts.untimed_refused, 1);
        }
        p->next = done;
        done = p;
    }
    *keep = NULL;
    pool->wait_tail = keep;
    ct_gpu_release(pool, done);
}

void ct_gpu_collect(int final)
{
    if (!atomic_load(&ct_gpu_pools))
        return;
    pthread_mutex_lock(&ct_gpu_collect_mu);
    CUstreamCaptureMode was = ct_gpu_relax();
    for (struct ct_gpu_pool *pool = atomic_load(&ct_gpu_pools); pool; pool = pool->next)
        if (!atomic_load(&pool->dead))
            ct_gpu_collect_pool(pool, final);
    ct_gpu_unrelax(was);
    pthread_mutex_unlock(&ct_gpu_collect_mu);
}
