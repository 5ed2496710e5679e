/* The trace files of one report, read in two passes, both through src/format (the only code that knows
 * records).
 *
 * Pass 1 (rp_trace_open) streams each file through the format reader (format/reader.h), which validates
 * every record, decodes the calls and builds the index of where each thread's calls lie (format/runs.h);
 * the report keeps the names, the process metadata and the counts.  Pass 2 (struct rp_merge) is the
 * format's time-ordered merge of every (file, thread) (format/merge.h), with each call's file and thread
 * attached.  Each file is opened once (format/input.h: "-" is standard input, a pipe or FIFO is copied to a
 * temporary file first) and both passes read that descriptor.  Memory: the names, one 24-byte run per
 * block of records a thread wrote, a cursor and a small read buffer per thread in pass 2; never a copy of
 * the records.  The GPU spans (format 5) are the exception: pass 1 keeps them, 40 bytes each, and pass 2
 * joins each to its call (gpu_spans.h). */
#ifndef CT_REPORT_MODEL_TRACE_H
#define CT_REPORT_MODEL_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cudatrace/format.h"
#include "format/call.h"
#include "format/gpu.h"
#include "format/reader.h"
#include "format/runs.h"
#include "format/annot.h"
#include "report/model/gpu_spans.h"
#include "report/model/nvtx_ranges.h"
#include "report/model/stacktab.h"

/* Exit codes of cudatrace-report (documented in --help and the man page). */
enum rp_exit {
    RP_EXIT_OK = 0,
    RP_EXIT_USAGE = 1,      /* bad command line */
    RP_EXIT_UNREADABLE = 2, /* missing, unreadable, not a trace, unsupported version: nothing reported */
    RP_EXIT_DAMAGED = 3,    /* truncated or corrupt: what precedes the damage was reported, with a warning */
    RP_EXIT_FAILED = 4,     /* out of memory or cannot write the output */
};

struct rp_thread {
    uint32_t tid;
    uint32_t name_id; /* CT_REC_THREAD, 0 if none */
    uint64_t calls;
    size_t nruns;     /* blocks of the file its calls lie in (format/runs.h) */
};

struct rp_device {
    int32_t ordinal;
    uint64_t total_mem;
    uint8_t uuid[16];
    char name[65];
};

/* A count by id: of an untraced symbol (id: its name's string id), or of a variant CUDATRACE_APIS excluded
 * (id: its API id; calls counted, not timed: CT_REC_COUNTED, format 7). */
struct rp_id_count {
    uint32_t id;
    uint64_t count;
};

struct rp_file {
    const char *path;           /* as given; "standard input" for "-" */
    size_t given;               /* its index among the paths given; of a process given twice, the first's
                                 * (whose place it keeps, whichever copy is read) */
    int fd;                     /* open for both passes (format/input.h) */
    struct ct_file_header hdr;
    struct ct_names *names;
    enum ct_read_status status; /* CT_READ_OK, or how reading stopped */
    char *message;              /* the reader's message when status != OK */

    char *host;      /* "" when no process record */
    char *cmdline;   /* arguments joined by spaces */
    uint32_t argc;
    int32_t driver_version; /* 0 if unknown */
    int32_t device_count;
    struct rp_device *devices;
    size_t ndevices;

    uint64_t rec_count[CT_REC_TYPE_LAST + 2]; /* by type as in the file; the last slot counts unknown types */
    uint64_t unknown_shapes; /* launch repeats read back with an unknown payload (format.h) */
    uint64_t calls, lost, lost_by_reason[CT_LOST_NESTED + 1], untraced;
    struct rp_id_count *untraced_syms; /* by first appearance; each the sum of its records */
    size_t nuntraced_syms;
    struct rp_id_count *counted; /* by first appearance; each the last count written (the total) */
    size_t ncounted;
    int has_end;
    struct ct_rec_end end;

    uint64_t first_t0, last_t1; /* over the calls, file clock; first_t0 > last_t1 when there is none */
    int64_t clock_offset;       /* added to this file's times to put them on the report's clock */

    struct rp_thread *threads;  /* sorted by tid: the threads that made calls or have a name */
    size_t nthreads;
    struct ct_runs *runs;       /* where each thread's calls lie, for pass 2 */
    size_t *thread_of_run;      /* runs->threads[i] is threads[thread_of_run[i]] */

    struct rp_stacktab stacks;  /* call stacks and modules (header feature CT_FEAT_STACKS) */

    struct rp_gpu_spans gpu;    /* its GPU spans, by seq (format 5) */
    struct rp_nvtx nvtx;        /* its NVTX ranges and names (format 6) */
    struct ct_rank rank;        /* rank, local rank, world size: -1 where not known (format 6) */
    int has_gpu_info;
    struct ct_gpu_info gpu_info; /* the last CT_REC_GPU_INFO, when has_gpu_info */
};

/* Were call stacks recorded in this file? */
static inline int rp_file_has_stacks(const struct rp_file *f) { return (f->hdr.features & CT_FEAT_STACKS) != 0; }
/* The file holds only the calls of capture ranges (CUDATRACE_CAPTURE=profiler). */
static inline int rp_file_ranges_only(const struct rp_file *f) { return (f->hdr.features & CT_FEAT_CAPTURE_RANGES) != 0; }
static inline int rp_file_nvtx_only(const struct rp_file *f) { return (f->hdr.features & CT_FEAT_CAPTURE_NVTX) != 0; }
#define RP_RANGES_ONLY "cuProfilerStart..cuProfilerStop ranges only (CUDATRACE_CAPTURE=profiler)"
#define RP_NVTX_ONLY "one NVTX range only (CUDATRACE_CAPTURE=nvtx:RANGE)"
/* Which functions a file of these header features, with `ncounted` functions counted, counted, not timed
 * (CT_FEAT_APIS_*; a file older than those bits counted by a list only). */
