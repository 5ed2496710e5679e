/* The GPU tables' state (gpu_tables.h), per file or merged: gpu_tables.c fills and prints it, partial.c
 * writes and reads it. */
#ifndef CT_REPORT_SUMMARY_GPU_AGG_H
#define CT_REPORT_SUMMARY_GPU_AGG_H

#include <stddef.h>
#include <stdint.h>

#include "report/model/args.h"
#include "report/model/map.h"
#include "report/summary/parts.h"
#include "report/summary/shape_set.h"

/* What gpu_kernels and gpu_copies_time rows share, first in both. */
struct timed_row {
    struct rp_named_stats ns; /* GPU time of the timed calls */
    uint64_t count;           /* every successful call (a graph's: every kernel, copy and set it ran) */
    double weight, weighed_ns; /* the timed calls' weighed GPU time (rp_timed_count): the row's mean */
    double est;               /* estimated total GPU time of them all (set before printing) */
};

struct gpu_kernel {
    struct timed_row r;
    struct rp_shape_set shapes; /* the estimate's groups */
};

#define SIZE_CLASSES 65 /* 0 bytes, then [2^(i-1), 2^i) */

struct gpu_copy {
    struct timed_row r;
    struct rp_stats bytes; /* every call's */
    struct rp_timed_count size_class[SIZE_CLASSES];
};

struct rp_gpu_agg {
    int enabled, sample_mode;
    int device; /* RP_GPU_ALL_DEVICES, or the one device whose spans count */
    struct gpu_kernel *kern;
    size_t nkern, ckern;
    struct rp_strmap kern_by_name;
    struct rp_u64map kern_of; /* (name id or graph handle, file * 2 + is a graph) -> row */
    struct rp_kernel_names knames;
    struct gpu_copy *copy;
    size_t ncopy, ccopy;
    struct rp_strmap copy_by_op;
};

#endif
