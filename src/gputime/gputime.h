/* GPU time: how long each kernel, copy and set took on the device (doc/gpu-time.md).  The interposition
 * layer's face of it: a launch or copy trampoline asks ct_gpu_choose whether to time its call (per thread and
 * kind, sample.h), then ct_gpu_begin before the call and exactly one of ct_gpu_end_launch, ct_gpu_end_copy
 * or ct_gpu_drop after it; calls that may destroy a context are bracketed by ct_gpu_ctx_closing/closed.
 * Behind it one source at a time times the calls (backend.h): CUPTI's activity records where CUPTI can serve,
 * else timing events.  The recorder reads what completed through the collector the interposition layer
 * registers with it (recorder.h, struct ct_rec_client): ct_gpu_collect. */
#ifndef CT_GPUTIME_GPUTIME_H
#define CT_GPUTIME_GPUTIME_H

#include "cuda/api.h"

#include <stdatomic.h>
#include <stdint.h>

#include "cudatrace/format.h"
#include "gputime/backend.h"
#include "gputime/sample.h"

/* What the interposition layer lends GPU time (ct_gpu_attach, once, before anything is timed). */
struct ct_gpu_host {
    /* Fill in the driver functions GPU time uses; 0 when all the required ones were found.  Called on
     * first need, the caller's guard held. */
    int (*find_driver)(struct ct_gpu_driver *d);
    /* Once, at the first timed call (after the CUDA runtime's own start-up): the exit and fork handlers,
     * which run gputime.h's functions and the recorder's last collection inside the tracer's guard. */
    void (*install)(void);
    /* Does the driver function of exported symbol `name` make GPU work: a kernel launch, a copy or a set
     * (the variants GPU time times)?  CUPTI's correlation callback is enabled on those alone. */
    int (*makes_work)(const char *name);
    /* Is a capture range open (always, without CUDATRACE_CAPTURE)?  Timing starts outside one stopped. */
    int (*capturing)(void);
    /* Is the calling thread inside the tracer (its guard held: a driver call made now, by a signal handler
     * that interrupted the tracer, goes to the driver untraced)? */
    int (*in_tracer)(void);
};
void ct_gpu_attach(const struct ct_gpu_host *host);

/* The recorder's start (through struct ct_rec_client): CUDATRACE_GPU_TIME (enum ct_gpu_request), 1 in
 * sample_n, CUDATRACE_CUPTI ("" none).  Picks the source (ct_gpu_set_source) and returns the mode in effect
 * (enum ct_gpu_time_mode: off when nothing can time calls). */
int ct_gpu_timing_start(int request, unsigned sample_n, const char *cupti);
/* The program makes its first CUPTI call (`fn`; the interposition layer's wrappers, inside the guard):
 * CUPTI is left to it, and GPU time steps back to events (or off, where only CUPTI was asked for). */
void ct_gpu_program_uses_cupti(const char *fn);
/* The drain holder's collection (struct ct_rec_client): every source's completed work, as spans queued with
 * the recorder; with `final` the last (exit), after which nothing is touched. */
void ct_gpu_collect(int final);
/* The exit handler, before the recorder's last collection: calls from now on are counted not completed, not
 * timed (nothing would read them). */
void ct_gpu_last_collection(void);
/* Calls timed whose spans no collection has made yet (struct ct_rec_client; async-signal-safe). */
uint64_t ct_gpu_pending(void);

/* The source timing new calls (gputime.c switches it when CUPTI cannot serve, or the program takes CUPTI). */
extern const struct ct_gpu_backend *_Atomic ct_gpu_current;

/* cuLaunchKernelEx: time it unless it is a programmatic dependent launch and the source puts work of its own
 * in the stream (events), whose overlap with the kernel before it an event between them would take away.
 * CUPTI's records take nothing away: under it every launch is timed.  (A hand-over to events between this
 * test and ct_gpu_begin gives one such launch an event; it still runs correctly.) */
static inline int ct_gpu_timeable(const CUlaunchConfig *config)
{
    const struct ct_gpu_backend *b = atomic_load_explicit(&ct_gpu_current, memory_order_acquire);
    if (b && !b->in_stream)
        return 1;
    for (unsigned i = 0; config && config->attrs && i < config->numAttrs; i++) {
        const CUlaunchAttribute *a = &config->attrs[i];
        if ((a->id == CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION &&
             a->value.programmaticStreamSerializationAllowed) ||
            a->id == CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT)
            return 0;
    }
    return 1;
}

/* A per-thread variant's stream: its 0 is the calling thread's default stream. */
static inline CUstream ct_gpu_pt_stream(CUstream s) { return s ? s : CU_STREAM_PER_THREAD; }

/* Inside the trampoline's busy window (the guard held).  ct_gpu_begin: NULL when the call is not timed after
 * all (no context, the stream is being captured, the source refused: counted in ct_gpu_counts).  Then
 * ct_gpu_returned right after the call, and exactly one of ct_gpu_end_* once the call returned r (not timed
 * unless r is CUDA_SUCCESS and the call's record was kept), with the payload its span repeats, or ct_gpu_drop
 * when there is no record. */
static inline struct ct_gpu_call *ct_gpu_begin(uint16_t api_id, CUstream stream, int pick)
{
    const struct ct_gpu_backend *b = atomic_load_explicit(&ct_gpu_current, memory_order_acquire);
    return b ? b->begin(api_id, stream, pick) : NULL;
}
static inline void ct_gpu_returned(struct ct_gpu_call *c) { c->backend->returned(c); }
static inline void ct_gpu_end_launch(struct ct_gpu_call *c, CUresult r, const struct ct_pl_launch *pl)
{
    c->backend->end_launch(c, r, pl);
}
static inline void ct_gpu_end_copy(struct ct_gpu_call *c, CUresult r, const struct ct_pl_copy *pl)
{
    c->backend->end_copy(c, r, pl);
}
static inline void ct_gpu_drop(struct ct_gpu_call *c) { c->backend->drop(c); }

/* Has anything been timed (ct_gpu_first_use ran)?  Before that there is nothing to collect or forget. */
int ct_gpu_used(void);
/* Before and after a call that may destroy ctx (cuCtxDestroy, a primary context's last release or reset, a
 * green context's destroy); gone: it was destroyed. */
void ct_gpu_ctx_closing(CUcontext ctx);
void ct_gpu_ctx_closed(CUcontext ctx, int gone);
/* A capture range opened or closed (the interposition layer's capture hooks, inside the guard). */
void ct_gpu_capture(int on);
/* fork, in the child (the interposition layer's pthread_atfork handler).  No lock is held across fork: the
 * child keeps nothing of its parent's GPU work, and makes every lock anew. */
void ct_gpu_fork_child(void);

#endif