static inline const char *rp_counted_set(uint32_t features, size_t ncounted)
{
    if (features & CT_FEAT_APIS_DEFAULT)
        return "the default set of trivial queries";
    if ((features & CT_FEAT_APIS_LIST) || ncounted)
        return "those CUDATRACE_APIS listed";
    return "none: every function timed";
}
static inline const char *rp_file_counted_set(const struct rp_file *f) { return rp_counted_set(f->hdr.features, f->ncounted); }
/* The trace was not closed cleanly (no END record): the process was killed, crashed or called _exit. */
static inline int rp_file_incomplete(const struct rp_file *f) { return !f->has_end; }

struct rp_trace {
    struct rp_file *files;
    size_t nfiles;
    int64_t start_ns, end_ns; /* report clock: the earliest header start, the latest call end / file end */
    int damaged;              /* some file was truncated or corrupt (warnings printed) */
};

/* Pass 1 over every file.  Prints one message per problem on stderr ("cudatrace-report: FILE: ...").
 * Returns RP_EXIT_OK, RP_EXIT_DAMAGED (usable, with warnings) or RP_EXIT_UNREADABLE / RP_EXIT_FAILED
 * (nothing usable; the trace is freed). */
int rp_trace_open(struct rp_trace *t, char *const *paths, size_t n);
void rp_trace_close(struct rp_trace *t);

/* `later` holds the process `earlier` holds (the same pid and start): which of the two is read, for traces,
 * partials' inputs and both at once, and one warning on stderr that says so.  The one holding more records
 * is read, the earlier when they hold as many.  `one_file`: the two are one file by two paths.  1 when the
 * later is read. */
int rp_same_process_take_later(const char *earlier, uint64_t earlier_records, const char *later,
                               uint64_t later_records, unsigned pid, int one_file);

/* Names of a file: the API's display name (display_names.h rule), a string, a thread's name. */
const struct ct_api_info *rp_file_api(const struct rp_file *f, uint16_t api_id);
const char *rp_file_string(const struct rp_file *f, uint32_t id); /* NULL if undefined */
const struct rp_thread *rp_file_thread(const struct rp_file *f, uint32_t tid);
/* The thread's last name (CT_REC_THREAD), "" when it has none. */
const char *rp_thread_name(const struct rp_file *f, uint32_t tid);
/* How the report names a process: "rank N (HOST, PID)", or "HOST, PID" without a rank (rank < 0). */
const char *rp_process_label(int32_t rank, const char *host, uint32_t pid, char *buf, size_t size);
const char *rp_file_label(const struct rp_file *f, char *buf, size_t size);

/* Files of one host share their monotonic clock: they get one offset onto the report's clock (the first's wall
 * - mono), so that their calls merge exactly; files of other hosts are aligned by their wall clocks.  The
 * report's start is the earliest start, its end the latest call end or file end. */
struct rp_clock {
    const char *host;             /* "" when unknown: the file's own wall clock */
    int64_t start_wall_ns, start_mono_ns;
    int calls;                    /* first_t0 and last_t1 hold the calls' extent (file clock) */
    uint64_t first_t0, last_t1;
    int has_end;
    int64_t end_mono_ns;
    int64_t offset;               /* out */
};
void rp_clocks_align(struct rp_clock *c, size_t n, int64_t *start_ns, int64_t *end_ns);

/* The first 8 bytes of a summary partial (doc/partials.md): the commands that need calls refuse one by name. */
#define RP_PARTIAL_MAGIC "CTPART\r\n"
#define RP_PARTIAL_MAGIC_LEN 8
/* The first 8 bytes of an analyze partial (analyze --partial): as long as the summary's. */
#define RP_AN_PARTIAL_MAGIC "CTANPT\r\n"
/* The records read of the file, of every kind: of two copies of one process's trace, the one holding more is
 * read. */
uint64_t rp_file_records(const struct rp_file *f);
/* The warning about a file read back from a partial, as its trace's reader gives it: the damage (the reader's
 * message, `calls` the calls before it; returns 1), else that it has no END record (returns 0). */
int rp_warn_file(FILE *err, const char *path, const char *damage, unsigned long long calls, int has_end);
/* Warn on stderr about each file without an END record (every command but info, which says it in its table:
 * cli.c, rp_open_files); returns how many there are. */
size_t rp_warn_incomplete(const struct rp_trace *t);

/* A call of pass 2: the decoded call (format/decoder.h), its times on the report clock, its file and thread,
 * and its GPU spans when it was timed. */
struct rp_call {
    const struct ct_call *call; /* call->c (times as in the file), call->pl, call->family */
    int64_t t0, t1;             /* report clock */
    size_t file_index;
    const struct rp_file *file;
    const struct rp_thread *thread;
    const struct rp_gpu_span *gpu; /* NULL: not timed on the GPU; else its first span of ngpu (a graph's
                                    * several, rp_gpu_span_own says what each ran) */
    size_t ngpu;
    int64_t gpu_t0, gpu_t1;        /* its spans' extent on the report clock, when gpu */
};

struct rp_merge;
/* Start the time-ordered pass over all calls.  NULL on failure (message printed). */
struct rp_merge *rp_merge_begin(struct rp_trace *t);
/* The next call in time order (ties: file, then sequence number), or NULL at the end or at a read error
 * (message printed; see rp_merge_failed). */
const struct rp_call *rp_merge_next(struct rp_merge *m);
/* The pass stopped at a read error before the end: leave with RP_EXIT_UNREADABLE, print no report. */
int rp_merge_failed(const struct rp_merge *m);
void rp_merge_end(struct rp_merge *m);

#endif
