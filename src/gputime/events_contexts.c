/* GPU time from timing events (events.h) when a context goes away, and at fork.  Events of a destroyed
 * context must never be touched.  Before a call that may destroy one (gputime.h, ct_gpu_ctx_closing) the
 * pools of that context are read for what completed and marked closing, so that the collector leaves them
 * alone; after it they are retired if the context is gone, or opened again.  No lock is held across the call
 * itself: it may take seconds, and a signal handler may run meanwhile. */
#include "config.h"

#include <stdlib.h>

#include "gputime/events.h"
#include "recorder/alloc.h"
#include "recorder/gpu.h"
#include "recorder/tsan.h"

/* Free a list of pairs, their events gone with their context; returns how many there were. */
static uint64_t forget(struct ct_gpu_pair *p)
{
    uint64_t n = 0;

    for (struct ct_gpu_pair *next; p; p = next, n++) {
        next = p->next;
        ct_free(p);
    }
    return n;
}

void ct_gpu_retire(struct ct_gpu_pool *pool)
{
    ct_tsan_acquire(pool); /* found in ct_gpu_pools without its lock: pool_of released it */
    pthread_mutex_lock(&pool->mu);
    const uint64_t n = forget(pool->pend) + forget(pool->wait);
    forget(pool->free);
    pool->pend = pool->wait = pool->free = NULL;
    pool->pend_tail = &pool->pend;
    pool->wait_tail = &pool->wait;
    atomic_store_explicit(&pool->dead, 1, memory_order_release);
    atomic_store_explicit(&pool->out, 0, memory_order_relaxed);
    pthread_mutex_unlock(&pool->mu);
    atomic_fetch_add(&ct_gpu_counts.not_completed, n);
}

/* Before a call that may destroy ctx: read what completed in its pools, then mark them closing.  This runs
 * on the program's thread and may make a pool's anchor events and stream (the driver allocates there) and
 * holds the collector's lock: no signal handler runs on the thread meanwhile, as in events.c's take_pair. */
void ct_gpu_events_closing(CUcontext ctx)
{
    if (!ctx || !atomic_load(&ct_gpu_pools))
        return;
    sigset_t old;
    ct_signals_block(&old);
    pthread_mutex_lock(&ct_gpu_collect_mu);
    CUstreamCaptureMode was = ct_gpu_relax();
    for (struct ct_gpu_pool *pool = atomic_load(&ct_gpu_pools); pool; pool = pool->next)
        if (!atomic_load(&pool->dead) && pool->ctx == ctx) {
            ct_gpu_collect_pool(pool, 0);
            atomic_store(&pool->closing, 1);
        }
    ct_gpu_unrelax(was);
    pthread_mutex_unlock(&ct_gpu_collect_mu);
    ct_signals_restore(&old);
}

/* After it: retire ctx's pools if it is gone, else let the collector read them again. */
void ct_gpu_events_closed(CUcontext ctx, int gone)
{
    if (!ctx || !atomic_load(&ct_gpu_pools))
        return;
    sigset_t old;
    ct_signals_block(&old); /* the lock, and the pairs freed: as in ct_gpu_events_closing */
    pthread_mutex_lock(&ct_gpu_collect_mu);
    for (struct ct_gpu_pool *pool = atomic_load(&ct_gpu_pools); pool; pool = pool->next)
        if (!atomic_load(&pool->dead) && pool->ctx == ctx) {
            if (gone)
                ct_gpu_retire(pool);
            atomic_store(&pool->closing, 0);
        }
    pthread_mutex_unlock(&ct_gpu_collect_mu);
    ct_signals_restore(&old);
}

/* ---- fork ---- */

/* The child has no GPU context of its parent's: it forgets the pools (their events are the parent's).  A pool
 * is published whole (its next set before the list's head), so the list is whole whatever the parent's
 * threads were doing at fork. */
void ct_gpu_events_fork_child(void)
{
    pthread_mutex_init(&ct_gpu_collect_mu, NULL);
    pthread_mutex_init(&ct_gpu_pools_mu, NULL);
    /* Dead, not freed: this thread's cache may still name one. */
    for (struct ct_gpu_pool *pool = atomic_load(&ct_gpu_pools); pool; pool = pool->next)
        atomic_store(&pool->dead, 1);
    atomic_store(&ct_gpu_pools, NULL);
}
