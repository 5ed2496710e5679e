/* GPU time when a context goes away, at fork and at exit.  Events of a destroyed context must never be
 * touched: the calls that destroy one (cuCtxDestroy, the last cuDevicePrimaryCtxRelease, a primary reset)
 * hold the collector's lock from before the call (completed pairs read first) to after it (the pool
 * retired if the context is gone).  At exit, the last collection runs in an atexit handler registered after
 * the CUDA runtime's, so it runs before the runtime tears the driver down. */
#include "config.h"

#include <stdlib.h>

#include "preload/gpu_pool.h"
#include "preload/hooks.h"
#include "preload/trampoline.h"
#include "recorder/recorder.h"

/* This thread holds ct_gpu_collect_mu across a context-destroying call (a pre-hook took it). */
static __thread int holding __attribute__((tls_model("initial-exec")));
static __thread CUstreamCaptureMode held_mode __attribute__((tls_model("initial-exec")));

/* Free a list of pairs, their events gone with their context; returns how many there were. */
static uint64_t forget(struct ct_gpu_pair *p)
{
    uint64_t n = 0;

    for (struct ct_gpu_pair *next; p; p = next, n++) {
        next = p->next;
        free(p);
    }
    return n;
}

void ct_gpu_retire(struct ct_gpu_pool *pool)
{
    pthread_mutex_lock(&pool->mu);
    const uint64_t n = forget(pool->pend) + forget(pool->wait);
    forget(pool->free);
    pool->pend = pool->wait = pool->free = NULL;
    pool->pend_tail = &pool->pend;
    pool->wait_tail = &pool->wait;
    atomic_store_explicit(&pool->dead, 1, memory_order_release);
    pthread_mutex_unlock(&pool->mu);
    atomic_fetch_add(&ct_gpu_counts.not_completed, n);
}

/* Before a call that may destroy contexts: hold the collector off, and read what completed in the pools
 * that match (ctx, or the primary context of dev when ctx is NULL). */
static void closing(CUcontext ctx, CUdevice dev)
{
    if (!atomic_load(&ct_gpu_pools))
        return;
    pthread_mutex_lock(&ct_gpu_collect_mu);
    holding = 1;
    held_mode = ct_gpu_relax();
    for (struct ct_gpu_pool *pool = atomic_load(&ct_gpu_pools); pool; pool = pool->next)
        if (!atomic_load(&pool->dead) && (ctx ? pool->ctx == ctx : pool->primary && pool->device == dev))
            ct_gpu_collect_pool(pool, 0);
}

/* After it: retire the matching pools whose context is gone, and let the collector go on. */
static void closed(CUcontext ctx, CUdevice dev, int gone)
{
    if (!holding)
        return;
    for (struct ct_gpu_pool *pool = atomic_load(&ct_gpu_pools); gone && pool; pool = pool->next)
        if (!atomic_load(&pool->dead) && (ctx ? pool->ctx == ctx : pool->primary && pool->device == dev))
            ct_gpu_retire(pool);
    ct_gpu_unrelax(held_mode);
    holding = 0;
    pthread_mutex_unlock(&ct_gpu_collect_mu);
}

void ct_pre_cuCtxDestroy(CUcontext ctx) { closing(ctx, -1); }
void ct_hook_cuCtxDestroy(CUresult r, CUcontext ctx) { closed(ctx, -1, r == CUDA_SUCCESS); }

void ct_pre_cuDevicePrimaryCtxReset(CUdevice dev) { closing(NULL, dev); }
void ct_hook_cuDevicePrimaryCtxReset(CUresult r, CUdevice dev) { closed(NULL, dev, r == CUDA_SUCCESS); }

void ct_pre_cuDevicePrimaryCtxRelease(CUdevice dev) { closing(NULL, dev); }
void ct_hook_cuDevicePrimaryCtxRelease(CUresult r, CUdevice dev)
{
    unsigned flags;
    int active = 1;

    /* Only the last release destroys it. */
    if (holding && r == CUDA_SUCCESS && ct_gpu_drv.primary_state(dev, &flags, &active) != CUDA_SUCCESS)
        active = 0;
    closed(NULL, dev, r == CUDA_SUCCESS && !active);
}

/* ---- fork and exit ---- */

static void fork_prepare(void)
{
    pthread_mutex_lock(&ct_gpu_collect_mu);
}

static void fork_parent(void)
{
    pthread_mutex_unlock(&ct_gpu_collect_mu);
}

/* The child has no GPU context of its parent's: it forgets the pools (their events are the parent's). */
static void fork_child(void)
{
    pthread_mutex_init(&ct_gpu_collect_mu, NULL);
    /* Dead, not freed: this thread's cache may still name one. */
    for (struct ct_gpu_pool *pool = atomic_load(&ct_gpu_pools); pool; pool = pool->next)
        atomic_store(&pool->dead, 1);
    atomic_store(&ct_gpu_pools, NULL);
    holding = 0;
}

static void at_exit(void)
{
    ct_guard++; /* the tracer's own driver calls from here on */
    ct_rec_gpu_finish();
    ct_guard--;
}

void ct_gpu_install(void)
{
    static int done;

    if (done)
        return;
    done = 1;
    pthread_atfork(fork_prepare, fork_parent, fork_child);
    atexit(at_exit);
}
