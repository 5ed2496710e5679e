/* What the summary needs of each of its input files beyond the calls' tables: the header's facts, the
 * clocks, the functions counted, GPU timing, the NVTX ranges' rows, the group keys of --by.  Taken from a
 * trace file read (rp_sum_input_of_file) or from a partial (partial.h), so that the header, nvtx and
 * api_counted tables print the same from either. */
#ifndef CT_REPORT_SUMMARY_INPUTS_H
#define CT_REPORT_SUMMARY_INPUTS_H

#include <stddef.h>
#include <stdint.h>

#include "report/model/map.h"
#include "report/model/trace.h"
#include "report/summary/parts.h"

struct rp_counted_name {
    char *name; /* as the api table names it */
    uint64_t count;
};

struct rp_sum_input {
    char *path, *host, *cmdline;
    uint32_t pid, features, format_version;
    char tracer_version[17];
    int64_t start_wall_ns, start_mono_ns;
    int32_t driver_version;
    struct rp_device *devices;
    size_t ndevices;
    uint64_t calls, lost, untraced, records; /* records: all read, to keep the fuller of two copies */
    struct rp_counted_name *counted;         /* by first appearance */
    size_t ncounted;
    int has_end;
    int64_t end_mono_ns;
    uint64_t first_t0, last_t1;              /* the calls' extent, file clock (first > last: none) */
    struct ct_rank rank;
    int has_gpu_info;
    struct ct_gpu_info gpu_info;
    uint64_t gpu_spans;
    int32_t *span_devices;                   /* the devices its spans ran on, ascending */
    size_t nspan_devices;
    char *damage;                            /* the reader's message where the file is truncated or corrupt */
    struct rp_named_rows nvtx;
    int64_t clock_offset;                    /* set by rp_sum_inputs_align */
};

/* 0, or -1 when out of memory. */
int rp_sum_input_of_file(struct rp_sum_input *in, const struct rp_file *f);
void rp_sum_input_free(struct rp_sum_input *in);
/* The clock offsets of the inputs and the report's start and end (trace.h's rule).  0 or -1. */
int rp_sum_inputs_align(struct rp_sum_input *in, size_t n, int64_t *start_ns, int64_t *end_ns);
/* Did the input's process use GPU time (spans, or a gpu-info record of a mode other than off)? */
int rp_sum_input_gpu_on(const struct rp_sum_input *in);

#endif
