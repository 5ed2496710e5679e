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

#define CT_GPU_ANCHOR_NS 100000000ull /* 100 ms */
#define CT_GPU_BLOCKED 16             /* streams remembered as having a pair not completed, per pass */

enum { ANCHOR_NONE, ANCHOR_RECORDED, ANCHOR_DONE };

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

/* A completed anchor to place spans by (the newest), NULL while there is none.  Renews the anchor when the
 * newest completed one is older than CT_GPU_ANCHOR_NS. */
static const struct ct_gpu_anchor *anchor(struct ct_gpu_pool *pool)
{
    struct ct_gpu_anchor *a = &pool->anchor[pool->newest], *b = &pool->anchor[!pool->newest];

    if (!make_own(pool))
        return NULL;
    if (a->state == ANCHOR_RECORDED && ct_gpu_drv.event_query(a->ev) == CUDA_SUCCESS)
        a->state = ANCHOR_DONE;
    if (a->state == ANCHOR_NONE || (a->state == ANCHOR_DONE && ct_now_ns() - a->ns > CT_GPU_ANCHOR_NS)) {
        /* Stamped after the record returned: the GPU takes the command from its queue just after. */
        if (ct_gpu_drv.event_record(b->ev, pool->own_stream) == CUDA_SUCCESS) {
            b->ns = ct_now_ns();
            b->state = ANCHOR_RECORDED;
            pool->newest = !pool->newest;
            /* On an idle stream of its own it completes within microseconds: look a few times. */
            for (int i = 0; i < 100 && b->state != ANCHOR_DONE; i++)
                if (ct_gpu_drv.event_query(b->ev) == CUDA_SUCCESS)
                    b->state = ANCHOR_DONE;
            if (b->state == ANCHOR_DONE)
                return b;
        }
    }
    return a->state == ANCHOR_DONE ? a : b->state == ANCHOR_DONE ? b : NULL;
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
