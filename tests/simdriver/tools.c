/* What a profiling tool sees (tool.h): correlation ids of the calls that make GPU work, and a report of each
 * kernel, copy and set run.  Nothing is done while no tool is attached. */
#include "config.h"

#include "sim.h"
#include "tool.h"

#include <stdatomic.h>

static const struct sim_tool *_Atomic tool;
static _Atomic uint32_t last_corr, last_graph;
/* The call in progress on this thread, and its graph while a graph launch runs its nodes.  A signal handler's
 * call inside one (a copy waiting for its end) is a call of its own, with its own id, as CUPTI gives it: the
 * calls it interrupted wait on a stack. */
static __thread uint32_t cur_corr, cur_graph;
#define NEST 8
static __thread struct {
    uint32_t corr, graph;
} outer[NEST];
static __thread unsigned nest;

CUresult cuSimToolAttach(const struct sim_tool *t);
CUresult cuSimToolAttach(const struct sim_tool *t)
{
    atomic_store(&tool, t);
    return CUDA_SUCCESS;
}

static const char *api_name(enum sim_work_kind kind, bool graph)
{
    if (graph)
        return "cuGraphLaunch";
    switch (kind) {
    case SIM_WORK_KERNEL: return "cuLaunchKernel";
    case SIM_WORK_COPY: return "cuMemcpyAsync";
    case SIM_WORK_SET: return "cuMemsetD8Async";
    default: return NULL;
    }
}

uint32_t sim_tool_enter(enum sim_work_kind kind, bool graph)
{
    const struct sim_tool *t = atomic_load(&tool);
    const char *name = api_name(kind, graph);
    if (!t || !name || nest == NEST)
        return 0;
    outer[nest].corr = cur_corr, outer[nest].graph = cur_graph;
    nest++;
    cur_corr = atomic_fetch_add(&last_corr, 1) + 1;
    cur_graph = graph ? atomic_fetch_add(&last_graph, 1) + 1 : 0;
    t->api(0, name, cur_corr);
    return cur_corr;
}

void sim_tool_exit(enum sim_work_kind kind, bool graph, uint32_t corr)
{
    const struct sim_tool *t = atomic_load(&tool);
    if (!corr)
        return;
    if (t)
        t->api(1, api_name(kind, graph), corr);
    /* SIM_CUPTI_EXIT_DELAY_MS: the calling thread is taken off its CPU between the tool's exit callback and
     * its return to the caller (a CUPTI client files the id it was given only then). */
    if (t && sim_config()->exit_delay_ns)
        sim_sleep_until(sim_now_ns() + sim_config()->exit_delay_ns);
    nest--;
    cur_corr = outer[nest].corr, cur_graph = outer[nest].graph;
}

static int mem_of(uintptr_t p)
{
    const struct sim_alloc *a = sim_mem_find(p, 1);
    if (!a)
        return SIM_TOOL_PAGEABLE;
    switch (a->kind) {
    case SIM_MEM_HOST:
    case SIM_MEM_REGISTERED: return SIM_TOOL_PINNED;
    case SIM_MEM_MANAGED: return SIM_TOOL_MANAGED;
    default: return SIM_TOOL_DEVICE;
    }
}

void sim_tool_ran(CUcontext ctx, unsigned long long stream_id, const struct sim_work *w, uint64_t start, uint64_t end)
{
    const struct sim_tool *t = atomic_load(&tool);
    if (!t || w->kind == SIM_WORK_EVENT || w->kind == SIM_WORK_HOST)
        return;
    struct sim_tool_work r = {.corr = cur_corr, .graph = cur_graph, .ctx_id = ctx ? (uint32_t)ctx->id : 0,
                              .stream_id = (uint32_t)stream_id, .device = ctx ? ctx->device : 0,
                              .start_ns = start, .end_ns = end};
    switch (w->kind) {
    case SIM_WORK_KERNEL:
        r.kind = SIM_TOOL_KERNEL;
        r.name = w->u.kernel.name;
        r.grid[0] = w->u.kernel.geometry.grid.x, r.grid[1] = w->u.kernel.geometry.grid.y;
        r.grid[2] = w->u.kernel.geometry.grid.z;
        r.block[0] = w->u.kernel.geometry.block.x, r.block[1] = w->u.kernel.geometry.block.y;
        r.block[2] = w->u.kernel.geometry.block.z;
        break;
    case SIM_WORK_COPY:
        r.kind = SIM_TOOL_COPY;
        r.bytes = (uint64_t)w->u.copy.width * w->u.copy.height * (w->u.copy.depth ? w->u.copy.depth : 1);
        r.src = mem_of(w->u.copy.src);
        r.dst = mem_of(w->u.copy.dst);
        break;
    default:
        r.kind = SIM_TOOL_SET;
        r.bytes = (uint64_t)w->u.set.width * w->u.set.height * w->u.set.size;
        r.dst = mem_of(w->u.set.dst);
        break;
    }
    t->work(&r);
}
