/* What a source of GPU time implements (gputime.c calls it; doc/gpu-time.md): activity.c, CUPTI's activity
 * records, and events.c, timing events around each timed call.  Every function is called with the calling
 * thread inside the tracer (the interposition layer's guard held), never from a signal handler that
 * interrupted the tracer.  A handler that interrupts a timed call inside the driver may make timed calls of
 * its own: their begin and end come between the interrupted call's. */
#ifndef CT_GPUTIME_BACKEND_H
#define CT_GPUTIME_BACKEND_H

#include "cuda/api.h"

#include <stddef.h>
#include <stdint.h>

#include "cudatrace/format.h"

struct ct_gpu_backend;

/* A call being timed: each backend's record of one starts with this, naming the backend that took it. */
struct ct_gpu_call {
    const struct ct_gpu_backend *backend;
};

struct ct_gpu_backend {
    const char *name;
    /* It times a call with work of its own in the call's stream (events): a programmatic dependent launch,
     * whose overlap with the kernel before it that work would take away, is not timed (gputime.h,
     * ct_gpu_timeable). */
    int in_stream;
    /* Start (CUDATRACE_CUPTI: the libcupti to use, "" to look for one): 0 when it times calls from now on,
     * else why not (enum ct_gpu_why), said in one line into why[size] for the caller's warning. */
    int (*start)(const char *cupti, char *why, size_t size);
    /* A call about to be made on `stream`, chosen as `pick` (gputime/sample.h): the call's record, NULL when
     * it is not timed after all (counted). */
    struct ct_gpu_call *(*begin)(uint16_t api_id, CUstream stream, int pick);
    /* Right after the call returned. */
    void (*returned)(struct ct_gpu_call *c);
    /* The call returned r and its record was kept: the payload its span repeats.  Exactly one of these two,
     * or drop when there is no record. */
    void (*end_launch)(struct ct_gpu_call *c, CUresult r, const struct ct_pl_launch *pl);
    void (*end_copy)(struct ct_gpu_call *c, CUresult r, const struct ct_pl_copy *pl);
    void (*drop)(struct ct_gpu_call *c);
    /* The drain holder (the writer, the exit handler): queue the spans of what completed (recorder/gpu.h);
     * with `final` (exit, exec), what has not completed is counted not completed. */
    void (*collect)(int final);
    /* Calls timed whose spans no collection has made (async-signal-safe: read where collecting cannot be). */
    uint64_t (*pending)(void);
    /* Before and after a call that may destroy ctx (gone: it did): what completed is collected first, and
     * nothing of a destroyed context is touched again. */
    void (*ctx_closing)(CUcontext ctx);
    void (*ctx_closed)(CUcontext ctx, int gone);
    /* A capture range opened (on) or closed (CUDATRACE_CAPTURE): outside one, nothing is timed, and a source
     * whose cost does not hang on the calls it times (CUPTI's) stops timing.  NULL: nothing to do. */
    void (*capture)(int on);
    /* fork, in the child: it has none of its parent's work, and its locks are made anew (none is held
     * across fork: the fork may come from a signal handler that interrupted their holder). */
    void (*fork_child)(void);
};

/* The driver functions GPU time uses, found by the interposition layer (gputime.h, struct ct_gpu_host) the
 * first time they are needed; NULL where the driver lacks one. */
struct ct_gpu_driver {
    PFN_cuCtxGetCurrent_v4000 ctx_get_current;
    PFN_cuStreamGetCtx_v9020 stream_ctx; /* optional (the simulated driver has none) */
    PFN_cuCtxGetDevice_v2000 ctx_get_device;
    PFN_cuCtxPushCurrent_v4000 ctx_push;
    PFN_cuCtxPopCurrent_v4000 ctx_pop;
    PFN_cuStreamIsCapturing_v10000 is_capturing;
    PFN_cuStreamCreate_v2000 stream_create;
    PFN_cuEventCreate_v2000 event_create;
    PFN_cuEventRecord_v2000 event_record;
    PFN_cuEventDestroy_v4000 event_destroy;
    PFN_cuEventQuery_v2000 event_query;
    PFN_cuEventElapsedTime_v2000 elapsed;
    PFN_cuThreadExchangeStreamCaptureMode_v10010 exchange_mode;
};
/* The table, filled on first use; NULL when the driver cannot be found (gputime.c). */
const struct ct_gpu_driver *ct_gpu_drv(void);
/* A backend's first timed call: the interposition layer installs the exit and fork handlers (host.c). */
void ct_gpu_first_use(void);
/* Does the driver function of exported symbol `name` make GPU work (a kernel launch, a copy or a set)? */
int ct_gpu_makes_work(const char *name);
/* Is a capture range open (always, without CUDATRACE_CAPTURE)? */
int ct_gpu_capturing(void);
/* Is the calling thread inside the tracer (struct ct_gpu_host, in_tracer)? */
int ct_gpu_in_tracer(void);

#endif
