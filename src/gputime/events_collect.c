/* GPU time from timing events (events.h): reading them back, on the drain holder's thread (the writer, or the exit handler), never
 * waiting for one.  A span's duration is its two events' elapsed time; its start is placed on the trace's
 * clock relative to an anchor, an event the pool records on a stream of its own at a known host time.  A new
 * anchor is tried every CT_GPU_ANCHOR_NS and taken when it is tighter than the old one has drifted
 * (doc/gpu-time.md has the measurement). */
#include "config.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "gputime/events.h"
#include "recorder/alloc.h"
#include "recorder/clock.h"
#include "recorder/gpu.h"
#include "recorder/tsan.h"

#define CT_GPU_ANCHOR_NS 100000000ull   /* 100 ms */
#define CT_GPU_ANCHOR_WAIT_NS 200000ull /* 0.2 ms spent at most waiting for one anchor */
#define CT_GPU_DRIFT_DIV 10000ull      /* a clock drift of at most 100 ppm (1 / 10000) against the host's */

enum { ANCHOR_NONE, ANCHOR_DONE };

/* The pool's own stream and anchor events, made in its context the first time they are needed.  The
 * collector may be the program's thread (a context closing, the exit handler), and the driver allocates
 * here: signals blocked, as in events.c's take_pair. */
