/* Stream capture: while a stream captures, the work submitted to it becomes nodes of a graph instead of
 * running. Capture modes follow the driver: each thread has an interaction mode (GLOBAL by default,
 * cuThreadExchangeStreamCaptureMode); a potentially unsafe call by a thread whose mode is not RELAXED fails
 * with CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, invalidating the captures that forbid it: in GLOBAL mode, its
 * own captures begun in GLOBAL or THREAD_LOCAL mode and other threads' begun in GLOBAL mode; in THREAD_LOCAL
 * mode, its own only. Only the origin stream captures: cross-stream joins through events are not simulated. */
#include "config.h"

#include "sim.h"

#include <pthread.h>
#include <stdlib.h>

struct sim_capture {
    struct sim_capture *next; /* every ongoing capture, for the mode checks */
    struct sim_queue *queue;
    CUgraph graph;
    CUstreamCaptureMode mode;
    pthread_t thread; /* the one that began it */
    CUcontext ctx;
    bool blocking; /* on a stream ordered with the legacy stream */
    bool invalidated;
    unsigned long long id;
    CUgraphNode last; /* the capture's dependency set: its last node */
};

static struct sim_capture *ongoing;
static _Thread_local CUstreamCaptureMode thread_mode = CU_STREAM_CAPTURE_MODE_GLOBAL;

CUresult sim_capture_unsafe_call(void)
{
    if (thread_mode == CU_STREAM_CAPTURE_MODE_RELAXED)
        return CUDA_SUCCESS;
    CUresult r = CUDA_SUCCESS;
    pthread_t self = pthread_self();
    sim_lock();
    for (struct sim_capture *c = ongoing; c; c = c->next) {
        bool mine = pthread_equal(c->thread, self);
        bool forbids = mine ? c->mode != CU_STREAM_CAPTURE_MODE_RELAXED
                            : thread_mode == CU_STREAM_CAPTURE_MODE_GLOBAL && c->mode == CU_STREAM_CAPTURE_MODE_GLOBAL;
        if (forbids) {
            c->invalidated = true;
            r = CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
        }
    }
    sim_unlock();
    return r;
}

/* The legacy stream is ordered with every blocking stream of its context, so using it would depend on (or
 * wait for) work being captured there. */
CUresult sim_capture_legacy_use(CUstream stream, CUcontext ctx, bool invalidate)
{
    if (!sim_stream_is_legacy(stream))
        return CUDA_SUCCESS;
    CUresult r = CUDA_SUCCESS;
    sim_lock();
    for (struct sim_capture *c = ongoing; c; c = c->next) {
        if (c->ctx == ctx && c->blocking) {
            c->invalidated |= invalidate;
            r = CUDA_ERROR_STREAM_CAPTURE_IMPLICIT;
        }
    }
    sim_unlock();
    return r;
}

CUresult sim_capture_refuse(struct sim_queue *q)
{
    sim_lock();
    if (q->capture)
        q->capture->invalidated = true;
    sim_unlock();
    return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
}

CUresult sim_capture_add(struct sim_capture *c, const struct sim_work *w)
{
    if (c->invalidated)
        return CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
    CUresult r = sim_graph_append(c->graph, w);
    if (r == CUDA_SUCCESS)
        c->last = c->graph->nodes[c->graph->count - 1];
    return r;
}

static void end(struct sim_capture *c)
{
    for (struct sim_capture **p = &ongoing; *p; p = &(*p)->next) {
        if (*p == c) {
            *p = c->next;
            break;
        }
    }
    c->queue->capture = NULL;
}

void sim_capture_end_on_destroy(struct sim_queue *q)
{
    sim_lock();
    struct sim_capture *c = q->capture;
    if (c) {
        end(c);
        sim_graph_free(c->graph);
        free(c);
    }
    sim_unlock();
}

/* ---- entry points ---- */

CUresult cuThreadExchangeStreamCaptureMode(CUstreamCaptureMode *mode)
{
    if (!mode || (unsigned)*mode > CU_STREAM_CAPTURE_MODE_RELAXED)
        return CUDA_ERROR_INVALID_VALUE;
    CUstreamCaptureMode old = thread_mode;
    thread_mode = *mode;
    *mode = old;
    return CUDA_SUCCESS;
}

