/* The summary's GPU tables, from the GPU spans (format 5) joined to their calls (gpu_spans.h):
 *   gpu_kernels      nsys cuda_gpu_kern_sum: GPU time per kernel (graph launches timed by events: a row per
 *                    graph; by CUPTI's activity records, each kernel of the graph in its own row)
 *   gpu_copies_time  nsys cuda_gpu_mem_time_sum: GPU time per copy operation
 *   gpu_copies_size  nsys cuda_gpu_mem_size_sum: bytes per copy operation, in MB (10^6 bytes)
 * and the header's lines on how GPU time was taken.
 *
 * Rows are keyed by the call (kernel name, graph handle, copy operation: the host tables' names), so they
 * count every successful launch or copy, timed or not.  When a table's calls were not all timed (sampling,
 * or calls left untimed), it adds a Timed column and estimates totals: per group (a kernel's grid and
 * block; an operation's power-of-two size class, as the recorder samples by kind) the weighed mean GPU time
 * of its timed calls (a span timed as one of N sampled calls weighs N: rp_timed_count) times its calls; a
 * group with no timed call takes the weighed mean of all its row's timed calls.  Avg is then the estimate
 * over the calls; Med, Min, Max and StdDev are over the timed calls only.  A row with no timed call at all
 * shows its count and leaves the times empty.  Calls timed by CUPTI's activity records (every one) without a
 * span are not counted: what they ran was not seen. */
#ifndef CT_REPORT_SUMMARY_GPU_TABLES_H
#define CT_REPORT_SUMMARY_GPU_TABLES_H

#include "report/summary/parts.h"
#include "report/model/table.h"
#include "report/model/trace.h"

struct rp_gpu_agg;

/* NULL when out of memory.  `enabled`: some input used GPU time (rp_sum_input_gpu_on); without, the agg
 * collects nothing and its tables are empty.  `sample_mode`: some input sampled (its tables show the Timed
 * column).  device >= -1: the spans of that device only (calls not timed, whose device is not known, are
 * left out); RP_GPU_ALL_DEVICES: everything. */
#define RP_GPU_ALL_DEVICES (-2)
struct rp_gpu_agg *rp_gpu_agg_new(int enabled, int sample_mode, int device);
/* The modes of a report's inputs, as rp_gpu_agg_new takes them. */
struct rp_sum_input;
void rp_gpu_modes(const struct rp_sum_input *in, size_t n, int *enabled, int *sample_mode);
/* Set the modes of an agg made enabled for one file of several (summary -j, partials) from all of them: not
 * enabled, its rows go. */
void rp_gpu_agg_set_modes(struct rp_gpu_agg *g, int enabled, int sample_mode);
/* A call that returned CUDA_SUCCESS, in any order.  0, or -1 when out of memory. */
int rp_gpu_agg_call(struct rp_gpu_agg *g, const struct rp_call *c);
/* The spans no recorded call made (CUPTI's activity records of calls made untraced: CT_GPU_SPAN_NO_CALL),
 * once, after the calls.  0, or -1 when out of memory. */
int rp_gpu_agg_no_call(struct rp_gpu_agg *g, const struct rp_trace *tr);
/* Add src's rows to dst's (by name; src unchanged), as if dst had been fed src's calls: the tables of files
 * aggregated apart (summary -j, partials).  0, or -1 when out of memory. */
int rp_gpu_agg_merge(struct rp_gpu_agg *dst, const struct rp_gpu_agg *src);
/* The devices the inputs' spans ran on, ascending, into a malloc'ed array (*n of them); NULL when none or out
 * of memory (*n 0). */
int *rp_gpu_devices(const struct rp_sum_input *in, size_t nin, size_t *n);
void rp_gpu_agg_free(struct rp_gpu_agg *g);
/* Free what only taking calls needs (the look-ups by file and id): an agg kept to be merged (-j, partials)
 * costs its rows only.  It takes no call after. */
void rp_gpu_agg_compact(struct rp_gpu_agg *g);

void rp_gpu_print_kernels(struct rp_sum_out *o, struct rp_gpu_agg *g);
void rp_gpu_print_copies_time(struct rp_sum_out *o, struct rp_gpu_agg *g);
void rp_gpu_print_copies_size(struct rp_sum_out *o, struct rp_gpu_agg *g);

/* --by: each kernel's GPU time of its timed launches, into the spread table (by_group.h) as group `group`'s.
 * 0 or -1 (out of memory). */
struct rp_spread;
int rp_gpu_spread(const struct rp_gpu_agg *g, struct rp_spread *s, size_t group);

/* The header's rows: "GPU time" (the mode, or "no GPU spans"), and unless it is off, the spans, the calls
 * left untimed by cause and the spans not completed, summed over the files. */
void rp_gpu_header_rows(struct rp_table *t, const struct rp_sum_input *in, size_t n);

#endif
