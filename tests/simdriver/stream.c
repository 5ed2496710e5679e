/* Streams, events and host callbacks. Work runs on the calling thread when it is submitted, so a stream is
 * always idle, an event is complete once recorded, and a host function has run when its launch returns. */
#include "config.h"

#include "sim.h"

#include <stdlib.h>

struct CUevent_st {
    struct sim_obj obj;
    CUcontext ctx;
    unsigned int flags;
    bool recorded;
    uint64_t ns;
};

CUresult sim_stream_check(CUstream stream)
{
    if (stream == NULL || stream == CU_STREAM_LEGACY || stream == CU_STREAM_PER_THREAD)
        return sim_ctx_require(NULL);
    SIM_REQUIRE_INIT();
    return sim_obj_live(stream, SIM_STREAM) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

static CUresult create_stream(CUstream *phStream, unsigned int flags, int priority)
{
    CUcontext ctx;
    CUresult r = sim_ctx_require(&ctx);
    if (r != CUDA_SUCCESS)
        return r;
    if (!phStream || (flags & ~(unsigned)CU_STREAM_NON_BLOCKING))
        return CUDA_ERROR_INVALID_VALUE;
    struct CUstream_st *s = calloc(1, sizeof *s);
    if (!s)
        return CUDA_ERROR_OUT_OF_MEMORY;
    s->ctx = ctx;
    s->flags = flags;
    s->priority = priority > 0 ? 0 : priority < -5 ? -5 : priority; /* clamped to the context's range */
    s->id = sim_next_id();
    sim_obj_register(&s->obj, SIM_STREAM);
    *phStream = s;
    return CUDA_SUCCESS;
}

CUresult cuStreamCreate(CUstream *phStream, unsigned int Flags)
{
    return create_stream(phStream, Flags, 0);
}

CUresult cuStreamCreateWithPriority(CUstream *phStream, unsigned int flags, int priority)
{
    return create_stream(phStream, flags, priority);
}

static CUresult destroy_stream(CUstream hStream)
{
    SIM_REQUIRE_INIT();
    if (!hStream || !sim_obj_unregister(&hStream->obj, SIM_STREAM))
        return CUDA_ERROR_INVALID_HANDLE;
    free(hStream);
    return CUDA_SUCCESS;
}

CUresult cuStreamDestroy(CUstream hStream)
{
    return destroy_stream(hStream);
}

CUresult cuStreamDestroy_v2(CUstream hStream)
{
    return destroy_stream(hStream);
}

CUresult cuStreamSynchronize(CUstream hStream)
{
    return sim_stream_check(hStream);
}

CUresult cuStreamSynchronize_ptsz(CUstream hStream)
{
    return sim_stream_check(hStream);
}

CUresult cuStreamQuery(CUstream hStream)
{
    return sim_stream_check(hStream);
}

CUresult cuStreamQuery_ptsz(CUstream hStream)
{
    return sim_stream_check(hStream);
}

static CUresult wait_event(CUstream hStream, CUevent hEvent, unsigned int flags)
{
    CUresult r = sim_stream_check(hStream);
    if (r != CUDA_SUCCESS)
        return r;
    if (!sim_obj_live(hEvent, SIM_EVENT))
        return CUDA_ERROR_INVALID_HANDLE;
    return flags & ~(unsigned)CU_EVENT_WAIT_EXTERNAL ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}

CUresult cuStreamWaitEvent(CUstream hStream, CUevent hEvent, unsigned int Flags)
{
    return wait_event(hStream, hEvent, Flags);
}

CUresult cuStreamWaitEvent_ptsz(CUstream hStream, CUevent hEvent, unsigned int Flags)
{
    return wait_event(hStream, hEvent, Flags);
}

/* The special streams (NULL, legacy, per-thread) are blocking streams of priority 0. */
static CUresult stream_property(CUstream hStream, unsigned int *flags, int *priority)
{
    CUresult r = sim_stream_check(hStream);
    if (r != CUDA_SUCCESS)
        return r;
    bool special = hStream == NULL || hStream == CU_STREAM_LEGACY || hStream == CU_STREAM_PER_THREAD;
    if (flags)
        *flags = special ? 0 : hStream->flags;
    if (priority)
        *priority = special ? 0 : hStream->priority;
    return CUDA_SUCCESS;
}

CUresult cuStreamGetFlags(CUstream hStream, unsigned int *flags)
{
    return flags ? stream_property(hStream, flags, NULL) : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuStreamGetFlags_ptsz(CUstream hStream, unsigned int *flags)
{
    return flags ? stream_property(hStream, flags, NULL) : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuStreamGetPriority(CUstream hStream, int *priority)
{
    return priority ? stream_property(hStream, NULL, priority) : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuStreamGetPriority_ptsz(CUstream hStream, int *priority)
{
    return priority ? stream_property(hStream, NULL, priority) : CUDA_ERROR_INVALID_VALUE;
}

static CUresult launch_host_func(CUstream hStream, CUhostFn fn, void *userData)
{
    CUresult r = sim_stream_check(hStream);
    if (r != CUDA_SUCCESS)
        return r;
    if (!fn)
        return CUDA_ERROR_INVALID_VALUE;
    fn(userData);
    return CUDA_SUCCESS;
}

CUresult cuLaunchHostFunc(CUstream hStream, CUhostFn fn, void *userData)
{
    return launch_host_func(hStream, fn, userData);
}

CUresult cuLaunchHostFunc_ptsz(CUstream hStream, CUhostFn fn, void *userData)
{
    return launch_host_func(hStream, fn, userData);
}

static CUresult add_callback(CUstream hStream, CUstreamCallback callback, void *userData, unsigned int flags)
{
    CUresult r = sim_stream_check(hStream);
    if (r != CUDA_SUCCESS)
        return r;
    if (!callback || flags != 0)
        return CUDA_ERROR_INVALID_VALUE;
    callback(hStream, CUDA_SUCCESS, userData);
    return CUDA_SUCCESS;
}

CUresult cuStreamAddCallback(CUstream hStream, CUstreamCallback callback, void *userData, unsigned int flags)
{
    return add_callback(hStream, callback, userData, flags);
}

CUresult cuStreamAddCallback_ptsz(CUstream hStream, CUstreamCallback callback, void *userData, unsigned int flags)
{
    return add_callback(hStream, callback, userData, flags);
}

/* ---- events ---- */

CUresult cuEventCreate(CUevent *phEvent, unsigned int Flags)
{
    CUcontext ctx;
    CUresult r = sim_ctx_require(&ctx);
    if (r != CUDA_SUCCESS)
        return r;
    if (!phEvent || (Flags & ~(unsigned)(CU_EVENT_BLOCKING_SYNC | CU_EVENT_DISABLE_TIMING | CU_EVENT_INTERPROCESS)))
        return CUDA_ERROR_INVALID_VALUE;
    if ((Flags & CU_EVENT_INTERPROCESS) && !(Flags & CU_EVENT_DISABLE_TIMING))
        return CUDA_ERROR_INVALID_VALUE;
    struct CUevent_st *e = calloc(1, sizeof *e);
    if (!e)
        return CUDA_ERROR_OUT_OF_MEMORY;
    e->ctx = ctx;
    e->flags = Flags;
    sim_obj_register(&e->obj, SIM_EVENT);
    *phEvent = e;
    return CUDA_SUCCESS;
}

static CUresult destroy_event(CUevent hEvent)
{
    SIM_REQUIRE_INIT();
    if (!hEvent || !sim_obj_unregister(&hEvent->obj, SIM_EVENT))
        return CUDA_ERROR_INVALID_HANDLE;
    free(hEvent);
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

static CUresult record(CUevent hEvent, CUstream hStream, unsigned int flags)
{
    SIM_REQUIRE_INIT();
    if (!sim_obj_live(hEvent, SIM_EVENT))
        return CUDA_ERROR_INVALID_HANDLE;
    CUresult r = sim_stream_check(hStream);
    if (r != CUDA_SUCCESS)
        return r;
    if (flags & ~(unsigned)CU_EVENT_RECORD_EXTERNAL)
        return CUDA_ERROR_INVALID_VALUE;
    sim_lock();
    hEvent->recorded = true;
    hEvent->ns = sim_now_ns();
    sim_unlock();
    return CUDA_SUCCESS;
}

CUresult cuEventRecord(CUevent hEvent, CUstream hStream)
{
    return record(hEvent, hStream, 0);
}

CUresult cuEventRecord_ptsz(CUevent hEvent, CUstream hStream)
{
    return record(hEvent, hStream, 0);
}

CUresult cuEventRecordWithFlags(CUevent hEvent, CUstream hStream, unsigned int flags)
{
    return record(hEvent, hStream, flags);
}

CUresult cuEventRecordWithFlags_ptsz(CUevent hEvent, CUstream hStream, unsigned int flags)
{
    return record(hEvent, hStream, flags);
}

CUresult cuEventQuery(CUevent hEvent)
{
    SIM_REQUIRE_INIT();
    return sim_obj_live(hEvent, SIM_EVENT) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

CUresult cuEventSynchronize(CUevent hEvent)
{
    SIM_REQUIRE_INIT();
    return sim_obj_live(hEvent, SIM_EVENT) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

static CUresult elapsed(float *pMilliseconds, CUevent hStart, CUevent hEnd)
{
    SIM_REQUIRE_INIT();
    if (!pMilliseconds)
        return CUDA_ERROR_INVALID_VALUE;
    if (!sim_obj_live(hStart, SIM_EVENT) || !sim_obj_live(hEnd, SIM_EVENT))
        return CUDA_ERROR_INVALID_HANDLE;
    CUresult r = CUDA_SUCCESS;
    sim_lock();
    if (!hStart->recorded || !hEnd->recorded ||
        ((hStart->flags | hEnd->flags) & CU_EVENT_DISABLE_TIMING))
        r = CUDA_ERROR_INVALID_HANDLE;
    else
        *pMilliseconds = (float)((double)((int64_t)(hEnd->ns - hStart->ns)) / 1e6);
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
