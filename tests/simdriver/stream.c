/* Streams and host callbacks. Work runs on the calling thread when it is submitted (a host function has run
 * when its launch returns); its timing goes on the stream's timeline (timeline.c), which synchronising and
 * querying a stream look at. */
#include "config.h"

#include "sim.h"

#include <stdlib.h>

static _Thread_local struct sim_queue per_thread; /* CU_STREAM_PER_THREAD of this thread */

CUresult sim_stream_check(CUstream stream)
{
    if (stream == NULL || stream == CU_STREAM_LEGACY || stream == CU_STREAM_PER_THREAD)
        return sim_ctx_require(NULL);
    SIM_REQUIRE_INIT();
    return sim_obj_live(stream, SIM_STREAM) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

bool sim_stream_is_legacy(CUstream stream)
{
    return stream == NULL || stream == CU_STREAM_LEGACY;
}

struct sim_queue *sim_stream_queue(CUstream stream, CUcontext *ctx)
{
    if (sim_stream_is_legacy(stream) || stream == CU_STREAM_PER_THREAD) {
        *ctx = sim_ctx_current();
        return stream == CU_STREAM_PER_THREAD ? &per_thread : &(*ctx)->legacy;
    }
    *ctx = stream->ctx;
    return &stream->queue;
}

bool sim_stream_blocking(CUstream stream)
{
    if (sim_stream_is_legacy(stream) || stream == CU_STREAM_PER_THREAD)
        return true;
    return !(stream->flags & CU_STREAM_NON_BLOCKING);
}

static CUresult create_stream(CUstream *phStream, unsigned int flags, int priority)
{
    CUcontext ctx;
    CUresult r = sim_ctx_require(&ctx);
    if (r != CUDA_SUCCESS)
        return r;
    if (!phStream || (flags & ~(unsigned)CU_STREAM_NON_BLOCKING))
        return CUDA_ERROR_INVALID_VALUE;
    if ((r = sim_capture_unsafe_call()) != CUDA_SUCCESS)
        return r;
    struct CUstream_st *s = calloc(1, sizeof *s);
    if (!s)
        return CUDA_ERROR_OUT_OF_MEMORY;
    s->ctx = ctx;
    s->flags = flags;
    s->priority = priority > 0 ? 0 : priority < -5 ? -5 : priority; /* clamped to the context's range */
    s->id = sim_next_id();
    s->obj.owner = ctx;
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
    sim_capture_end_on_destroy(&hStream->queue);
    free(hStream);
    return CUDA_SUCCESS;
}

void sim_stream_release_ctx(CUcontext ctx)
{
    struct sim_obj *o;
    while ((o = sim_obj_take_owned(SIM_STREAM, ctx))) {
        sim_capture_end_on_destroy(&((struct CUstream_st *)o)->queue);
        free(o);
    }
    sim_capture_end_on_destroy(&ctx->legacy);
}

CUresult cuStreamDestroy(CUstream hStream)
{
    return destroy_stream(hStream);
}

CUresult cuStreamDestroy_v2(CUstream hStream)
{
    return destroy_stream(hStream);
}

/* The end of the stream's work, or an error: the legacy stream during a capture, a capture that forbids the
 * call (both potentially unsafe), or the stream's own capture, which cannot be waited for. */
static CUresult stream_tail(CUstream stream, uint64_t *tail)
{
    CUresult r = sim_stream_check(stream);
    if (r != CUDA_SUCCESS)
        return r;
    CUcontext ctx;
    sim_lock();
    struct sim_queue *q = sim_stream_queue(stream, &ctx);
    if ((r = sim_capture_legacy_use(stream, ctx, true)) == CUDA_SUCCESS &&
        (r = sim_capture_unsafe_call()) == CUDA_SUCCESS && q->capture)
        r = sim_capture_refuse(q);
    *tail = q->tail;
    sim_unlock();
    return r;
}

static CUresult synchronize(CUstream stream)
{
    uint64_t tail;
    CUresult r = stream_tail(stream, &tail);
    if (r == CUDA_SUCCESS)
        sim_sleep_until(tail);
    return r;
}

static CUresult query(CUstream stream)
{
    uint64_t tail;
    CUresult r = stream_tail(stream, &tail);
    return r == CUDA_SUCCESS && sim_now_ns() < tail ? CUDA_ERROR_NOT_READY : r;
}

CUresult cuStreamSynchronize(CUstream hStream)
{
    return synchronize(hStream);
}

CUresult cuStreamSynchronize_ptsz(CUstream hStream)
{
    return synchronize(SIM_PTSZ(hStream));
}

CUresult cuStreamQuery(CUstream hStream)
{
    return query(hStream);
}

CUresult cuStreamQuery_ptsz(CUstream hStream)
{
    return query(SIM_PTSZ(hStream));
}

/* The stream's later work starts after the event's time. On a capturing stream it changes nothing (joins
 * between captures are not simulated). */
static CUresult wait_event(CUstream hStream, CUevent hEvent, unsigned int flags)
{
    CUresult r = sim_stream_check(hStream);
    if (r != CUDA_SUCCESS)
        return r;
    if ((r = sim_event_check(hEvent)) != CUDA_SUCCESS)
        return r;
    if (flags & ~(unsigned)CU_EVENT_WAIT_EXTERNAL)
        return CUDA_ERROR_INVALID_VALUE;
    CUcontext ctx;
    sim_lock();
    struct sim_queue *q = sim_stream_queue(hStream, &ctx);
    if ((r = sim_capture_legacy_use(hStream, ctx, true)) == CUDA_SUCCESS && !q->capture && hEvent->recorded &&
        q->tail < hEvent->ns)
        q->tail = hEvent->ns;
    sim_unlock();
    return r;
}

CUresult cuStreamWaitEvent(CUstream hStream, CUevent hEvent, unsigned int Flags)
{
    return wait_event(hStream, hEvent, Flags);
}

CUresult cuStreamWaitEvent_ptsz(CUstream hStream, CUevent hEvent, unsigned int Flags)
{
    return wait_event(SIM_PTSZ(hStream), hEvent, Flags);
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
    return flags ? stream_property(SIM_PTSZ(hStream), flags, NULL) : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuStreamGetPriority(CUstream hStream, int *priority)
{
    return priority ? stream_property(hStream, NULL, priority) : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuStreamGetPriority_ptsz(CUstream hStream, int *priority)
{
    return priority ? stream_property(SIM_PTSZ(hStream), NULL, priority) : CUDA_ERROR_INVALID_VALUE;
}

/* Runs at once (inside the launch), or becomes a host node of the stream's capture. */
static CUresult launch_host_func(CUstream hStream, CUhostFn fn, void *userData)
{
    CUresult r = sim_stream_check(hStream);
    if (r != CUDA_SUCCESS)
        return r;
    if (!fn)
        return CUDA_ERROR_INVALID_VALUE;
    struct sim_work w = {.kind = SIM_WORK_HOST, .u.host = {fn, userData}};
    return sim_enqueue(hStream, &w, false);
}

CUresult cuLaunchHostFunc(CUstream hStream, CUhostFn fn, void *userData)
{
    return launch_host_func(hStream, fn, userData);
}

CUresult cuLaunchHostFunc_ptsz(CUstream hStream, CUhostFn fn, void *userData)
{
    return launch_host_func(SIM_PTSZ(hStream), fn, userData);
}

static CUresult add_callback(CUstream hStream, CUstreamCallback callback, void *userData, unsigned int flags)
{
    CUresult r = sim_stream_check(hStream);
    if (r != CUDA_SUCCESS)
        return r;
    if (!callback || flags != 0)
        return CUDA_ERROR_INVALID_VALUE;
    CUcontext ctx;
    sim_lock();
    struct sim_queue *q = sim_stream_queue(hStream, &ctx);
    if ((r = sim_capture_legacy_use(hStream, ctx, true)) == CUDA_SUCCESS && q->capture)
        r = sim_capture_refuse(q); /* stream callbacks cannot be captured (host functions can) */
    sim_unlock();
    if (r == CUDA_SUCCESS)
        callback(hStream, CUDA_SUCCESS, userData);
    return r;
}

CUresult cuStreamAddCallback(CUstream hStream, CUstreamCallback callback, void *userData, unsigned int flags)
{
    return add_callback(hStream, callback, userData, flags);
}

CUresult cuStreamAddCallback_ptsz(CUstream hStream, CUstreamCallback callback, void *userData, unsigned int flags)
{
    return add_callback(SIM_PTSZ(hStream), callback, userData, flags);
}
