/* Events. A record stamps the event with the end of the work submitted before it on its stream (or the
 * record's time if the stream is idle); the event is complete once CLOCK_MONOTONIC reaches the stamp.
 * Recorded on a capturing stream, it becomes a graph node and is stamped when the graph runs.
 * With SIM_STRICT_HANDLES=1, destroyed events are never freed and any later use of one aborts, so a test
 * sees a caller (the tracer) that touched a dead event, even one destroyed with its context. */
#include "config.h"

#include "sim.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

static const void **destroyed; /* strict mode: every destroyed event's address (unique: never freed) */
static size_t ndestroyed, destroyed_cap;

static bool was_destroyed(const void *event)
{
    bool found = false;
    sim_lock();
    for (size_t i = 0; i < ndestroyed && !found; i++)
        found = destroyed[i] == event;
    sim_unlock();
    return found;
}

CUresult sim_event_check(CUevent event)
{
    if (sim_obj_live(event, SIM_EVENT))
        return CUDA_SUCCESS;
    if (event && sim_config()->strict_handles && was_destroyed(event)) {
        fputs("simdriver: use of destroyed event\n", stderr);
        abort();
    }
    return CUDA_ERROR_INVALID_HANDLE;
}

/* Called with the event unregistered. */
static void forget(CUevent e)
{
    if (!sim_config()->strict_handles) {
        free(e);
        return;
    }
    sim_lock();
    if (ndestroyed == destroyed_cap) {
        size_t cap = destroyed_cap ? 2 * destroyed_cap : 64;
        const void **grown = realloc(destroyed, cap * sizeof *grown);
        if (!grown) {
            sim_unlock();
            return; /* not remembered: a later use is INVALID_HANDLE instead of an abort */
        }
        destroyed = grown;
        destroyed_cap = cap;
    }
    destroyed[ndestroyed++] = e;
    sim_unlock();
}

void sim_event_release_ctx(CUcontext ctx)
{
    struct sim_obj *o;
    while ((o = sim_obj_take_owned(SIM_EVENT, ctx)))
        forget((CUevent)o);
}

/* The real cuEventCreate allocates with glibc's malloc, and glibc's fork waits on the allocator's lock: a
 * signal handler that interrupted it there and forked would hang.  So calls made while a signal could
 * interrupt them are counted apart (SIM_CALL_COUNTS, as cuEventCreate_signals_open), for a test to check
 * that the tracer makes its own with every signal blocked (src/gputime/events.c, take_pair; the pools' anchors
 * in events_collect.c, make_own). */
static void count_signals_open(void)
{
    static struct sim_counter open_ = {"cuEventCreate_signals_open", 0, NULL, 0};
    sigset_t cur;
    if (pthread_sigmask(SIG_BLOCK, NULL, &cur) != 0)
        return;
    for (int s = 1; s < 32; s++)
        if (s != SIGKILL && s != SIGSTOP && !sigismember(&cur, s)) {
            sim_count(&open_);
            return;
        }
}

CUresult cuEventCreate(CUevent *phEvent, unsigned int Flags)
{
    SIM_COUNT();
    count_signals_open();
    CUcontext ctx;
    CUresult r = sim_ctx_require(&ctx);
    if (r != CUDA_SUCCESS)
        return r;
    if (!phEvent || (Flags & ~(unsigned)(CU_EVENT_BLOCKING_SYNC | CU_EVENT_DISABLE_TIMING | CU_EVENT_INTERPROCESS)))
        return CUDA_ERROR_INVALID_VALUE;
    if ((Flags & CU_EVENT_INTERPROCESS) && !(Flags & CU_EVENT_DISABLE_TIMING))
        return CUDA_ERROR_INVALID_VALUE;
    if ((r = sim_capture_unsafe_call()) != CUDA_SUCCESS)
        return r;
    struct CUevent_st *e = calloc(1, sizeof *e);
    if (!e)
        return CUDA_ERROR_OUT_OF_MEMORY;
    e->ctx = ctx;
    e->flags = Flags;
    e->obj.owner = ctx;
    sim_obj_register(&e->obj, SIM_EVENT);
    *phEvent = e;
    return CUDA_SUCCESS;
}

