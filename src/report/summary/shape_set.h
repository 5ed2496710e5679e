/* The distinct launch shapes (grid and block) of one kernel, with the calls of each: the host kernels
 * table's kernel_shapes, and the groups over which the GPU kernels table estimates a sampled kernel's total
 * (gpu_tables.c).  A kernel has a handful of shapes, so a list with the last hit tried first. */
#ifndef CT_REPORT_SUMMARY_SHAPE_SET_H
#define CT_REPORT_SUMMARY_SHAPE_SET_H

#include <stddef.h>
#include <stdint.h>

/* Calls of one group: all of them, those timed on the GPU, and their GPU time. */
/* A group's calls, those timed, their GPU time, and the same weighed: a span timed as one of N sampled calls
 * (CT_GPU_SPAN_SAMPLED) weighs N, any other 1, so that the first timings of each kind, which every kind
 * gets, do not outweigh the rest in a mean. */
struct rp_timed_count {
    uint64_t n, timed, timed_ns;
    double weight, weighed_ns;
};

struct rp_shape {
    uint32_t grid[3], block[3];
    struct rp_timed_count c;
};

struct rp_shape_set {
    struct rp_shape *v;
    size_t n, cap, last;
};

/* The entry of (grid, block), added with zero counts on first sight; NULL when out of memory. */
struct rp_shape *rp_shape_set_get(struct rp_shape_set *s, const uint32_t grid[3], const uint32_t block[3]);
void rp_shape_set_free(struct rp_shape_set *s);

/* A group's share of an estimated total: its GPU time when every call was timed, else the weighed mean of
 * its timed calls (or, with none timed, `fallback_mean`) times its calls. */
double rp_timed_count_estimate(const struct rp_timed_count *c, double fallback_mean);

#endif
