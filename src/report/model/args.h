/* A call's decoded arguments (sizes, pointers, grid/block, kernel name, stream, direction) as key/value
 * pairs, written as "key=value" text or as a JSON object: shared by calls and the exports. */
#ifndef CT_REPORT_MODEL_ARGS_H
#define CT_REPORT_MODEL_ARGS_H

#include <stdio.h>

#include "report/model/map.h"
#include "report/model/text.h"
#include "report/model/trace.h"

/* Demangled kernel names, each demangled once per (file, string id). */
struct rp_kernel_names {
    struct rp_u64map ids; /* (id, file) -> index + 1 */
    char **names;
    size_t n, cap;
};
/* The demangled kernel name of a launch ("[graph]" and the like when it has none); NULL if out of memory. */
const char *rp_kernel_name(struct rp_kernel_names *k, const struct rp_call *c);
/* The same of kernel name `id` of launch kind `kind` in file f (index fi). */
const char *rp_kernel_name_of(struct rp_kernel_names *k, const struct rp_file *f, size_t fi, uint32_t id,
                              unsigned kind);
void rp_kernel_names_free(struct rp_kernel_names *k);
/* What a launch or copy has the GPU do, as the GPU tables and the timeline name it: the kernel's name
 * (rp_kernel_name), "[CUDA graph 0xHANDLE]" for a graph launch (each graph its own row: graphs differ as
 * much as kernels do), or the copy's operation (rp_copy_operation).  NULL if out of memory. */
const char *rp_gpu_work_name(struct rp_kernel_names *k, const struct rp_call *c, char *buf, size_t size);
/* The same of a launch's kernel name id and kind (a graph launch: "[CUDA graph 0xHANDLE]"). */
const char *rp_launch_work_name(struct rp_kernel_names *k, const struct rp_file *f, size_t fi, uint32_t name_id,
                                unsigned kind, uint64_t graph, char *buf, size_t size);
/* The kind of that work, as the exports' categories name it: rp_gpu_work_kinds[kind] is "kernel", "graph" or
 * "copy". */
enum rp_gpu_work { RP_GPU_KERNEL, RP_GPU_GRAPH, RP_GPU_COPY };
enum rp_gpu_work rp_gpu_work_kind(const struct rp_call *c);
extern const char *const rp_gpu_work_kinds[];
/* The same of span i of a timed call: what the call has the GPU do, or, for a span that keeps what it ran (a
 * kernel, copy or set of a graph timed by CUPTI, gpu_spans.h), that. */
const char *rp_gpu_span_name(struct rp_kernel_names *k, const struct rp_call *c, size_t i, char *buf, size_t size);
enum rp_gpu_work rp_gpu_span_kind(const struct rp_call *c, size_t i);
/* The timeline's names of a timed call's device ("GPU 0", "GPU ?" when not known) and stream
 * ("stream 0x7f00..", with " (pid P)" when several files are merged: stream handles are per process), shared
 * by the Chrome and Perfetto exports; buf of 64 bytes. */
const char *rp_gpu_device_label(int32_t device, char *buf, size_t size);
const char *rp_gpu_stream_label(const struct rp_trace *t, const struct rp_call *c, char *buf, size_t size);

/* The display name of the call's API (display_names.h rule) into buf; "api#ID" when its API record was lost. */
const char *rp_call_api_name(const struct rp_call *c, char *buf, size_t size);
/* The same for API id `api_id` of file f. */
const char *rp_file_api_name(const struct rp_file *f, uint16_t api_id, char *buf, size_t size);
/* The name of a call's slice on a timeline (Chrome, Perfetto): its API's display name, and for a launch the
 * kernel's ("?" when unnamed), which is what people look for there. */
const char *rp_call_timeline_name(struct rp_kernel_names *k, const struct rp_call *c, char *buf, size_t size);
/* The exported variant ("cuMemAlloc_v2"), "" if unknown. */
const char *rp_call_variant(const struct rp_call *c);

/* "bytes=4096 address=0x7f00 kind=device ..." (nothing for calls without a payload). */
void rp_args_text(FILE *out, const struct rp_call *c, struct rp_kernel_names *k);
/* The members of a JSON object, each preceded by a comma: ,"bytes":4096,"address":"0x7f00",... */
void rp_args_json(FILE *out, const struct rp_call *c, struct rp_kernel_names *k);

/* A timed call's GPU start (since the trace start, `rel` being the call's) and GPU duration in `u`, into
 * start and dur (48 bytes each); both "" when the call was not timed. */
void rp_gpu_times(const struct rp_call *c, int64_t rel, const struct rp_timeunit *u, char *start, char *dur);

/* One call as a JSON object on one line: start (since the trace start) and duration in `u`, pid, tid, seq,
 * name, variant, result, result_name, args, and for a call timed on the GPU "gpu":{start, duration (in `u`),
 * device, stream}; `type` (may be NULL) adds a leading "type" member; `stack` (may be NULL) a "stack" array
 * of frames (frames.h). */
void rp_call_json(FILE *out, const struct rp_call *c, int64_t rel, const struct rp_timeunit *u,
                  struct rp_kernel_names *k, const char *type, const struct rp_stack *stack);

#endif