static int make_own(struct ct_gpu_pool *pool)
{
    CUcontext popped;
    sigset_t old;

    if (pool->own_stream || pool->broken)
        return !pool->broken;
    pool->broken = 1;
    ct_signals_block(&old);
    if (ct_gpu_d->ctx_push(pool->ctx) == CUDA_SUCCESS) {
        if (ct_gpu_d->stream_create(&pool->own_stream, CU_STREAM_NON_BLOCKING) == CUDA_SUCCESS &&
            ct_gpu_d->event_create(&pool->anchor[0].ev, CU_EVENT_DEFAULT) == CUDA_SUCCESS &&
            ct_gpu_d->event_create(&pool->anchor[1].ev, CU_EVENT_DEFAULT) == CUDA_SUCCESS)
            pool->broken = 0;
        ct_gpu_d->ctx_pop(&popped);
    }
    ct_signals_restore(&old);
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

    if (ct_gpu_d->event_record(b->ev, pool->own_stream) != CUDA_SUCCESS)
        return 0;
    do {
        CUresult q = ct_gpu_d->event_query(b->ev);
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
 * CT_GPU_ANCHOR_NS, one try per CT_GPU_ANCHOR_NS at most (a try may wait CT_GPU_ANCHOR_WAIT_NS). */
static const struct ct_gpu_anchor *anchor(struct ct_gpu_pool *pool)
{
    struct ct_gpu_anchor *a = &pool->anchor[pool->newest], *b = &pool->anchor[!pool->newest];
    const uint64_t now = ct_now_ns();

    if (!make_own(pool))
        return NULL;
    if (a->state == ANCHOR_DONE && now - pool->tried_ns <= CT_GPU_ANCHOR_NS)
        return a;
    pool->tried_ns = now;
    /* The old anchor's error grows with its age (the host clock is slewed, the GPU's is not): a new one is
     * taken once its own half-window is smaller. */
    if (stamp(pool, b) && (a->state != ANCHOR_DONE ||
                           b->window / 2 <= a->window / 2 + (now - a->ns) / CT_GPU_DRIFT_DIV)) {
        pool->newest = !pool->newest;
        return b;
    }
    return a->state == ANCHOR_DONE ? a : NULL;
}

/* The span of a completed pair, on the trace's clock.  CUDA_ERROR_NOT_READY when it has not completed after
 * all (a pair another thread queued just before this one it was recorded after).
 * On an idle stream the start event is stamped before the call even began, and the device then waits for
 * the call to submit its work: for as long as the call takes on the host (microseconds for a launch,
 * milliseconds for one that loads its module first).  The work starts about when the call returns (the
 * device may start it a little before), so a start event stamped clearly earlier, with the end event after,
 * gives way to the call's return. */
static CUresult place(const struct ct_gpu_anchor *a, struct ct_gpu_pair *p)
{
    float since = 0, dur = 0;
    CUresult r;

    if ((r = ct_gpu_d->elapsed(&dur, p->start, p->end)) != CUDA_SUCCESS ||
        (r = ct_gpu_d->elapsed(&since, a->ev, p->start)) != CUDA_SUCCESS)
        return r;
    const double start = (double)a->ns + (double)since * 1e6;
    if (!isfinite(since) || !isfinite(dur) || dur < 0 || start < 0)
        return CUDA_ERROR_INVALID_VALUE;
    p->rec.start_ns = (uint64_t)(start + 0.5);
    p->rec.end_ns = p->rec.start_ns + (uint64_t)((double)dur * 1e6 + 0.5);
    if (p->returned_ns > p->rec.start_ns + a->window / 2 && p->returned_ns < p->rec.end_ns)
        p->rec.start_ns = p->returned_ns; /* later than the anchor's own uncertainty can explain */
    return CUDA_SUCCESS;
}

/* A stream's pairs in the order they were queued.  CU_STREAM_PER_THREAD is each thread's own stream. */
static int by_stream(const void *x, const void *y)
{
    const struct ct_gpu_pair *a = *(const struct ct_gpu_pair *const *)x, *b = *(const struct ct_gpu_pair *const *)y;
    if (a->stream != b->stream)
        return (uintptr_t)a->stream < (uintptr_t)b->stream ? -1 : 1;
    if (a->stream == CU_STREAM_PER_THREAD && a->rec.h.tid != b->rec.h.tid)
        return a->rec.h.tid < b->rec.h.tid ? -1 : 1;
    return a->order < b->order ? -1 : a->order > b->order;
}

static int same_stream(const struct ct_gpu_pair *a, const struct ct_gpu_pair *b)
{
    return a->stream == b->stream && (a->stream != CU_STREAM_PER_THREAD || a->rec.h.tid == b->rec.h.tid);
}

static int completed(const struct ct_gpu_pair *p)
{
    /* An error other than not-ready: taken as completed, and placing it fails and counts it. */
    return ct_gpu_d->event_query(p->end) != CUDA_ERROR_NOT_READY;
}

/* Mark the waiting pairs whose end event completed.  A stream's work completes in order, so of a stream's
 * pairs (in the order they were queued) the completed ones are the first few: found with a query of the
 * last and then by halving, not with a query per pair, which under a program launching at full speed costs
 * microseconds each (the driver's lock).  v[i]->order is i; by[] is scratch of n entries. */
static void mark_completed(struct ct_gpu_pair **v, size_t n, struct ct_gpu_pair **by)
{
    memcpy(by, v, n * sizeof *by);
    qsort(by, n, sizeof *by, by_stream);
    for (size_t first = 0, end; first < n; first = end) {
        for (end = first + 1; end < n && same_stream(by[end], by[first]); end++) {
        }
        /* Found below: completed by[first, lo), not completed by[lo, end). */
        size_t lo = first, hi = end - 1;
        if (completed(by[hi])) {
            lo = end;
        } else {
            while (lo < hi) { /* the first not completed lies in [lo, hi] */
                size_t mid = lo + (hi - lo) / 2;
                if (completed(by[mid]))
                    lo = mid + 1;
                else
                    hi = mid;
            }
        }
        for (size_t i = first; i < lo; i++)
            by[i]->done = 1;
    }
}

void ct_gpu_collect_pool(struct ct_gpu_pool *pool, int final)
{
    struct ct_gpu_pair *done = NULL, **keep, *p, **v;
    size_t n = 0;

    ct_tsan_acquire(pool); /* found in ct_gpu_pools without its lock: pool_of released it */
    pthread_mutex_lock(&pool->mu);
    if (pool->pend) {
        *pool->wait_tail = pool->pend;
        pool->wait_tail = pool->pend_tail;
        pool->pend = NULL;
        pool->pend_tail = &pool->pend;
        pool->npend = 0;
    }
    pthread_mutex_unlock(&pool->mu);
    for (p = pool->wait; p; p = p->next)
        n++;
    if (n == 0 || (v = ct_malloc(2 * n * sizeof *v)) == NULL)
        return; /* out of memory: they wait for the next drain */
    n = 0;
    for (p = pool->wait; p; p = p->next) {
        p->order = n;
        p->done = 0;
        v[n++] = p;
    }
    mark_completed(v, n, v + n);
    const struct ct_gpu_anchor *a = anchor(pool);
    const int hopeless = !a && pool->broken; /* no stream of its own: its spans can never be placed */
    keep = &pool->wait;
    for (size_t i = 0; i < n; i++) {
        CUresult r = CUDA_ERROR_NOT_READY;
        p = v[i];
        if (p->done && a && (r = place(a, p)) == CUDA_SUCCESS)
            ct_gpu_queue(&p->rec);
        else if (r != CUDA_ERROR_NOT_READY || hopeless)
            atomic_fetch_add(&ct_gpu_counts.untimed_refused, 1);
        else if (!final) { /* not completed yet, or no anchor yet */
            *keep = p;
            keep = &p->next;
            continue;
        } else
            atomic_fetch_add(&ct_gpu_counts.not_completed, 1);
        p->next = done;
        done = p;
        atomic_fetch_sub_explicit(&pool->out, 1, memory_order_relaxed);
    }
    *keep = NULL;
    pool->wait_tail = keep;
    ct_free(v);
    ct_gpu_release(pool, done);
}

uint64_t ct_gpu_events_pending(void)
{
    uint64_t n = 0;
    for (struct ct_gpu_pool *pool = atomic_load(&ct_gpu_pools); pool; pool = pool->next)
        if (!atomic_load(&pool->dead))
            n += atomic_load_explicit(&pool->out, memory_order_relaxed);
    return n;
}

void ct_gpu_events_collect(int final)
{
    if (!atomic_load(&ct_gpu_pools))
        return;
    pthread_mutex_lock(&ct_gpu_collect_mu);
    CUstreamCaptureMode was = ct_gpu_relax();
    for (struct ct_gpu_pool *pool = atomic_load(&ct_gpu_pools); pool; pool = pool->next)
        if (!atomic_load(&pool->dead) && !atomic_load(&pool->closing))
            ct_gpu_collect_pool(pool, final);
    ct_gpu_unrelax(was);
    pthread_mutex_unlock(&ct_gpu_collect_mu);
}