static CUresult destroy_event(CUevent hEvent)
{
    SIM_REQUIRE_INIT();
    CUresult r = sim_event_check(hEvent);
    if (r != CUDA_SUCCESS)
        return r;
    if (!sim_obj_unregister(&hEvent->obj, SIM_EVENT))
        return CUDA_ERROR_INVALID_HANDLE;
    forget(hEvent);
    return CUDA_SUCCESS;
}

CUresult cuEventDestroy(CUevent hEvent)
{
    return destroy_event(hEvent);
}

CUresult cuEventDestroy_v2(CUevent hEvent)
{
    return destroy_event(hEvent);
}

/* The stream must belong to the event's context. */
static CUresult record(CUevent hEvent, CUstream hStream, unsigned int flags)
{
    SIM_REQUIRE_INIT();
    CUresult r = sim_event_check(hEvent);
    if (r != CUDA_SUCCESS)
        return r;
    if ((r = sim_stream_check(hStream)) != CUDA_SUCCESS)
        return r;
    if (flags & ~(unsigned)CU_EVENT_RECORD_EXTERNAL)
        return CUDA_ERROR_INVALID_VALUE;
    CUcontext ctx;
    sim_lock();
    sim_stream_queue(hStream, &ctx);
    bool same = ctx == hEvent->ctx;
    sim_unlock();
    if (!same)
        return CUDA_ERROR_INVALID_HANDLE;
    struct sim_work w = {.kind = SIM_WORK_EVENT, .u.event = hEvent};
    return sim_enqueue(hStream, &w, false);
}

CUresult cuEventRecord(CUevent hEvent, CUstream hStream)
{
    return record(hEvent, hStream, 0);
}

CUresult cuEventRecord_ptsz(CUevent hEvent, CUstream hStream)
{
    return record(hEvent, SIM_PTSZ(hStream), 0);
}

CUresult cuEventRecordWithFlags(CUevent hEvent, CUstream hStream, unsigned int flags)
{
    return record(hEvent, hStream, flags);
}

CUresult cuEventRecordWithFlags_ptsz(CUevent hEvent, CUstream hStream, unsigned int flags)
{
    return record(hEvent, SIM_PTSZ(hStream), flags);
}

/* When the event completes (0 if never recorded: complete already), or an error. A potentially unsafe call. */
static CUresult completion(CUevent e, uint64_t *ns)
{
    SIM_REQUIRE_INIT();
    CUresult r = sim_event_check(e);
    if (r != CUDA_SUCCESS || (r = sim_capture_unsafe_call()) != CUDA_SUCCESS)
        return r;
    sim_lock();
    *ns = e->recorded ? e->ns : 0;
    sim_unlock();
    return CUDA_SUCCESS;
}

CUresult cuEventQuery(CUevent hEvent)
{
    uint64_t ns;
    CUresult r = completion(hEvent, &ns);
    return r == CUDA_SUCCESS && sim_now_ns() < ns ? CUDA_ERROR_NOT_READY : r;
}

CUresult cuEventSynchronize(CUevent hEvent)
{
    uint64_t ns;
    CUresult r = completion(hEvent, &ns);
    if (r == CUDA_SUCCESS)
        sim_sleep_until(ns);
    return r;
}

/* INVALID_HANDLE for an event not recorded or without timing; NOT_READY until both are complete. */
static CUresult elapsed(float *pMilliseconds, CUevent hStart, CUevent hEnd)
{
    SIM_REQUIRE_INIT();
    if (!pMilliseconds)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r;
    if ((r = sim_event_check(hStart)) != CUDA_SUCCESS || (r = sim_event_check(hEnd)) != CUDA_SUCCESS)
        return r;
    uint64_t now = sim_now_ns();
    sim_lock();
    if (!hStart->recorded || !hEnd->recorded || ((hStart->flags | hEnd->flags) & CU_EVENT_DISABLE_TIMING))
        r = CUDA_ERROR_INVALID_HANDLE;
    else if (now < hStart->ns || now < hEnd->ns)
        r = CUDA_ERROR_NOT_READY;
    else
        *pMilliseconds = (float)((double)(int64_t)(hEnd->ns - hStart->ns) / 1e6);
    sim_unlock();
    return r;
}

CUresult cuEventElapsedTime(float *pMilliseconds, CUevent hStart, CUevent hEnd)
{
    return elapsed(pMilliseconds, hStart, hEnd);
}

CUresult cuEventElapsedTime_v2(float *pMilliseconds, CUevent hStart, CUevent hEnd)
{
    return elapsed(pMilliseconds, hStart, hEnd);
}
