/* Contexts: created and primary contexts, and each thread's stack of current contexts. */
#include "config.h"

#include "sim.h"

#include <stdlib.h>

#define SIM_CTX_STACK_MAX 128

static _Thread_local CUcontext ctx_stack[SIM_CTX_STACK_MAX];
static _Thread_local int ctx_depth;

static struct CUctx_st primaries[SIM_DEVICE_COUNT];
static int primary_refs[SIM_DEVICE_COUNT];
static unsigned int primary_flags[SIM_DEVICE_COUNT];

CUcontext sim_ctx_current(void)
{
    return ctx_depth > 0 ? ctx_stack[ctx_depth - 1] : NULL;
}

CUresult sim_ctx_require(CUcontext *ctx)
{
    SIM_REQUIRE_INIT();
    CUcontext c = sim_ctx_current();
    if (!c)
        return CUDA_ERROR_INVALID_CONTEXT;
    if (!sim_obj_live(c, SIM_CTX))
        return CUDA_ERROR_CONTEXT_IS_DESTROYED;
    if (ctx)
        *ctx = c;
    return CUDA_SUCCESS;
}

static CUresult push(CUcontext ctx)
{
    if (ctx_depth == SIM_CTX_STACK_MAX)
        return CUDA_ERROR_OUT_OF_MEMORY;
    ctx_stack[ctx_depth++] = ctx;
    return CUDA_SUCCESS;
}

/* A context that goes away takes its memory, streams (and their captures) and events with it. */
static void release_resources(CUcontext ctx)
{
    sim_mem_release_ctx(ctx);
    sim_stream_release_ctx(ctx);
    sim_event_release_ctx(ctx);
    ctx->npeers = 0;
}

/* ---- created contexts ---- */

static CUresult create(CUcontext *pctx, unsigned int flags, CUdevice dev)
{
    SIM_REQUIRE_INIT();
    if (!pctx)
        return CUDA_ERROR_INVALID_VALUE;
    if (!sim_device(dev))
        return CUDA_ERROR_INVALID_DEVICE;
    if (flags & ~(unsigned)(CU_CTX_FLAGS_MASK | CU_CTX_COREDUMP_ENABLE | CU_CTX_USER_COREDUMP_ENABLE | CU_CTX_SYNC_MEMOPS))
        return CUDA_ERROR_INVALID_VALUE;
    if (ctx_depth == SIM_CTX_STACK_MAX)
        return CUDA_ERROR_OUT_OF_MEMORY;
    struct CUctx_st *c = calloc(1, sizeof *c);
    if (!c)
        return CUDA_ERROR_OUT_OF_MEMORY;
    c->device = dev;
    c->flags = flags;
    c->id = sim_next_id();
    sim_obj_register(&c->obj, SIM_CTX);
    push(c);
    *pctx = c;
    return CUDA_SUCCESS;
}

CUresult cuCtxCreate(CUcontext *pctx, unsigned int flags, CUdevice_v1 dev)
{
    return create(pctx, flags, dev);
}

CUresult cuCtxCreate_v2(CUcontext *pctx, unsigned int flags, CUdevice_v1 dev)
{
    return create(pctx, flags, dev);
}

/* Execution affinity (SM partitions) is not simulated: asking for any is unsupported. */
CUresult cuCtxCreate_v3(CUcontext *pctx, CUexecAffinityParam *paramsArray, int numParams, unsigned int flags,
                        CUdevice_v1 dev)
{
    if (numParams < 0 || (numParams > 0 && !paramsArray))
        return CUDA_ERROR_INVALID_VALUE;
    if (numParams > 0)
        return CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY;
    return create(pctx, flags, dev);
}

CUresult cuCtxCreate_v4(CUcontext *pctx, CUctxCreateParams *ctxCreateParams, unsigned int flags, CUdevice dev)
{
    if (ctxCreateParams && ctxCreateParams->numExecAffinityParams > 0)
        return CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY;
    if (ctxCreateParams && ctxCreateParams->cigParams)
        return CUDA_ERROR_NOT_SUPPORTED;
    return create(pctx, flags, dev);
}

