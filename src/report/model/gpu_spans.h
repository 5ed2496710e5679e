/* The GPU spans of one trace file (format 5, format/gpu.h), kept for the join with their calls.
 *
 * A span is written after its call, once its work completed, often many records later, so the merge of
 * calls cannot meet it in passing.  Pass 1 (trace.h) keeps each file's spans, sorted by sequence number once
 * the file is read; pass 2 (rp_merge_next) finds a launch's or copy's spans by its sequence number, trying
 * first the entry after the last one found (calls in time order come nearly in sequence order), then a
 * binary search.  A call has one span, or (CUPTI's activity records of a graph launch) one per kernel, copy
 * and set the graph ran; a span without a call (CT_GPU_SPAN_NO_CALL) has sequence number 0.  What the GPU
 * tables group by is taken from the call (the same names as the host tables), but for those two kinds,
 * whose spans keep what ran (own).  Memory: sizeof(struct rp_gpu_span), 48 bytes, per span, and
 * sizeof(struct rp_gpu_ran) more per graph or call-less span; nothing per untimed call. */
#ifndef CT_REPORT_MODEL_GPU_SPANS_H
#define CT_REPORT_MODEL_GPU_SPANS_H

#include <stddef.h>
#include <stdint.h>

#include "cudatrace/format.h"
#include "format/gpu.h"

struct rp_gpu_span {
    uint64_t seq;
    uint64_t start_ns, end_ns; /* the file's clock */
    uint64_t stream;
    int32_t device;            /* -1 if not known */
    uint8_t flags;             /* CT_GPU_SPAN_* */
    uint32_t own;              /* a graph's or a call-less span: 1 + its index in rp_gpu_spans.own; else 0 */
};

/* What a span ran, where the call does not say it. */
struct rp_gpu_ran {
    uint8_t family;            /* CT_FAM_LAUNCH or CT_FAM_COPY */
    uint32_t name_id, launch_kind, grid[3], block[3];
    uint64_t bytes;
    uint32_t copy_flags;
    uint16_t src_kind, dst_kind;
};

struct rp_gpu_spans {
    struct rp_gpu_span *v; /* by seq once finished */
    size_t n, cap;
    struct rp_gpu_ran *own;
    size_t nown, cown;
};

/* While reading a file: 0, or -1 when out of memory. */
int rp_gpu_spans_add(struct rp_gpu_spans *s, const struct ct_gpu_span *g);
/* Done reading: sort by seq. */
void rp_gpu_spans_finish(struct rp_gpu_spans *s);
/* The first span of call `seq`, or NULL, and in *count how many there are (contiguous); *hint (0 to begin
 * with) is the caller's, one per file. */
const struct rp_gpu_span *rp_gpu_spans_find(const struct rp_gpu_spans *s, uint64_t seq, size_t *hint, size_t *count);
/* What span sp ran (its own record), NULL when the call says it. */
static inline const struct rp_gpu_ran *rp_gpu_span_own(const struct rp_gpu_spans *s, const struct rp_gpu_span *sp)
{
    return sp->own ? &s->own[sp->own - 1] : NULL;
}
void rp_gpu_spans_free(struct rp_gpu_spans *s);

/* How a file's calls were timed on the GPU, in words, into buf: what timed them ("CUPTI activity records:
 * every kernel, copy and set", "timing events: the first K calls of each kind, then 1 in N", "off") and,
 * when it stepped back from CUPTI, why and when ("... (from 12.3 s: the program uses CUPTI)"); start_ns is
 * the file's start on its clock. */
const char *rp_gpu_mode_text(const struct ct_gpu_info *g, uint64_t start_ns, char *buf, size_t size);
/* Was a call at time t (the file's clock) of a file with this GPU info timed by CUPTI's activity records,
 * which time every call's work: a call without a span then had none (or its record was lost)? */
static inline int rp_gpu_by_activity(const struct ct_gpu_info *g, uint64_t t)
{
    return g->source == CT_GPU_SRC_ACTIVITY || (g->why == CT_GPU_WHY_PROGRAM && t < g->source_ns);
}

#endif
