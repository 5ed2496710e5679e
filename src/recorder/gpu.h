/* GPU time, the recorder's part (the timing itself is src/gputime's): the settings in effect, the counts
 * that CT_REC_GPU_INFO reports, and the spans waiting to be written.  Spans are made wherever GPU time reads
 * what completed (the collector the client lent, variants.h, which the drain runs; or a thread about to
 * destroy a context), queued here, and written by the drain after the rings it took them before, so a span
 * follows its call in the file. */
#ifndef CT_RECORDER_GPU_H
#define CT_RECORDER_GPU_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "cudatrace/format.h"
#include "recorder/hot.h"

/* enum ct_gpu_time_mode in effect: CT_GPU_OFF until the recorder starts, and where nothing can time (the
 * client lent no GPU time, or it could not start).  Read by every launch and copy trampoline. */
#define ct_gpu_mode (ct_hot.gpu_mode) /* hot.h */
/* Sample mode: a thread times the first CT_GPU_SAMPLE_K calls of each kind, then 1 in ct_gpu_sample_n.
 * Eight: the first launches of a kernel pay for module loading and cold caches, so a kind needs a few more
 * to show its usual time, and eight per kind keeps a program of many kinds cheap. */
#define CT_GPU_SAMPLE_K 8u
extern unsigned ct_gpu_sample_n;

/* What could not be timed, and what was (CT_REC_GPU_INFO). */
struct ct_gpu_counts {
    _Atomic uint64_t timed, not_completed, untimed_pool, untimed_refused, untimed_capture, no_call, dropped;
};
extern struct ct_gpu_counts ct_gpu_counts;

/* lifecycle.c, at start: the settings in effect (CUDATRACE_GPU_TIME: enum ct_gpu_request; CUDATRACE_GPU_SAMPLE;
 * CUDATRACE_CUPTI, "" for none), the client's GPU time started, and the opening CT_REC_GPU_INFO. */
void ct_gpu_start(int request, unsigned sample_n, const char *cupti);
/* GPU time (src/gputime): what times calls from now on (enum ct_gpu_source) and why (enum ct_gpu_why).  At
 * start (now 0), inside the client's gpu_start; later (now 1: a CUPTI hand-over) with a CT_REC_GPU_INFO that
 * says when. */
void ct_gpu_set_source(unsigned source, unsigned why, int now);
/* GPU time, when its source changes: which calls are timed from now on (enum ct_gpu_time_mode). */
void ct_gpu_set_mode(int mode);
/* Was GPU time ever on in this process?  Collections and the closing CT_REC_GPU_INFO go on after the mode
 * turned off (CUDATRACE_GPU_TIME=activity when the program takes CUPTI): what was timed before is still to
 * be read.  Async-signal-safe. */
int ct_gpu_was_on(void);
/* Queue one span (any thread, not in a signal handler).  -1 when out of memory (counted not completed). */
int ct_gpu_queue(const struct ct_rec_gpu *g);
/* Queue n spans under one lock: a collector's batch.  -1 when out of memory (all n counted not completed). */
int ct_gpu_queue_many(const struct ct_rec_gpu *g, size_t n);
/* The writer's thread, before each drain: collect what completed into the queue. */
void ct_gpu_collect_soon(void);
/* drain.c, before the rings: take the queued spans (when `final`, after the last collection), whose calls
 * are all in the rings by then; after the rings: write them, and when `final` the closing CT_REC_GPU_INFO.
 * In a signal handler (and at exec) nothing is collected or locked: the spans taken are those the writer's
 * thread handed over (ct_gpu_hand), and a final record counts what no collection reached as not completed. */
struct ct_gpu_batch {
    struct ct_rec_gpu *spans;
    size_t n, room; /* room: the array's capacity, for the queue to take it again */
    int counts; /* handed over by a collection that counted what had not completed: write the counts */
};
void ct_gpu_take(struct ct_gpu_batch *b, int final, int in_signal);
void ct_gpu_write(struct ct_gpu_batch *b, int final, int in_signal);
/* The writer's thread, for a flush that cannot collect (writer.h, ct_writer_hand_gpu):
 * collect, take the queue and leave it for that flush's ct_gpu_take. */
enum ct_gpu_hand_how {
    CT_GPU_HAND_SOON = 1, /* a signal the program handles: an ordinary collection */
    CT_GPU_HAND_EXEC,     /* exec: as a last collection (what has not completed is counted), with the counts
                           * written; if exec fails, collections go on */
    CT_GPU_HAND_LAST,     /* the process dies next: the last collection */
};
void ct_gpu_hand(int how);
/* The drain holder: the last collection (final), after which the drain collects nothing
 * (recorder.h, ct_rec_gpu_finish). */
void ct_gpu_collect_last(void);
/* The child of a fork: no span or count of the parent's. */
void ct_gpu_after_fork_child(void);

#endif
