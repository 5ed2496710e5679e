/* GPU time from timing events (CUDATRACE_GPU_TIME=events or sample, and where CUPTI cannot serve): the
 * state kept per context (events.c makes and fills it, events_collect.c reads it back, events_contexts.c
 * retires it): a pool of event pairs, the pairs waiting to be read, and the anchors.  events.c times a call
 * with two events recorded on its stream just before and just after it; the writer's thread reads them back
 * (never waiting), places them on the trace's clock through anchor events and queues their spans. */
#ifndef CT_GPUTIME_EVENTS_H
#define CT_GPUTIME_EVENTS_H

#include "cuda/api.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "cudatrace/format.h"
#include "gputime/backend.h"

#define CT_GPU_POOL_MAX 16384u /* event pairs per context: what a launch-bound loop queues in one drain and more */
#define CT_GPU_NUDGE 1024u     /* pending pairs that wake the writer before its interval */

struct ct_gpu_pool;

struct ct_gpu_pair {
    struct ct_gpu_call call; /* first: the pair is the call's record (backend.h) */
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
    int state;       /* 0 none usable, 1 stamped (events_collect.c) */
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
    _Atomic uint64_t out;     /* pairs filed (pend) and not yet made spans or counted */
    /* The collector's, under ct_gpu_collect_mu: */
    struct ct_gpu_pair *wait, **wait_tail;
    CUstream own_stream;
    int broken;               /* the pool's own stream or anchors could not be made: its spans cannot be placed */
    struct ct_gpu_anchor anchor[2];
    int newest;
    uint64_t tried_ns;        /* when an anchor was last recorded */
};

/* This backend (events.c). */
extern const struct ct_gpu_backend ct_gpu_events;

/* The driver's functions (backend.h), valid once ct_gpu_begin found them. */
extern const struct ct_gpu_driver *ct_gpu_d;

/* Every pool, newest first (prepended under ct_gpu_pools_mu, read without it). */
extern struct ct_gpu_pool *_Atomic ct_gpu_pools;
extern pthread_mutex_t ct_gpu_pools_mu;
/* Held while events are read, and while pools are marked closing, retired or opened again around a call
 * that may destroy their context: so that no event of a destroyed context is ever read. */
extern pthread_mutex_t ct_gpu_collect_mu;

/* Make this thread's capture interaction relaxed for the tracer's own calls, and put it back: the tracer's
 * calls must not invalidate a program's global-mode capture (events_pool.c). */
CUstreamCaptureMode ct_gpu_relax(void);
void ct_gpu_unrelax(CUstreamCaptureMode was);

/* Give pairs back to their pool (events_pool.c). */
void ct_gpu_release(struct ct_gpu_pool *pool, struct ct_gpu_pair *list);

/* events_collect.c: read one pool's completed pairs into spans (ct_gpu_collect_mu held); with `final`, what
 * has not completed is counted not completed. */
void ct_gpu_collect_pool(struct ct_gpu_pool *pool, int final);
/* events_collect.c: the backend's collect and pending (backend.h). */
void ct_gpu_events_collect(int final);
uint64_t ct_gpu_events_pending(void);
/* events_contexts.c: retire a pool whose context is gone: its pairs counted not completed, its events never
 * touched again (ct_gpu_collect_mu held). */
void ct_gpu_retire(struct ct_gpu_pool *pool);
/* events_contexts.c: the backend's context and fork functions (backend.h). */
void ct_gpu_events_closing(CUcontext ctx);
void ct_gpu_events_closed(CUcontext ctx, int gone);
void ct_gpu_events_fork_child(void);

#endif
