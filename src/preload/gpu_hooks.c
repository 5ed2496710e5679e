/* GPU time's part in the interposition layer (src/gputime does the timing): what it lends GPU time (the
 * driver's functions, the exit and fork handlers), and the hooks of the calls that may destroy a context,
 * before and after which GPU time collects what completed in it and forgets it. */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "gputime/gputime.h"
#include "preload/hooks.h"
#include "preload/interpose.h"
#include "preload/mem_map.h"
#include "preload/trampoline.h"
#include "recorder/recorder.h"

static int find_driver(struct ct_gpu_driver *d)
{
    d->ctx_get_current = CT_DRIVER(cuCtxGetCurrent);
    d->stream_ctx = CT_DRIVER(cuStreamGetCtx);
    d->ctx_get_device = CT_DRIVER(cuCtxGetDevice);
    d->ctx_push = CT_DRIVER(cuCtxPushCurrent_v2);
    d->ctx_pop = CT_DRIVER(cuCtxPopCurrent_v2);
    d->is_capturing = CT_DRIVER(cuStreamIsCapturing);
    d->stream_create = CT_DRIVER(cuStreamCreate);
    d->event_create = CT_DRIVER(cuEventCreate);
    d->event_record = CT_DRIVER(cuEventRecord);
    d->event_destroy = CT_DRIVER(cuEventDestroy_v2);
    d->event_query = CT_DRIVER(cuEventQuery);
    d->elapsed = (PFN_cuEventElapsedTime_v2000)CT_DRIVER(cuEventElapsedTime_v2);
    if (!d->elapsed)
        d->elapsed = CT_DRIVER(cuEventElapsedTime);
    d->exchange_mode = CT_DRIVER(cuThreadExchangeStreamCaptureMode);
    return d->ctx_get_current && d->ctx_get_device && d->ctx_push && d->ctx_pop && d->is_capturing &&
                   d->stream_create && d->event_create && d->event_record && d->event_destroy && d->event_query &&
                   d->elapsed && d->exchange_mode
               ? 0
               : -1;
}

/* At exit, GPU time's last collection, in an atexit handler registered after the CUDA runtime's (at the
 * first timed call), so that it runs before the runtime tears the driver down. */
static void at_exit(void)
{
    ct_guard++; /* the tracer's own driver calls from here on */
    ct_gpu_last_collection(); /* first: a call another thread begins during the collection is counted too */
    ct_rec_gpu_finish();
    ct_guard--;
}

static void install(void)
{
    pthread_atfork(NULL, NULL, ct_gpu_fork_child);
    atexit(at_exit);
}

/* The variants GPU time times, as the generator picks them (gen-wrappers.py, gpu_exprs): launches and copies
 * (sets included), but a host function, which runs on the host. */
static int makes_work(const char *name)
{
    const int id = ct_symbol_find(name);
    if (id < 0)
        return 0;
    const struct ct_variant *v = &ct_variants[id];
    return v->family == CT_FAM_COPY || (v->family == CT_FAM_LAUNCH && strcmp(v->name, "cuLaunchHostFunc") != 0);
}

static int capturing(void) { return !(__atomic_load_n(&ct_gate, __ATOMIC_RELAXED) & CT_GATE_CAPTURE); }

static int in_tracer(void) { return ct_guard != 0; }

const struct ct_gpu_host ct_gpu_host = {
    .find_driver = find_driver, .install = install, .makes_work = makes_work, .capturing = capturing,
    .in_tracer = in_tracer};

/* ---- calls that may destroy a context ---- */

/* The primary context of dev, NULL when it is not active.  Asked before a release or reset, whose caller
 * holds a reference (or is about to destroy it anyway): the retain and release leave its count as it was. */
static CUcontext primary_of(CUdevice dev)
{
    PFN_cuDevicePrimaryCtxGetState_v7000 state = CT_DRIVER(cuDevicePrimaryCtxGetState);
    PFN_cuDevicePrimaryCtxRetain_v7000 retain = CT_DRIVER(cuDevicePrimaryCtxRetain);
    PFN_cuDevicePrimaryCtxRelease_v11000 release = CT_DRIVER(cuDevicePrimaryCtxRelease_v2);
    unsigned flags;
    int active = 0;
    CUcontext p = NULL;

    if (!state || !retain || !release || state(dev, &flags, &active) != CUDA_SUCCESS || !active ||
        retain(&p, dev) != CUDA_SUCCESS)
        return NULL;
    release(dev);
    return p;
}

/* Whether dev's primary context is active: asked after a release, which destroys it (and its memory) only
 * when it was the last. */
static CUresult primary_state(CUdevice dev, unsigned *flags, int *active)
{
    PFN_cuDevicePrimaryCtxGetState_v7000 get = CT_DRIVER(cuDevicePrimaryCtxGetState);
    ct_guard++;
    CUresult r = get ? get(dev, flags, active) : CUDA_ERROR_NOT_INITIALIZED;
    ct_guard--;
    return r;
}

/* The context a primary release or reset is about: found by the pre-hook, used by the hook. */
static __thread CUcontext primary_closing __attribute__((tls_model("initial-exec")));

/* Before a primary release or reset, and after it (gone: the context went, and its memory with it). */
static void primary_pre(CUdevice dev)
{
    primary_closing = ct_gpu_used() ? primary_of(dev) : NULL;
    ct_gpu_ctx_closing(primary_closing);
}
static void primary_post(int gone)
{
    ct_gpu_ctx_closed(primary_closing, gone);
    primary_closing = NULL;
    if (gone)
        ct_mem_map_clear();
}

void ct_pre_cuCtxDestroy(CUcontext ctx) { ct_gpu_ctx_closing(ctx); }
void ct_hook_cuCtxDestroy(CUresult r, CUcontext ctx)
{
    ct_gpu_ctx_closed(ctx, r == CUDA_SUCCESS);
    if (r == CUDA_SUCCESS)
        ct_mem_map_clear();
}

void ct_pre_cuDevicePrimaryCtxReset(CUdevice dev) { primary_pre(dev); }
void ct_hook_cuDevicePrimaryCtxReset(CUresult r, CUdevice dev)
{
    (void)dev;
    primary_post(r == CUDA_SUCCESS);
}

void ct_pre_cuDevicePrimaryCtxRelease(CUdevice dev) { primary_pre(dev); }
void ct_hook_cuDevicePrimaryCtxRelease(CUresult r, CUdevice dev)
{
    unsigned flags;
    int active = 1;

    /* Only the last release destroys it (and its memory). */
    if (r == CUDA_SUCCESS && primary_state(dev, &flags, &active) != CUDA_SUCCESS)
        active = 0;
    primary_post(r == CUDA_SUCCESS && !active);
}

/* A green context is used through the context cuCtxFromGreenCtx gives; its pools are that context's. */
static __thread CUcontext green_closing __attribute__((tls_model("initial-exec")));

void ct_pre_cuGreenCtxDestroy(CUgreenCtx h)
{
    PFN_cuCtxFromGreenCtx_v12040 from_green = CT_DRIVER(cuCtxFromGreenCtx);
    green_closing = NULL;
    if (ct_gpu_used() && from_green && from_green(&green_closing, h) != CUDA_SUCCESS)
        green_closing = NULL;
    ct_gpu_ctx_closing(green_closing);
}
void ct_hook_cuGreenCtxDestroy(CUresult r, CUgreenCtx h)
{
    (void)h;
    ct_gpu_ctx_closed(green_closing, r == CUDA_SUCCESS);
    green_closing = NULL;
}