static CUresult destroy(CUcontext ctx)
{
    SIM_REQUIRE_INIT();
    if (!ctx || ctx->primary || !sim_obj_unregister(&ctx->obj, SIM_CTX))
        return CUDA_ERROR_INVALID_CONTEXT;
    if (sim_ctx_current() == ctx)
        ctx_depth--;
    release_resources(ctx);
    free(ctx);
    return CUDA_SUCCESS;
}

CUresult cuCtxDestroy(CUcontext ctx)
{
    return destroy(ctx);
}

CUresult cuCtxDestroy_v2(CUcontext ctx)
{
    return destroy(ctx);
}

/* ---- the current-context stack ---- */

static CUresult push_current(CUcontext ctx)
{
    SIM_REQUIRE_INIT();
    if (!sim_obj_live(ctx, SIM_CTX))
        return CUDA_ERROR_INVALID_CONTEXT;
    return push(ctx);
}

CUresult cuCtxPushCurrent(CUcontext ctx)
{
    return push_current(ctx);
}

CUresult cuCtxPushCurrent_v2(CUcontext ctx)
{
    return push_current(ctx);
}

static CUresult pop_current(CUcontext *pctx)
{
    SIM_REQUIRE_INIT();
    if (ctx_depth == 0)
        return CUDA_ERROR_INVALID_CONTEXT;
    CUcontext c = ctx_stack[--ctx_depth];
    if (pctx)
        *pctx = c;
    return CUDA_SUCCESS;
}

CUresult cuCtxPopCurrent(CUcontext *pctx)
{
    return pop_current(pctx);
}

CUresult cuCtxPopCurrent_v2(CUcontext *pctx)
{
    return pop_current(pctx);
}

/* Replaces the top of the stack; NULL pops it (a no-op on an empty stack). */
CUresult cuCtxSetCurrent(CUcontext ctx)
{
    SIM_REQUIRE_INIT();
    if (!ctx) {
        if (ctx_depth > 0)
            ctx_depth--;
        return CUDA_SUCCESS;
    }
    if (!sim_obj_live(ctx, SIM_CTX))
        return CUDA_ERROR_INVALID_CONTEXT;
    if (ctx_depth == 0)
        return push(ctx);
    ctx_stack[ctx_depth - 1] = ctx;
    return CUDA_SUCCESS;
}

CUresult cuCtxGetCurrent(CUcontext *pctx)
{
    SIM_COUNT();
    SIM_REQUIRE_INIT();
    if (!pctx)
        return CUDA_ERROR_INVALID_VALUE;
    *pctx = sim_ctx_current();
    return CUDA_SUCCESS;
}

/* ---- queries of a context ---- */

/* ctx, or the current context when ctx is NULL (the _v2 forms of CUDA 13.0 take an explicit context). */
static CUresult resolve(CUcontext *ctx)
{
    SIM_REQUIRE_INIT();
    if (!*ctx)
        return sim_ctx_require(ctx);
    return sim_obj_live(*ctx, SIM_CTX) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}

CUresult cuCtxGetDevice(CUdevice_v1 *device)
{
    SIM_COUNT();
    CUcontext ctx = NULL;
    CUresult r = resolve(&ctx);
    if (r != CUDA_SUCCESS)
        return r;
    if (!device)
        return CUDA_ERROR_INVALID_VALUE;
    *device = ctx->device;
    return CUDA_SUCCESS;
}

CUresult cuCtxGetDevice_v2(CUdevice *device, CUcontext ctx)
{
    SIM_COUNT();
    CUresult r = resolve(&ctx);
    if (r != CUDA_SUCCESS)
        return r;
    if (!device)
        return CUDA_ERROR_INVALID_VALUE;
    *device = ctx->device;
    return CUDA_SUCCESS;
}

/* Sleeps until the end of the work submitted to any stream of the context. Potentially unsafe in a capture. */
static CUresult synchronize(CUcontext ctx)
{
    CUresult r = resolve(&ctx);
    if (r != CUDA_SUCCESS || (r = sim_capture_unsafe_call()) != CUDA_SUCCESS)
        return r;
    sim_lock();
    uint64_t until = ctx->busy_until;
    sim_unlock();
    sim_sleep_until(until);
    return CUDA_SUCCESS;
}

