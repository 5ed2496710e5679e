/* What the summary aggregates from calls, per file or merged: the host tables' rows (api, kernels and their
 * shapes, copies, errors), the memory tracker and the GPU tables' state (gpu_tables.h).  cmd/summary.c fills
 * and prints it; partial.c writes and reads it (summary --partial, doc/partials.md). */
#ifndef CT_REPORT_SUMMARY_AGG_H
#define CT_REPORT_SUMMARY_AGG_H

#include <stddef.h>
#include <stdint.h>

#include "report/model/args.h"
#include "report/model/map.h"
#include "report/model/memory.h"
#include "report/summary/parts.h"
#include "report/summary/shape_set.h"

struct rp_gpu_agg;

struct kernel_row {
    struct rp_named_stats ns;
    struct rp_shape_set shapes;
};

struct copy_row {
    struct rp_named_stats ns; /* name: the operation (rp_copy_operation); st: host time */
    struct rp_stats bytes;
};

struct error_row {
    const char *api; /* the api row's name (rows are sorted before errors print; names stay put) */
    int32_t result;
    uint64_t n;
};

/* A file's api_id -> row + 1 (0: not looked up yet), as large as its highest id seen: ids are the
 * tracer's few hundred variants, and a job may bring thousands of files. */
struct api_tab {
    int32_t *row;
    size_t cap;
};

struct rp_agg {
    struct rp_named_stats *api;
    size_t napi, capi;
    struct rp_strmap api_by_name;
    struct api_tab *api_of_file; /* nfiles of them */
    size_t nfiles;

    struct kernel_row *kern;
    size_t nkern, ckern;
    struct rp_strmap kern_by_name;
    struct rp_u64map kern_of_file; /* (name_id, file) -> row */
    struct rp_kernel_names knames;

    struct copy_row *copy;
    size_t ncopy, ccopy;
    struct rp_strmap copy_by_op;

    struct error_row *err;
    size_t nerr, cerr;
    struct rp_u64map err_of; /* (api row, result) -> row */

    struct rp_memtrack mem;
    struct rp_gpu_agg *gpu;
    unsigned need; /* the sections aggregated (SEC_*): a job of a million kernel names pays for their rows
                      only when a table shows them */
    int oom;
};

void rp_agg_free(struct rp_agg *a);
/* Free what only taking calls needs (look-ups by file and id, by name, the live allocations): an aggregate
 * kept to be merged later (summary -j, partials) costs its rows and memory changes only.  It takes no call
 * after; merged into, it finds its rows by name again. */
void rp_agg_compact(struct rp_agg *a);

#endif
