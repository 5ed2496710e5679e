/* The state GPU time keeps per context (gpu_time.c makes and fills it, gpu_collect.c reads it back,
 * gpu_contexts.c retires it): a pool of event pairs, the pairs waiting to be read, and the anchors. */
#ifndef CT_PRELOAD_GPU_POOL_H
#define CT_PRELOAD_GPU_POOL_H

#include "preload/cuda_api.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "cudatrace/format.h"

#define CT_GPU_POOL_MAX 16384u /* event pairs per context: what a launch-bound loop queues in one drain and more */
#define CT_GPU_NUDGE 1024u     /* pending pairs that wake the writer before its interval */

struct ct_gpu_pool;

struct ct_gpu_pair {
    struct ct_gpu_pair *next;
    struct ct_gpu_pool *pool;
    CUevent start, end;
    CUstream stream;
    uint64_t seq_mark;     /* the thread's next sequence number before the call: did its record get one? */
    uint64_t returned_ns;  /* CLOCK_MONOTONIC right after the call returned (ct_gpu_returned) */
    size_t order;          /* the collector's: place in the waiting list */
    int done;              /* the collector's: its end event completed */
    struct ct_rec_gpu rec; /* the span to be, but for its times */
};

/* An event recorded on the pool's own stream at a known host time: spans are placed relative to it. */
struct ct_gpu_anchor {
    CUevent ev;
    uint64_t ns;     /* CLOCK_MONOTONIC when the GPU stamped it (the middle of the window) */
    uint64_t window; /* ns from the record call to seeing it complete: ns is within half of it */
    int state;       /* 0 none usable, 1 stamped (gpu_collect.c) */
};

struct ct_gpu_pool {
    struct ct_gpu_pool *next; /* pools are never freed: a thread may still hold one in its cache */
    CUcontext ctx;
    int device;
    _Atomic int dead;         /* the context was destroyed: its events are never touched again */
    _Atomic int closing;      /* a call that may destroy the context is running: the collector waits */
    pthread_mutex_t mu;       /* free and pend */
    struct ct_gpu_pair *free;
    struct ct_gpu_pair *pend, **pend_tail;
    unsigned pairs, npend;
    /* The collector's, under ct_gpu_collect_mu: */
    struct ct_gpu_pair *wait, **wait_tail;
    CUstream own_stream;
    int broken;               /* the pool's own stream or anchors could not be made: its spans cannot be placed */
    struct ct_gpu_anchor anchor[2];
    int newest;
    uint64_t tried_ns;        /* when an anchor was last recorded */
};

/* The driver functions GPU time uses (found once, on the first timed call). */
struct ct_gpu_driver {
    PFN_cuCtxGetCurrent_v4000 ctx_get_current;
    PFN_cuStreamGetCtx_v9020 stream_ctx; /* optional (the simulated driver has none) */
    PFN_cuCtxGetDevice_v2000 ctx_get_device;
    PFN_cuCtxPushCurrent_v4000 ctx_push;
    PFN_cuCtxPopCurrent_v4000 ctx_pop;
    PFN_cuDevicePrimaryCtxGetState_v7000 primary_state;
    PFN_cuDevicePrimaryCtxRetain_v7000 primary_retain;
    PFN_cuDevicePrimaryCtxRelease_v11000 primary_release;
    PFN_cuStreamIsCapturing_v10000 is_capturing;
    PFN_cuStreamCreate_v2000 stream_create;
    PFN_cuEventCreate_v2000 event_create;
    PFN_cuEventRecord_v2000 event_record;
    PFN_cuEventDestroy_v4000 event_destroy;
    PFN_cuEventQuery_v2000 event_query;
    PFN_cuEventElapsedTime_v2000 elapsed;
    PFN_cuThreadExchangeStreamCaptureMode_v10010 exchange_mode;
};
extern struct ct_gpu_driver ct_gpu_drv;

/* Every pool, newest first (prepended under ct_gpu_pools_mu, read without it). */
extern struct ct_gpu_pool *_Atomic ct_gpu_pools;
extern pthread_mutex_t ct_gpu_pools_mu;
/* Held while events are read, and while pools are marked closing, retired or opened again around a call
 * that may destroy their context: so that no event of a destroyed context is ever read. */
extern pthread_mutex_t ct_gpu_collect_mu;

/* Make this thread's capture interaction relaxed for the tracer's own calls, and put it back: the tracer's
 * calls must not invalidate a program's global-mode capture (gpu_time.c). */
CUstreamCaptureMode ct_gpu_relax(void);
void ct_gpu_unrelax(CUstreamCaptureMode was);

/* Give pairs back to their pool (gpu_time.c). */
void ct_gpu_release(struct ct_gpu_pool *pool, struct ct_gpu_pair *list);

/* gpu_collect.c: read one pool's completed pairs into spans (ct_gpu_collect_mu held); with `final`, what
 * has not completed is counted not completed. */
void ct_gpu_collect_pool(struct ct_gpu_pool *pool, int final);
/* gpu_contexts.c: retire a pool whose context is gone: its pairs counted not completed, its events never
 * touched again (ct_gpu_collect_mu held). */
void ct_gpu_retire(struct ct_gpu_pool *pool);
/* gpu_contexts.c: once, with the first pool: the exit and fork handlers. */
void ct_gpu_install(void);

#endif