CUresult cuCtxSynchronize(void)
{
    return synchronize(NULL);
}

/* No profiler here: starting and stopping one is accepted wherever the driver has a current context. */
CUresult cuProfilerStart(void)
{
    CUcontext ctx = NULL;
    return resolve(&ctx);
}

CUresult cuProfilerStop(void)
{
    CUcontext ctx = NULL;
    return resolve(&ctx);
}

CUresult cuCtxSynchronize_v2(CUcontext ctx)
{
    return synchronize(ctx);
}

CUresult cuCtxGetFlags(unsigned int *flags)
{
    CUcontext ctx = NULL;
    CUresult r = resolve(&ctx);
    if (r != CUDA_SUCCESS)
        return r;
    if (!flags)
        return CUDA_ERROR_INVALID_VALUE;
    *flags = ctx->flags;
    return CUDA_SUCCESS;
}

CUresult cuCtxGetId(CUcontext ctx, unsigned long long *ctxId)
{
    CUresult r = resolve(&ctx);
    if (r != CUDA_SUCCESS)
        return r;
    if (!ctxId)
        return CUDA_ERROR_INVALID_VALUE;
    *ctxId = ctx->id;
    return CUDA_SUCCESS;
}

CUresult cuCtxGetApiVersion(CUcontext ctx, unsigned int *version)
{
    CUresult r = resolve(&ctx);
    if (r != CUDA_SUCCESS)
        return r;
    if (!version)
        return CUDA_ERROR_INVALID_VALUE;
    *version = 3020;
    return CUDA_SUCCESS;
}

CUresult cuCtxGetStreamPriorityRange(int *leastPriority, int *greatestPriority)
{
    CUresult r = sim_ctx_require(NULL);
    if (r != CUDA_SUCCESS)
        return r;
    if (leastPriority)
        *leastPriority = 0;
    if (greatestPriority)
        *greatestPriority = -5;
    return CUDA_SUCCESS;
}

/* ---- peer access: from the current context to another context's memory, one direction per call ---- */

/* Index of peerContext's id in ctx's peer list, or -1. With the lock. */
static int peer_index(CUcontext ctx, CUcontext peer)
{
    for (unsigned int i = 0; i < ctx->npeers; i++)
        if (ctx->peers[i] == peer->id)
            return (int)i;
    return -1;
}

/* The errors cuda.h documents, in its order: no current context, an invalid peer or the current context
 * itself: INVALID_CONTEXT; flags: INVALID_VALUE; a peer on a device cuDeviceCanAccessPeer refuses (its own):
 * PEER_ACCESS_UNSUPPORTED; twice: ALREADY_ENABLED; more than SIM_MAX_PEERS: TOO_MANY_PEERS. */
CUresult cuCtxEnablePeerAccess(CUcontext peerContext, unsigned int Flags)
{
    CUcontext ctx;
    CUresult r = sim_ctx_require(&ctx);
    if (r != CUDA_SUCCESS)
        return r;
    if (!sim_obj_live(peerContext, SIM_CTX) || peerContext == ctx)
        return CUDA_ERROR_INVALID_CONTEXT;
    if (Flags != 0)
        return CUDA_ERROR_INVALID_VALUE;
    if (peerContext->device == ctx->device)
        return CUDA_ERROR_PEER_ACCESS_UNSUPPORTED;
    sim_lock();
    if (peer_index(ctx, peerContext) >= 0)
        r = CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED;
    else if (ctx->npeers == SIM_MAX_PEERS)
        r = CUDA_ERROR_TOO_MANY_PEERS;
    else
        ctx->peers[ctx->npeers++] = peerContext->id;
    sim_unlock();
    return r;
}

CUresult cuCtxDisablePeerAccess(CUcontext peerContext)
{
    CUcontext ctx;
    CUresult r = sim_ctx_require(&ctx);
    if (r != CUDA_SUCCESS)
        return r;
    if (!sim_obj_live(peerContext, SIM_CTX))
        return CUDA_ERROR_INVALID_CONTEXT;
    sim_lock();
    int i = peer_index(ctx, peerContext);
    if (i < 0)
        r = CUDA_ERROR_PEER_ACCESS_NOT_ENABLED;
    else
        ctx->peers[i] = ctx->peers[--ctx->npeers];
    sim_unlock();
    return r;
}

