/* Analyze's state of one trace file, apart from the trace: what its rules found in that file (sites by
 * their content, its GPU gaps with the strings they show, its memory changes with their sites), in the file's
 * own clock.  analyze of traces makes one per file (part.c) and merges them (merge.c); analyze --partial
 * writes them to a file and reads them back (partfile.c, doc/partials.md), so that the merge of partials
 * prints what the merge of the traces does. */
#ifndef CT_REPORT_ANALYZE_PART_H
#define CT_REPORT_ANALYZE_PART_H

#include <stddef.h>
#include <stdint.h>

#include "report/analyze/rules.h"
#include "report/model/bytes.h"
#include "report/model/stacktab.h"

/* A site: its key (sites.h: label and stack, or Python line), what is shown, and its sums. */
struct rp_an_psite {
    char *key, *label;
    char *range;           /* NVTX range of its first call, NULL when none */
    int64_t first_t0;      /* its first call (file clock): which file's stack and range a merged site shows */
    uint64_t count, bytes, total_ns, max_ns;
    size_t stack;          /* index + 1 into the part's stacks; 0: none */
};
struct rp_an_psites {
    struct rp_an_psite *v;
    size_t n;
};

struct rp_an_pgap {
    int64_t t0, t1, launch_t; /* file clock */
    char *api, *range;        /* the launching call's API and its NVTX range (NULL: none) */
    size_t stack;             /* as the gap_sites of --group-by show it: index + 1, 0 none */
    uint64_t ncalls, calls_ns;
    struct rp_an_psites during;
};

struct rp_an_pdev {
    int32_t device;
    uint64_t busy_ns, idle_ns, ngaps;
    int64_t first, frontier;  /* file clock */
    size_t ntop;
    struct rp_an_pgap top[RP_AN_TOP_GAPS];
};

struct rp_an_part {
    /* the clock (trace.h's struct rp_clock) */
    char *host;
    int64_t start_wall_ns, start_mono_ns, end_mono_ns;
    int calls, has_end;
    uint64_t first_t0, last_t1;
    char *label;              /* rp_file_label */
    char *path;               /* the trace file's */
    char *damage;             /* the reader's message where the trace is truncated or corrupt, else NULL */
    uint64_t ncalls;          /* the calls read (before the damage) */
    uint32_t pid;
    uint64_t records;         /* rp_file_records: of two copies of a process's trace, the fuller is taken */
    int32_t rank;
    int timed_all, has_stacks; /* every call timed on the GPU; stacks recorded */
    int64_t steady_t;         /* file clock */
    uint64_t win_ns;
    /* launch-bound: the sums over its windows where the host launched longer than the GPU ran */
    uint64_t lb_windows, lb_launches, lb_launch_ns, lb_busy_ns, lb_lost_ns;
    uint64_t busy_ns, collective_ns, steps;
    double step_ns;
    struct rp_an_psites hsites[RP_AN_SMALL + 1], launch; /* the host rules' sites, the launches' */
    struct rp_an_pdev *devs;
    size_t ndevs;
    /* memory: the tracker's changes (memory.h), and for each its site (index into memsites) */
    struct rp_an_psites memsites;
    struct rp_bytes changes;
    uint64_t nchanges;
    uint32_t *change_site;
    struct rp_stack *stacks;  /* owned: frames, their strings and modules */
    size_t nstacks;
};

/* The part of file i of a's trace, after both passes.  0, or -1 when out of memory. */
int rp_an_part_of(struct rp_an *a, size_t i, struct rp_an_part *p);
void rp_an_part_free(struct rp_an_part *p);
/* Free a part's copy of a stack (its frames, their strings and modules). */
void rp_an_stack_free(struct rp_stack *s);

/* The threshold options a part is made under (recorded in a partial; the merge needs them equal). */
struct rp_an_mapopts {
    double warmup;
    uint64_t idle_gap_ns, small_bytes, window_ns, launch_interval_ns;
    int by_python;
    const char *step_range;
};

/* The merge of parts, in order (a file's place among them decides ties, as a trace's place does): what the
 * output prints. */
struct rp_an_merged {
    const struct rp_an_opts *o;
    struct rp_an_part *p;
    size_t n;
    int64_t *offset;          /* per part: onto the report clock */
    uint64_t *run_of;         /* per part: its own run (its start to its end) */
    uint64_t procs_ns;        /* the parts' runs added up */
    int64_t start_ns, run_ns, steady_t; /* report clock; steady_t: the earliest file's steady state */
    uint64_t win_ns;          /* the largest file's launch-bound window */
    int stacks;
    struct rp_sites host[RP_AN_SMALL + 1];
    struct rp_sites *launch;  /* per part: the launch sites of its launch-bound windows (its finding's) */
    struct rp_an_device *devs; /* the gaps, their stacks and strings pointing into the parts */
    size_t ndevs;
};
/* Merge the n parts (kept, not copied: free them after m) and find the findings.  0, or -1 when out of memory
 * or on a malformed part (a corrupt partial: *bad set). */
int rp_an_merge(struct rp_an_merged *m, struct rp_an_part *p, size_t n, const struct rp_an_opts *o,
                struct rp_an_result *r, int *bad);
void rp_an_merged_free(struct rp_an_merged *m);

#endif
