/* Work submitted to a stream (a kernel, a copy, a set, an event record, a host function): run at once with
 * its timing placed on the stream's timeline, or added to the stream's capture as a graph node. */
#include "config.h"

#include "sim.h"

#include <stdlib.h>
#include <string.h>

#define SIM_MAX_ARGS 512

static void run_kernel(const struct sim_work *w)
{
    if (!w->u.kernel.kernel)
        return;
    void *args[SIM_MAX_ARGS];
    for (unsigned int i = 0; i < w->u.kernel.nparams && i < SIM_MAX_ARGS; i++)
        args[i] = (void *)(w->u.kernel.params + w->u.kernel.offsets[i]);
    w->u.kernel.kernel->run(&w->u.kernel.geometry, args);
}

static void run_set(const struct sim_work *w)
{
    for (size_t row = 0; row < w->u.set.height; row++) {
        unsigned char *p = (unsigned char *)(w->u.set.dst + row * w->u.set.pitch);
        if (w->u.set.size == 1) {
            memset(p, (int)w->u.set.value, w->u.set.width);
            continue;
        }
        for (size_t i = 0; i < w->u.set.width; i++) {
            if (w->u.set.size == 2) {
                uint16_t v = (uint16_t)w->u.set.value;
                memcpy(p + 2 * i, &v, 2);
            } else {
                uint32_t v = w->u.set.value;
                memcpy(p + 4 * i, &v, 4);
            }
        }
    }
}

/* The effects happen outside the lock (a host function may call the driver, from this thread or another);
 * the timing under it. */
uint64_t sim_work_run(struct sim_queue *q, CUcontext ctx, const struct sim_work *w)
{
    switch (w->kind) {
    case SIM_WORK_KERNEL: run_kernel(w); break;
    case SIM_WORK_COPY:
        for (size_t z = 0; z < (w->u.copy.depth ? w->u.copy.depth : 1); z++)
            for (size_t row = 0; row < w->u.copy.height; row++)
                memmove((void *)(w->u.copy.dst + z * w->u.copy.dslice + row * w->u.copy.dpitch),
                        (const void *)(w->u.copy.src + z * w->u.copy.sslice + row * w->u.copy.spitch),
                        w->u.copy.width);
        break;
    case SIM_WORK_SET: run_set(w); break;
    case SIM_WORK_HOST: w->u.host.fn(w->u.host.data); break;
    case SIM_WORK_EVENT: break;
    }
    sim_lock();
    uint64_t now = sim_now_ns();
    /* A kernel starts once its launch has reached the device (SIM_LAUNCH_LATENCY_NS); an event is stamped
     * when the queue reaches it: on an idle stream, timing events around a kernel also time that latency. */
    uint64_t arrive = w->kind == SIM_WORK_KERNEL ? now + sim_config()->launch_latency_ns : now;
    uint64_t start = q->tail > arrive ? q->tail : arrive;
    uint64_t end = start + w->ns;
    if (w->kind == SIM_WORK_EVENT) {
        /* a record stamps the event with the end of the work before it; a graph's event may be gone */
        if (sim_obj_live(w->u.event, SIM_EVENT)) {
            w->u.event->recorded = true;
            w->u.event->ns = start;
        }
    } else {
        q->tail = end;
        if (ctx && ctx->busy_until < end)
            ctx->busy_until = end;
        sim_tool_ran(ctx, (unsigned long long)(uintptr_t)q, w, start, end);
    }
    sim_unlock();
    return end;
}

CUresult sim_enqueue(CUstream stream, const struct sim_work *w, bool wait)
{
    CUcontext ctx;
    const uint32_t corr = sim_tool_enter(w->kind, false);
    sim_lock();
    struct sim_queue *q = sim_stream_queue(stream, &ctx);
    CUresult r = sim_capture_legacy_use(stream, ctx, true);
    if (r == CUDA_SUCCESS && q->capture)
        r = wait ? sim_capture_refuse(q) : sim_capture_add(q->capture, w);
    bool run = r == CUDA_SUCCESS && !q->capture;
    sim_unlock();
    if (run) {
        uint64_t end = sim_work_run(q, ctx, w);
        if (wait)
            sim_sleep_until(end);
    }
    sim_tool_exit(w->kind, false, corr);
    return r;
}

struct sim_work *sim_work_dup(const struct sim_work *w)
{
    struct sim_work *d = malloc(sizeof *d);
    if (!d)
        return NULL;
    *d = *w;
    if (w->kind != SIM_WORK_KERNEL)
        return d;
    size_t *offsets = malloc((w->u.kernel.nparams + 1) * sizeof *offsets);
    unsigned char *params = aligned_alloc(16, (w->u.kernel.param_bytes + 16) & ~(size_t)15);
    if (!offsets || !params) {
        free(offsets);
        free(params);
        free(d);
        return NULL;
    }
    if (w->u.kernel.nparams)
        memcpy(offsets, w->u.kernel.offsets, w->u.kernel.nparams * sizeof *offsets);
    if (w->u.kernel.param_bytes)
        memcpy(params, w->u.kernel.params, w->u.kernel.param_bytes);
    d->u.kernel.offsets = offsets;
    d->u.kernel.params = params;
    return d;
}

void sim_work_free(struct sim_work *w)
{
    if (w && w->kind == SIM_WORK_KERNEL) {
        free((void *)w->u.kernel.offsets);
        free((void *)w->u.kernel.params);
    }
    free(w);
}
