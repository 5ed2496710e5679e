/* Graphs, as stream capture makes them: a list of nodes in capture order. An executable graph is a copy of
 * it; launching one runs its nodes in order on the stream, so its duration is the sum of theirs. Nodes can
 * only come from capture (cuGraphAdd*Node is not simulated). */
#include "config.h"

#include "sim.h"

#include <stdlib.h>

struct CUgraphExec_st {
    struct sim_obj obj;
    size_t count;
    struct sim_work **works;
};

CUgraph sim_graph_new(void)
{
    return calloc(1, sizeof(struct CUgraph_st));
}

CUresult sim_graph_append(CUgraph g, const struct sim_work *w)
{
    if (g->count == g->capacity) {
        size_t cap = g->capacity ? 2 * g->capacity : 8;
        struct CUgraphNode_st **nodes = realloc(g->nodes, cap * sizeof *nodes);
        if (!nodes)
            return CUDA_ERROR_OUT_OF_MEMORY;
        g->nodes = nodes;
        g->capacity = cap;
    }
    struct CUgraphNode_st *n = malloc(sizeof *n);
    if (!n || !(n->work = sim_work_dup(w))) {
        free(n);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    g->nodes[g->count++] = n;
    return CUDA_SUCCESS;
}

void sim_graph_free(CUgraph g)
{
    if (!g)
        return;
    sim_obj_unregister(&g->obj, SIM_GRAPH);
    for (size_t i = 0; i < g->count; i++) {
        sim_work_free(g->nodes[i]->work);
        free(g->nodes[i]);
    }
    free(g->nodes);
    free(g);
}

CUresult cuGraphCreate(CUgraph *phGraph, unsigned int flags)
{
    SIM_REQUIRE_INIT();
    if (!phGraph || flags != 0)
        return CUDA_ERROR_INVALID_VALUE;
    CUgraph g = sim_graph_new();
    if (!g)
        return CUDA_ERROR_OUT_OF_MEMORY;
    sim_obj_register(&g->obj, SIM_GRAPH);
    *phGraph = g;
    return CUDA_SUCCESS;
}

CUresult cuGraphDestroy(CUgraph hGraph)
{
    SIM_REQUIRE_INIT();
    if (!sim_obj_live(hGraph, SIM_GRAPH))
        return CUDA_ERROR_INVALID_VALUE;
    if (hGraph->capturing)
        return CUDA_ERROR_ILLEGAL_STATE;
    sim_graph_free(hGraph);
    return CUDA_SUCCESS;
}

/* NULL nodes: the count only. Otherwise up to *numNodes handles; slots past the count are set to NULL and
 * *numNodes to the count, as the driver does. */
CUresult cuGraphGetNodes(CUgraph hGraph, CUgraphNode *nodes, size_t *numNodes)
{
    SIM_REQUIRE_INIT();
    if (!numNodes || !sim_obj_live(hGraph, SIM_GRAPH))
        return CUDA_ERROR_INVALID_VALUE;
    sim_lock();
    if (nodes) {
        for (size_t i = 0; i < *numNodes; i++)
            nodes[i] = i < hGraph->count ? hGraph->nodes[i] : NULL;
        if (*numNodes > hGraph->count)
            *numNodes = hGraph->count;
    } else {
        *numNodes = hGraph->count;
    }
    sim_unlock();
    return CUDA_SUCCESS;
}

static void exec_free(CUgraphExec e)
{
    for (size_t i = 0; i < e->count; i++)
        sim_work_free(e->works[i]);
    free(e->works);
    free(e);
}

static CUresult instantiate(CUgraphExec *exec, CUgraph g, unsigned long long flags)
{
    SIM_REQUIRE_INIT();
    const unsigned long long known = CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH |
                                     CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD | CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH |
                                     CUDA_GRAPH_INSTANTIATE_FLAG_USE_NODE_PRIORITY;
    if (!exec || !sim_obj_live(g, SIM_GRAPH) || (flags & ~known))
        return CUDA_ERROR_INVALID_VALUE;
    struct CUgraphExec_st *e = calloc(1, sizeof *e);
    if (!e)
        return CUDA_ERROR_OUT_OF_MEMORY;
    sim_lock();
    e->works = calloc(g->count + 1, sizeof *e->works);
    for (size_t i = 0; e->works && i < g->count; i++, e->count++)
        if (!(e->works[i] = sim_work_dup(g->nodes[i]->work)))
            break;
    bool complete = e->works && e->count == g->count;
    sim_unlock();
    if (!complete) {
        exec_free(e);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    sim_obj_register(&e->obj, SIM_GRAPH_EXEC);
    *exec = e;
    return CUDA_SUCCESS;
}

CUresult cuGraphInstantiate(CUgraphExec *phGraphExec, CUgraph hGraph, CUgraphNode *phErrorNode, char *logBuffer,
                            size_t bufferSize)
{
    (void)phErrorNode;
    if (logBuffer && bufferSize)
        logBuffer[0] = '\0';
    return instantiate(phGraphExec, hGraph, 0);
}

CUresult cuGraphInstantiate_v2(CUgraphExec *phGraphExec, CUgraph hGraph, CUgraphNode *phErrorNode,
                               char *logBuffer, size_t bufferSize)
{
    (void)phErrorNode;
    if (logBuffer && bufferSize)
        logBuffer[0] = '\0';
    return instantiate(phGraphExec, hGraph, 0);
}

CUresult cuGraphInstantiateWithFlags(CUgraphExec *phGraphExec, CUgraph hGraph, unsigned long long flags)
{
    return instantiate(phGraphExec, hGraph, flags);
}

CUresult cuGraphExecDestroy(CUgraphExec hGraphExec)
{
    SIM_REQUIRE_INIT();
    if (!hGraphExec || !sim_obj_unregister(&hGraphExec->obj, SIM_GRAPH_EXEC))
        return CUDA_ERROR_INVALID_VALUE;
    exec_free(hGraphExec);
    return CUDA_SUCCESS;
}

/* Launching into a capture (a child-graph node on the real driver) is not simulated: refused. */
static CUresult launch(CUgraphExec e, CUstream stream)
{
    CUresult r = sim_stream_check(stream);
    if (r != CUDA_SUCCESS)
        return r;
    if (!sim_obj_live(e, SIM_GRAPH_EXEC))
        return CUDA_ERROR_INVALID_VALUE;
    CUcontext ctx;
    const uint32_t corr = sim_tool_enter(SIM_WORK_KERNEL, true);
    sim_lock();
    struct sim_queue *q = sim_stream_queue(stream, &ctx);
    r = sim_capture_legacy_use(stream, ctx, true);
    if (r == CUDA_SUCCESS && q->capture)
        r = sim_capture_refuse(q);
    sim_unlock();
    for (size_t i = 0; r == CUDA_SUCCESS && i < e->count; i++)
        sim_work_run(q, ctx, e->works[i]);
    sim_tool_exit(SIM_WORK_KERNEL, true, corr);
    return r;
}

CUresult cuGraphLaunch(CUgraphExec hGraphExec, CUstream hStream)
{
    return launch(hGraphExec, hStream);
}

CUresult cuGraphLaunch_ptsz(CUgraphExec hGraphExec, CUstream hStream)
{
    return launch(hGraphExec, SIM_PTSZ(hStream));
}
