/* GPU time's sources and the one in use (gputime.h): which one CUDATRACE_GPU_TIME gets, the step back from
 * CUPTI to events when the program takes CUPTI, and the entry points the interposition layer and the
 * recorder call, passed on to every source (one may still hold work after it stopped timing). */
#include "config.h"

#include <stdatomic.h>
#include <stddef.h>

#include "gputime/activity.h"
#include "gputime/events.h"
#include "gputime/gputime.h"
#include "recorder/gpu.h"
#include "recorder/warn.h"

/* Every source. */
static const struct ct_gpu_backend *const backends[] = {
#if HAVE_CUPTI
    &ct_gpu_activity,
#endif
    &ct_gpu_events,
};
#define NBACKENDS (sizeof backends / sizeof backends[0])

const struct ct_gpu_backend *_Atomic ct_gpu_current;
static int request; /* CUDATRACE_GPU_TIME */

/* Events from now on: which calls they time, as asked (auto: a sample of each kind). */
static int use_events(void)
{
    ct_gpu_events.start("", NULL, 0);
    atomic_store(&ct_gpu_current, &ct_gpu_events);
    return request == CT_GPU_REQ_AUTO || request == CT_GPU_REQ_SAMPLE ? CT_GPU_SAMPLE : CT_GPU_ALL;
}

int ct_gpu_timing_start(int req, unsigned sample_n, const char *cupti)
{
    int why = CT_GPU_WHY_CHOSEN;

    (void)sample_n; /* sample.h reads it from the recorder */
    request = req;
    if (req == CT_GPU_REQ_OFF)
        return CT_GPU_OFF;
    if (req == CT_GPU_REQ_AUTO || req == CT_GPU_REQ_ALL || req == CT_GPU_REQ_ACTIVITY) {
        char text[512] = "this build has no CUPTI headers";
#if HAVE_CUPTI
        if ((why = ct_gpu_activity.start(cupti, text, sizeof text)) == 0) {
            atomic_store(&ct_gpu_current, &ct_gpu_activity);
            if (!ct_gpu_capturing()) /* started by a call outside a capture range (a kernel's name) */
                ct_gpu_activity.capture(0);
            ct_gpu_set_source(CT_GPU_SRC_ACTIVITY, CT_GPU_WHY_CHOSEN, 0);
            return CT_GPU_ALL; /* CUPTI records every call's work anyway */
        }
#else
        (void)cupti;
        why = CT_GPU_WHY_NO_CUPTI;
#endif
        /* No CUPTI at all is the usual case where none is installed, and a forked child's is its parent's:
         * the trace says so, and only a user who asked for CUPTI (CUDATRACE_GPU_TIME, CUDATRACE_CUPTI) is
         * told.  CUPTI busy or refusing is always said. */
        const int said = why == CT_GPU_WHY_CUPTI_BUSY || why == CT_GPU_WHY_CUPTI_ERROR ||
                         (why == CT_GPU_WHY_NO_CUPTI && (req != CT_GPU_REQ_AUTO || (cupti && *cupti)));
        if (said && req == CT_GPU_REQ_ACTIVITY)
            ct_warn("GPU time: %s; no GPU time is recorded (CUDATRACE_GPU_TIME=activity)", text);
        else if (said)
            ct_warn("GPU time: %s; timing events instead", text);
        if (req == CT_GPU_REQ_ACTIVITY) {
            ct_gpu_set_source(CT_GPU_SRC_NONE, (unsigned)why, 0);
            return CT_GPU_OFF;
        }
    }
    const int mode = use_events();
    ct_gpu_set_source(CT_GPU_SRC_EVENTS, (unsigned)why, 0);
    return mode;
}

void ct_gpu_program_uses_cupti(const char *fn)
{
#if HAVE_CUPTI
    static _Atomic int said;
    if (atomic_load(&ct_gpu_current) != &ct_gpu_activity || !ct_gpu_activity_running())
        return;
    ct_gpu_activity_yield();
    if (request == CT_GPU_REQ_ACTIVITY) {
        atomic_store(&ct_gpu_current, NULL);
        ct_gpu_set_mode(CT_GPU_OFF);
        ct_gpu_set_source(CT_GPU_SRC_NONE, CT_GPU_WHY_PROGRAM, 1);
    } else {
        ct_gpu_set_mode(use_events());
        ct_gpu_set_source(CT_GPU_SRC_EVENTS, CT_GPU_WHY_PROGRAM, 1);
    }
    if (!atomic_exchange(&said, 1))
        ct_warn("GPU time: the program uses CUPTI (%s): CUPTI is left to it, and GPU time %s from now on", fn,
                request == CT_GPU_REQ_ACTIVITY ? "stops" : "comes from timing events");
#else
    (void)fn;
#endif
}

/* From the last collection (exit) on, nothing timed could be read: a call made then (an atexit handler that
 * runs after the tracer's, a destructor, another thread's) is not timed, and counted not completed. */
static struct ct_gpu_call *late_begin(uint16_t api_id, CUstream stream, int pick)
{
    (void)api_id, (void)stream, (void)pick;
    atomic_fetch_add(&ct_gpu_counts.not_completed, 1);
    return NULL;
}
static const struct ct_gpu_backend after_last = {.name = "after the last collection", .begin = late_begin};

void ct_gpu_last_collection(void) { atomic_store(&ct_gpu_current, &after_last); }

void ct_gpu_capture(int on)
{
    const struct ct_gpu_backend *b = atomic_load(&ct_gpu_current);
    if (b && b->capture)
        b->capture(on);
}

void ct_gpu_collect(int final)
{
    for (size_t i = 0; i < NBACKENDS; i++)
        backends[i]->collect(final);
}

uint64_t ct_gpu_pending(void)
{
    uint64_t n = 0;
    for (size_t i = 0; i < NBACKENDS; i++)
        n += backends[i]->pending();
    return n;
}

void ct_gpu_ctx_closing(CUcontext ctx)
{
    if (!ctx || !ct_gpu_used())
        return;
    for (size_t i = 0; i < NBACKENDS; i++)
        backends[i]->ctx_closing(ctx);
}

void ct_gpu_ctx_closed(CUcontext ctx, int gone)
{
    if (!ctx || !ct_gpu_used())
        return;
    for (size_t i = 0; i < NBACKENDS; i++)
        backends[i]->ctx_closed(ctx, gone);
}

void ct_gpu_fork_child(void)
{
    for (size_t i = NBACKENDS; i-- > 0;)
        backends[i]->fork_child();
}