static CUresult begin(CUstream stream, CUstreamCaptureMode mode)
{
    CUresult r = sim_stream_check(stream);
    if (r != CUDA_SUCCESS)
        return r;
    if ((unsigned)mode > CU_STREAM_CAPTURE_MODE_RELAXED)
        return CUDA_ERROR_INVALID_VALUE;
    if (sim_stream_is_legacy(stream))
        return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
    struct sim_capture *c = calloc(1, sizeof *c);
    CUgraph g = sim_graph_new();
    if (!c || !g) {
        free(c);
        sim_graph_free(g);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    sim_lock();
    struct sim_queue *q = sim_stream_queue(stream, &c->ctx);
    if (q->capture) {
        sim_unlock();
        free(c);
        sim_graph_free(g);
        return CUDA_ERROR_ILLEGAL_STATE;
    }
    sim_obj_register(&g->obj, SIM_GRAPH); /* readable (cuGraphGetNodes) while capturing */
    g->capturing = true;
    c->queue = q;
    c->graph = g;
    c->mode = mode;
    c->thread = pthread_self();
    c->blocking = sim_stream_blocking(stream);
    c->id = sim_next_id();
    c->next = ongoing;
    ongoing = c;
    q->capture = c;
    sim_unlock();
    return CUDA_SUCCESS;
}

/* The 10.0 form has no mode: it captures as GLOBAL, the later default. */
CUresult cuStreamBeginCapture(CUstream hStream)
{
    return begin(hStream, CU_STREAM_CAPTURE_MODE_GLOBAL);
}

CUresult cuStreamBeginCapture_ptsz(CUstream hStream)
{
    return begin(SIM_PTSZ(hStream), CU_STREAM_CAPTURE_MODE_GLOBAL);
}

CUresult cuStreamBeginCapture_v2(CUstream hStream, CUstreamCaptureMode mode)
{
    return begin(hStream, mode);
}

CUresult cuStreamBeginCapture_v2_ptsz(CUstream hStream, CUstreamCaptureMode mode)
{
    return begin(SIM_PTSZ(hStream), mode);
}

/* An invalidated capture ends with CUDA_ERROR_STREAM_CAPTURE_INVALIDATED and no graph. A capture not begun
 * in RELAXED mode must end on the thread that began it. */
static CUresult end_capture(CUstream stream, CUgraph *graph)
{
    CUresult r = sim_stream_check(stream);
    if (r != CUDA_SUCCESS)
        return r;
    if (!graph)
        return CUDA_ERROR_INVALID_VALUE;
    sim_lock();
    CUcontext ctx;
    struct sim_queue *q = sim_stream_queue(stream, &ctx);
    struct sim_capture *c = q->capture;
    if (!c) {
        r = sim_stream_is_legacy(stream) ? CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED : CUDA_ERROR_ILLEGAL_STATE;
    } else if (c->mode != CU_STREAM_CAPTURE_MODE_RELAXED && !pthread_equal(c->thread, pthread_self())) {
        r = CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD;
    } else {
        end(c);
        c->graph->capturing = false;
        if (c->invalidated) {
            sim_graph_free(c->graph);
            *graph = NULL;
            r = CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
        } else {
            *graph = c->graph;
        }
        free(c);
    }
    sim_unlock();
    return r;
}

CUresult cuStreamEndCapture(CUstream hStream, CUgraph *phGraph)
{
    return end_capture(hStream, phGraph);
}

CUresult cuStreamEndCapture_ptsz(CUstream hStream, CUgraph *phGraph)
{
    return end_capture(SIM_PTSZ(hStream), phGraph);
}

struct capture_info {
    CUstreamCaptureStatus status;
    unsigned long long id;
    CUgraph graph;
    const CUgraphNode *deps;
    size_t ndeps;
};

/* The legacy stream while a blocking stream of its context captures: CUDA_ERROR_STREAM_CAPTURE_IMPLICIT. */
static CUresult capture_info(CUstream stream, struct capture_info *info)
{
    CUresult r = sim_stream_check(stream);
    if (r != CUDA_SUCCESS)
        return r;
    sim_lock();
    CUcontext ctx;
    const struct sim_capture *c = sim_stream_queue(stream, &ctx)->capture;
    if ((r = sim_capture_legacy_use(stream, ctx, false)) == CUDA_SUCCESS) {
        info->status = !c ? CU_STREAM_CAPTURE_STATUS_NONE
                       : c->invalidated ? CU_STREAM_CAPTURE_STATUS_INVALIDATED
                                        : CU_STREAM_CAPTURE_STATUS_ACTIVE;
        if (c) {
            info->id = c->id;
            info->graph = c->graph;
            info->deps = c->last ? &c->last : NULL;
            info->ndeps = c->last ? 1 : 0;
        }
    }
    sim_unlock();
    return r;
}

static CUresult is_capturing(CUstream stream, CUstreamCaptureStatus *status)
{
    struct capture_info info;
    if (!status)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = capture_info(stream, &info);
    if (r == CUDA_SUCCESS)
        *status = info.status;
    return r;
}

CUresult cuStreamIsCapturing(CUstream hStream, CUstreamCaptureStatus *captureStatus)
{
    SIM_COUNT();
    return is_capturing(hStream, captureStatus);
}

CUresult cuStreamIsCapturing_ptsz(CUstream hStream, CUstreamCaptureStatus *captureStatus)
{
    SIM_COUNT();
    return is_capturing(SIM_PTSZ(hStream), captureStatus);
}

/* The outputs past the status are written only while the stream captures (ACTIVE or INVALIDATED), as the
 * driver does; edge data is NULL (all edges are default ones). */
static CUresult get_info(CUstream stream, CUstreamCaptureStatus *status, cuuint64_t *id, CUgraph *graph,
                         const CUgraphNode **deps, const CUgraphEdgeData **edges, size_t *ndeps)
{
    struct capture_info info;
    if (!status)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = capture_info(stream, &info);
    if (r != CUDA_SUCCESS)
        return r;
    *status = info.status;
    if (info.status == CU_STREAM_CAPTURE_STATUS_NONE)
        return CUDA_SUCCESS;
    if (id)
        *id = info.id;
    if (graph)
        *graph = info.graph;
    if (deps)
        *deps = info.deps;
    if (edges)
        *edges = NULL;
    if (ndeps)
        *ndeps = info.ndeps;
    return CUDA_SUCCESS;
}

CUresult cuStreamGetCaptureInfo(CUstream hStream, CUstreamCaptureStatus *captureStatus_out, cuuint64_t *id_out)
{
    return get_info(hStream, captureStatus_out, id_out, NULL, NULL, NULL, NULL);
}

CUresult cuStreamGetCaptureInfo_ptsz(CUstream hStream, CUstreamCaptureStatus *captureStatus_out,
                                     cuuint64_t *id_out)
{
    return get_info(SIM_PTSZ(hStream), captureStatus_out, id_out, NULL, NULL, NULL, NULL);
}

CUresult cuStreamGetCaptureInfo_v2(CUstream hStream, CUstreamCaptureStatus *captureStatus_out, cuuint64_t *id_out,
                                   CUgraph *graph_out, const CUgraphNode **dependencies_out,
                                   size_t *numDependencies_out)
{
    return get_info(hStream, captureStatus_out, id_out, graph_out, dependencies_out, NULL, numDependencies_out);
}

CUresult cuStreamGetCaptureInfo_v2_ptsz(CUstream hStream, CUstreamCaptureStatus *captureStatus_out,
                                        cuuint64_t *id_out, CUgraph *graph_out,
                                        const CUgraphNode **dependencies_out, size_t *numDependencies_out)
{
    return get_info(SIM_PTSZ(hStream), captureStatus_out, id_out, graph_out, dependencies_out, NULL,
                    numDependencies_out);
}

CUresult cuStreamGetCaptureInfo_v3(CUstream hStream, CUstreamCaptureStatus *captureStatus_out, cuuint64_t *id_out,
                                   CUgraph *graph_out, const CUgraphNode **dependencies_out,
                                   const CUgraphEdgeData **edgeData_out, size_t *numDependencies_out)
{
    return get_info(hStream, captureStatus_out, id_out, graph_out, dependencies_out, edgeData_out,
                    numDependencies_out);
}

CUresult cuStreamGetCaptureInfo_v3_ptsz(CUstream hStream, CUstreamCaptureStatus *captureStatus_out,
                                        cuuint64_t *id_out, CUgraph *graph_out,
                                        const CUgraphNode **dependencies_out, const CUgraphEdgeData **edgeData_out,
                                        size_t *numDependencies_out)
{
    return get_info(SIM_PTSZ(hStream), captureStatus_out, id_out, graph_out, dependencies_out, edgeData_out,
                    numDependencies_out);
}
