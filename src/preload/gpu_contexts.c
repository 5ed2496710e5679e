/* GPU time when a context goes away, at fork and at exit.  Events of a destroyed context must never be
 * touched.  Before a call that may destroy one (cuCtxDestroy, cuDevicePrimaryCtxRelease and Reset,
 * cuGreenCtxDestroy) the pools of that context are read for what completed and marked closing, so that the
 * collector leaves them alone; after it they are retired if the context is gone, or opened again.  No lock
 * is held across the call itself: it may take seconds, and a signal handler may run meanwhile.  At exit,
 * the last collection runs in an atexit handler registered after the CUDA runtime's, so it runs before the
 * runtime tears the driver down. */
#include "config.h"

#include <stdlib.h>

#include "preload/mem_map.h"
#include "preload/gpu_pool.h"
#include "preload/hooks.h"
#include "preload/interpose.h"
#include "preload/trampoline.h"
#include "recorder/recorder.h"
#include "recorder/tsan.h"

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
    ct_tsan_acquire(pool); /* found in ct_gpu_pools without its lock: pool_of released it */
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

/* The primary context of dev, NULL when it is not active.  Asked before a release or reset, whose caller
 * holds a reference (or is about to destroy it anyway): the retain and release leave its count as it was. */
static CUcontext primary_of(CUdevice dev)
{
    unsigned flags;
    int active = 0;
    CUcontext p = NULL;

    if (ct_gpu_drv.primary_state(dev, &flags, &active) != CUDA_SUCCESS || !active ||
        ct_gpu_drv.primary_retain(&p, dev) != CUDA_SUCCESS)
        return NULL;
    ct_gpu_drv.primary_release(dev);
    return p;
}

/* Before a call that may destroy ctx: read what completed in its pools, then mark them closing. */
static void closing(CUcontext ctx)
{
    if (!ctx || !atomic_load(&ct_gpu_pools))
        return;
    pthread_mutex_lock(&ct_gpu_collect_mu);
    CUstreamCaptureMode was = ct_gpu_relax();
    for (struct ct_gpu_pool *pool = atomic_load(&ct_gpu_pools); pool; pool = pool->next)
        if (!atomic_load(&pool->dead) && pool->ctx == ctx) {
            ct_gpu_collect_pool(pool, 0);
            atomic_store(&pool->closing, 1);
        }
    ct_gpu_unrelax(was);
    pthread_mutex_unlock(&ct_gpu_collect_mu);
}

/* After it: retire ctx's pools if it is gone, else let the collector read them again. */
static void closed(CUcontext ctx, int gone)
{
    if (!ctx || !atomic_load(&ct_gpu_pools))
        return;
    pthread_mutex_lock(&ct_gpu_collect_mu);
    for (struct ct_gpu_pool *pool = atomic_load(&ct_gpu_pools); pool; pool = pool->next)
        if (!atomic_load(&pool->dead) && pool->ctx == ctx) {
            if (gone)
                ct_gpu_retire(pool);
            atomic_store(&pool->closing, 0);
        }
    pthread_mutex_unlock(&ct_gpu_collect_mu);
}

/* Whether dev's primary context is active: asked after a release, which destroys it (and its memory) only
 * when it was the last. */
static CUresult primary_state(CUdevice dev, unsigned *flags, int *active)
{
    PFN_cuDevicePrimaryCtxGetState_v7000 get = CT_DRIVER(cuDevicePrimaryCtxGetState);
    ct_guard++;
    CUresult r = get ? get(dev, flags, active) : CUDA_ERROR_NOT_INITIALIZED;
    ct_guard--;
    return r;
}

/* The context a primary release or reset is about: found by the pre-hook, used by the hook. */
static __thread CUcontext primary_closing __attribute__((tls_model("initial-exec")));

/* Before a primary release or reset, and after it (gone: the context went, and its memory with it). */
static void primary_pre(CUdevice dev)
{
    primary_closing = atomic_load(&ct_gpu_pools) ? primary_of(dev) : NULL;
    closing(primary_closing);
}
static void primary_post(int gone)
{
    closed(primary_closing, gone);
    primary_closing = NULL;
    if (gone)
        ct_mem_map_clear();
}

void ct_pre_cuCtxDestroy(CUcontext ctx) { closing(ctx); }
void ct_hook_cuCtxDestroy(CUresult r, CUcontext ctx)
{
    closed(ctx, r == CUDA_SUCCESS);
    if (r == CUDA_SUCCESS)
        ct_mem_map_clear();
}

void ct_pre_cuDevicePrimaryCtxReset(CUdevice dev) { primary_pre(dev); }
void ct_hook_cuDevicePrimaryCtxReset(CUresult r, CUdevice dev)
{
    (void)dev;
    primary_post(r == CUDA_SUCCESS);
}

void ct_pre_cuDevicePrimaryCtxRelease(CUdevice dev) { primary_pre(dev); }
void ct_hook_cuDevicePrimaryCtxRelease(CUresult r, CUdevice dev)
{
    unsigned flags;
    int active = 1;

    /* Only the last release destroys it (and its memory). */
    if (r == CUDA_SUCCESS && primary_state(dev, &flags, &active) != CUDA_SUCCESS)
        active = 0;
    primary_post(r == CUDA_SUCCESS && !active);
}

/* A green context is used through the context cuCtxFromGreenCtx gives; its pools are that context's. */
static __thread CUcontext green_closing __attribute__((tls_model("initial-exec")));

void ct_pre_cuGreenCtxDestroy(CUgreenCtx h)
{
    PFN_cuCtxFromGreenCtx_v12040 from_green = CT_DRIVER(cuCtxFromGreenCtx);
    green_closing = NULL;
    if (atomic_load(&ct_gpu_pools) && from_green && from_green(&green_closing, h) != CUDA_SUCCESS)
        green_closing = NULL;
    closing(green_closing);
}
void ct_hook_cuGreenCtxDestroy(CUresult r, CUgreenCtx h)
{
    (void)h;
    closed(green_closing, r == CUDA_SUCCESS);
    green_closing = NULL;
}

/* ---- fork and exit ---- */

/* Both locks are held across fork (in this order; nothing takes them the other way round), so that the child
 * never inherits one held by a thread it does not have. */
static void fork_prepare(void)
{
    pthread_mutex_lock(&ct_gpu_collect_mu);
    pthread_mutex_lock(&ct_gpu_pools_mu);
}

static void fork_parent(void)
{
    pthread_mutex_unlock(&ct_gpu_pools_mu);
    pthread_mutex_unlock(&ct_gpu_collect_mu);
}

/* The child has no GPU context of its parent's: it forgets the pools (their events are the parent's). */
static void fork_child(void)
{
    pthread_mutex_init(&ct_gpu_collect_mu, NULL);
    pthread_mutex_init(&ct_gpu_pools_mu, NULL);
    /* Dead, not freed: this thread's cache may still name one. */
    for (struct ct_gpu_pool *pool = atomic_load(&ct_gpu_pools); pool; pool = pool->next)
        atomic_store(&pool->dead, 1);
    atomic_store(&ct_gpu_pools, NULL);
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