/* ---- primary contexts: one per device, reference-counted, the same handle every time ---- */

CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice_v1 dev)
{
    SIM_REQUIRE_INIT();
    if (!pctx)
        return CUDA_ERROR_INVALID_VALUE;
    if (!sim_device(dev))
        return CUDA_ERROR_INVALID_DEVICE;
    sim_lock();
    struct CUctx_st *c = &primaries[dev];
    if (primary_refs[dev]++ == 0) {
        c->device = dev;
        c->primary = true;
        c->flags = primary_flags[dev];
        c->id = sim_next_id();
        sim_obj_register(&c->obj, SIM_CTX);
    }
    sim_unlock();
    *pctx = c;
    return CUDA_SUCCESS;
}

static CUresult primary_release(CUdevice dev)
{
    SIM_REQUIRE_INIT();
    if (!sim_device(dev))
        return CUDA_ERROR_INVALID_DEVICE;
    CUresult r = CUDA_SUCCESS;
    sim_lock();
    if (primary_refs[dev] == 0) {
        r = CUDA_ERROR_INVALID_CONTEXT;
    } else if (--primary_refs[dev] == 0) {
        sim_obj_unregister(&primaries[dev].obj, SIM_CTX);
        release_resources(&primaries[dev]);
        primaries[dev].legacy.tail = primaries[dev].busy_until = 0;
    }
    sim_unlock();
    return r;
}

CUresult cuDevicePrimaryCtxRelease(CUdevice_v1 dev)
{
    return primary_release(dev);
}

CUresult cuDevicePrimaryCtxRelease_v2(CUdevice_v1 dev)
{
    return primary_release(dev);
}

CUresult cuDevicePrimaryCtxGetState(CUdevice_v1 dev, unsigned int *flags, int *active)
{
    SIM_REQUIRE_INIT();
    if (!flags || !active)
        return CUDA_ERROR_INVALID_VALUE;
    if (!sim_device(dev))
        return CUDA_ERROR_INVALID_DEVICE;
    sim_lock();
    *flags = primary_flags[dev];
    *active = primary_refs[dev] > 0;
    sim_unlock();
    return CUDA_SUCCESS;
}

/* The 7.0 form refuses to change an active primary context; the 11.0 form (_v2) allows it. */
static CUresult primary_set_flags(CUdevice dev, unsigned int flags, bool while_active)
{
    SIM_REQUIRE_INIT();
    if (!sim_device(dev))
        return CUDA_ERROR_INVALID_DEVICE;
    if (flags & ~(unsigned)CU_CTX_FLAGS_MASK)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = CUDA_SUCCESS;
    sim_lock();
    if (primary_refs[dev] > 0 && !while_active)
        r = CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE;
    else
        primary_flags[dev] = primaries[dev].flags = flags;
    sim_unlock();
    return r;
}

CUresult cuDevicePrimaryCtxSetFlags(CUdevice_v1 dev, unsigned int flags)
{
    return primary_set_flags(dev, flags, false);
}

CUresult cuDevicePrimaryCtxSetFlags_v2(CUdevice_v1 dev, unsigned int flags)
{
    return primary_set_flags(dev, flags, true);
}

/* Frees the primary context's allocations, streams and events and forgets its flags; retained references stay
 * valid. */
static CUresult primary_reset(CUdevice dev)
{
    SIM_REQUIRE_INIT();
    if (!sim_device(dev))
        return CUDA_ERROR_INVALID_DEVICE;
    sim_lock();
    release_resources(&primaries[dev]);
    primary_flags[dev] = primaries[dev].flags = 0;
    sim_unlock();
    return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxReset(CUdevice_v1 dev)
{
    return primary_reset(dev);
}

CUresult cuDevicePrimaryCtxReset_v2(CUdevice_v1 dev)
{
    return primary_reset(dev);
}
