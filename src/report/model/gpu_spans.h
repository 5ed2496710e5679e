/* The GPU spans of one trace file (format 5, format/gpu.h), kept for the join with their calls.
 *
 * A span is written after its call, once its events completed, often many records later, so the merge of
 * calls cannot meet it in passing.  Pass 1 (trace.h) keeps each file's spans, sorted by sequence number once
 * the file is read; pass 2 (rp_merge_next) finds a launch's or copy's span by its sequence number, trying
 * first the entry after the last one found (calls in time order come nearly in sequence order), then a
 * binary search.  Memory: sizeof(struct rp_gpu_span), 40 bytes, per span; nothing per untimed call.  What
 * the GPU tables group by is taken from the call (the same names as the host tables). */
#ifndef CT_REPORT_MODEL_GPU_SPANS_H
#define CT_REPORT_MODEL_GPU_SPANS_H

#include <stddef.h>
#include <stdint.h>

#include "format/gpu.h"

struct rp_gpu_span {
    uint64_t seq;
    uint64_t start_ns, end_ns; /* the file's clock */
    uint64_t stream;
    int32_t device;            /* -1 if not known */
};

struct rp_gpu_spans {
    struct rp_gpu_span *v; /* by seq once finished */
    size_t n, cap;
};

/* While reading a file: 0, or -1 when out of memory. */
int rp_gpu_spans_add(struct rp_gpu_spans *s, const struct ct_gpu_span *g);
/* Done reading: sort by seq. */
void rp_gpu_spans_finish(struct rp_gpu_spans *s);
/* The span of call `seq`, or NULL; *hint (0 to begin with) is the caller's, one per file. */
const struct rp_gpu_span *rp_gpu_spans_find(const struct rp_gpu_spans *s, uint64_t seq, size_t *hint);
void rp_gpu_spans_free(struct rp_gpu_spans *s);

/* How a file's calls were chosen for GPU timing, in words: "off", "all", "sample: the first K calls of each
 * kind, then 1 in N" (CUDATRACE_GPU_TIME), into buf. */
const char *rp_gpu_mode_text(const struct ct_gpu_info *g, char *buf, size_t size);

#endif
