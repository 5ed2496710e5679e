/* What a profiling tool sees of the simulated driver (tools.c): the simulated libcupti (cupti.c) attaches with
 * cuSimToolAttach, the one private export of libcuda.so.1.  A call that makes GPU work (a launch, copy, set or
 * graph launch) gets a correlation id, announced to the tool as it starts and ends; each kernel, copy and set
 * the device runs is then reported with its place on the device timeline and the call's id.  Shared by both
 * libraries: plain C types only. */
#ifndef SIMDRIVER_TOOL_H
#define SIMDRIVER_TOOL_H

#include <stdint.h>

enum sim_tool_kind { SIM_TOOL_KERNEL = 1, SIM_TOOL_COPY = 2, SIM_TOOL_SET = 3 };
enum sim_tool_mem { SIM_TOOL_PAGEABLE = 1, SIM_TOOL_PINNED = 2, SIM_TOOL_DEVICE = 3, SIM_TOOL_MANAGED = 5 };

struct sim_tool_work {
    int kind;                     /* enum sim_tool_kind */
    uint32_t corr;                /* the call's correlation id */
    uint32_t graph;               /* non-zero: a node of a graph launch (the graph's id) */
    uint32_t ctx_id, stream_id;   /* stream ids are unique within the process */
    int device;
    uint64_t start_ns, end_ns;    /* CLOCK_MONOTONIC, the device timeline's clock */
    const char *name;             /* kernels: the entry's name, valid while its module is loaded */
    uint32_t grid[3], block[3];
    uint64_t bytes;
    int src, dst;                 /* copies: enum sim_tool_mem; sets: dst */
    int async;
};

struct sim_tool {
    /* A call that makes GPU work starts (exit 0) or ends (exit 1); `name` is its function as CUPTI names it. */
    void (*api)(int exit, const char *name, uint32_t corr);
    void (*work)(const struct sim_tool_work *w);
};

/* libcuda.so.1's private export: attach (or, with NULL, detach) the tool. */
typedef void (*sim_tool_attach_fn)(const struct sim_tool *tool);
#define SIM_TOOL_ATTACH "cuSimToolAttach"

#endif
