/* cudatrace-report analyze: the rules that turn a trace into findings, each with the time it is estimated to
 * cost and the call sites that cause it.  One pass over the merged calls feeds every rule (rp_an_call), each
 * file's state apart from the others'; a second pass, only when there are GPU idle gaps, finds what the host
 * did during the largest (rp_an_call2).  Then each file's state becomes a part (part.h) and the parts are
 * merged into the findings (merge.c).  Memory is per call site, per device and per window of time, and per
 * allocation or free (the changes of live memory that the peak is replayed from), never per call: sites are
 * keyed by stack id (sites.h), GPU spans wait in a heap only until no later call can start work before them
 * (gpu_idle.c). */
#ifndef CT_REPORT_ANALYZE_RULES_H
#define CT_REPORT_ANALYZE_RULES_H

#include <stddef.h>
#include <stdint.h>

#include "report/model/apimatch.h"
#include "report/model/args.h"
#include "report/model/map.h"
#include "report/model/memory.h"
#include "report/model/sites.h"
#include "report/model/trace.h"

/* The thresholds, each an option of the command (cmd/analyze.c documents them). */
struct rp_an_opts {
    double warmup;         /* share of the run (0..1) before the steady state */
    uint64_t min_repeats;  /* a site's calls in the steady state before sync, pageable, churn, small copies
                            * report it */
    uint64_t idle_gap_ns;  /* the shortest GPU idle gap counted */
    uint64_t small_bytes;  /* a copy of fewer bytes is small */
    uint64_t min_launches; /* launches in launch-bound windows before that rule reports */
    uint64_t window_ns;    /* the launch-bound rule's window */
    uint64_t launch_interval_ns; /* launches this close on a thread are a launch loop: the time between counts */
    double rank_share;     /* the slowest rank's lead, as a share of the run, before the ranks rule reports */
    uint64_t leak_bytes;   /* bytes live at exit before the leak rule reports */
    int by_python;         /* sites are the innermost Python frame of user code (sites.h, rp_site_python) */
    const char *step_range; /* the NVTX range that is one step (ranks) */
};

enum rp_an_rule {
    RP_AN_SYNC,
    RP_AN_PAGEABLE,
    RP_AN_CHURN,
    RP_AN_SMALL,
    RP_AN_IDLE,
    RP_AN_LAUNCH,
    RP_AN_RANKS,
    RP_AN_LEAK,
    RP_AN_RULES
};
/* "sync", "pageable", ...: the rule's name in the output and in --rules. */
extern const char *const rp_an_rule_names[RP_AN_RULES];
/* What the rule finds, and what usually fixes it: one line each. */
extern const char *const rp_an_rule_titles[RP_AN_RULES];
extern const char *const rp_an_rule_fixes[RP_AN_RULES];

/* Host-side rules (host_rules.c): per site, the steady state's calls. */
struct rp_an_host {
    struct rp_sites sites[RP_AN_SMALL + 1]; /* sync, pageable, churn, small: label the API */
};

/* One GPU idle gap of a device (gpu_idle.c). */
struct rp_an_gap {
    int64_t t0, t1;        /* report clock */
    size_t file;
    int32_t device;
    /* the call whose work ended the gap */
    int64_t launch_t;      /* when it was made (report clock) */
    uint32_t stack_id, tid;
    uint16_t api_id;
    int no_call;           /* no call of the trace made that work (gpu_idle.c, push_no_call) */
    /* after the passes (part.c, merge.c): what is shown of that call, api RP_AN_NO_CALL for no call */
    const char *api, *range;
    const struct rp_stack *stack;
    /* second pass: the host's calls during the gap */
    struct rp_sites during;
    uint64_t ncalls, calls_ns;
};
#define RP_AN_TOP_GAPS 3
#define RP_AN_NO_CALL "-" /* the API of a gap's ending work that no call of the trace made */

/* A span waiting for the sweep. */
struct rp_an_pending {
    int64_t t0, t1, launch_t;
    uint32_t stack_id, tid;
    uint16_t api_id;
    uint8_t no_call;
};

/* GPU work of one (file, device). */
struct rp_an_device {
    size_t file;
    int32_t device;
    struct rp_an_pending *heap; /* by t0, smallest first */
    size_t nheap, cheap;
    int started;
    int64_t first, frontier;    /* the first start, the latest end swept */
    uint64_t busy_ns;           /* union of its spans */
    uint64_t idle_ns, ngaps;    /* gaps of at least idle_gap_ns in the steady state */
    uint64_t collective_ns;     /* spans of NCCL kernels (summed, not united) */
    struct rp_an_gap top[RP_AN_TOP_GAPS]; /* the longest gaps, longest first */
    size_t ntop;
};

/* Per file: its own run and steady state (each process's warm-up is the first --warmup of its own run), the
 * host rules' sites, the launch-bound rule's windows (over its own run), its memory, the rank's figures.
 * Nothing here depends on the other files: a file's part (part.h) is the same alone or among others. */
struct rp_an_window {
    uint64_t launch_ns, busy_ns, launches;
};
struct rp_an_file {
    int64_t start, steady_t;  /* report clock */
    uint64_t win_ns, nwin;
    struct rp_an_window *win; /* nwin, allocated at the file's first launch */
    int timed_all;            /* every call's GPU work was timed (the idle and launch rules need it) */
    int no_call_pushed;       /* its spans of no call are in the devices' heaps (gpu_idle.c) */
    size_t *devs, ndevs, cdevs; /* its devices: indexes into rp_an.devs */
    uint64_t busy_ns, collective_ns;
    struct rp_an_host host;
    struct rp_sites launch_sites; /* the steady state's launches, by site */
    struct rp_memtrack mem;       /* its allocations, each change recorded with its stack */
};

struct rp_an {
    const struct rp_an_opts *o;
    struct rp_trace *t;
    struct rp_apimatch am;
    struct rp_kernel_names kn;
    struct rp_an_file *files;
    struct rp_u64map dev_of;      /* (file, device + 1) -> index into devs */
    struct rp_u64map last_launch; /* (file, tid) -> the end of its last launch (report clock) */
    struct rp_an_device *devs;
    size_t ndevs, cdevs;
    int oom;
};

/* Pass 1 (may be called once per call of rp_merge_next) and the end of it; pass 2 when rp_an_need_pass2. */
int rp_an_init(struct rp_an *a, struct rp_trace *t, const struct rp_an_opts *o);
void rp_an_call(struct rp_an *a, const struct rp_call *c);
void rp_an_end(struct rp_an *a);
int rp_an_need_pass2(const struct rp_an *a);
void rp_an_call2(struct rp_an *a, const struct rp_call *c);
void rp_an_free(struct rp_an *a);

/* The parts rp_an_call drives. */
void rp_an_host_call(struct rp_an *a, const struct rp_call *c, const struct rp_api_entry *api, int steady);
void rp_an_host_free(struct rp_an_host *h);
/* File f's GPU state: whether it was timed, its windows over its run. */
void rp_an_gpu_init(struct rp_an_file *af, const struct rp_file *f, uint64_t run, uint64_t window_ns);
void rp_an_gpu_call(struct rp_an *a, const struct rp_call *c, const struct rp_api_entry *api, int steady);
void rp_an_gpu_end(struct rp_an *a);
void rp_an_gpu_call2(struct rp_an *a, const struct rp_call *c);
void rp_an_gpu_free(struct rp_an *a);

/* A site of a call for the rules: by stack (label: the API) or by Python line; NULL when out of memory
 * (a->oom set).  The site's range is set from the call's NVTX range the first time. */
struct rp_site *rp_an_site(struct rp_an *a, struct rp_sites *s, const struct rp_call *c,
                           const struct rp_api_entry *api);
/* The innermost NVTX push/pop or start/end range open on thread tid of file f at report time t; NULL if
 * none. */
const char *rp_an_range_at(const struct rp_trace *t, size_t file, uint32_t tid, int64_t t_ns);

/* ---- findings ---- */

/* One figure of a finding's evidence. */
enum rp_an_unit { RP_AN_COUNT, RP_AN_TIME, RP_AN_BYTES, RP_AN_PERCENT, RP_AN_RANK };
struct rp_an_figure {
    const char *key;     /* JSON member: "calls", "blocked_ns" */
    const char *words;   /* in the table: "calls", "host time blocked" */
    enum rp_an_unit unit;
    double v;
};
#define RP_AN_FIGURES 8

/* What a finding's lost time is a share of: the run (the report's span of every file); with several files,
 * the run of the one process it is about, or every process's run added up for a sum over processes (eight
 * ranks each blocked half their run lose half, not four runs' worth). */
enum rp_an_share { RP_AN_OF_RUN, RP_AN_OF_PROCESS, RP_AN_OF_PROCESSES };

struct rp_an_finding {
    enum rp_an_rule rule;
    char where[96];        /* what it is about when not the whole run: "GPU 0 of rank 1 (host, pid)" */
    uint64_t lost_ns;      /* estimated time lost */
    enum rp_an_share of;   /* what lost_ns is a share of */
    uint64_t of_ns;        /* that time */
    uint64_t bytes;        /* leaks: the bytes (ordering among findings of no time) */
    struct rp_an_figure fig[RP_AN_FIGURES];
    unsigned nfig;
    const struct rp_sites *sites;     /* sorted, or NULL */
    size_t nsites;                    /* the first nsites of sites are this finding's */
    const struct rp_an_device *dev;   /* idle: the gaps */
};

struct rp_an_rank {
    size_t file;
    int32_t rank;
    uint64_t busy_ns, collective_ns, steps;
    double step_ns;        /* median of its step ranges; 0 when none */
    int64_t load_ns;       /* GPU compute time less time in collectives: the straggler's is the largest */
};

struct rp_an_result {
    struct rp_an_finding *f;
    size_t n, cap;
    struct rp_an_rank *ranks;
    size_t nranks;
    size_t slowest;        /* index into ranks; nranks when there is none (no rank's GPU work was timed) */
    struct rp_sites peak, leaks;
    uint64_t peak_bytes;
    int64_t peak_t;
    const char *no_idle;   /* why the idle and launch rules could not run, NULL when they did */
};

void rp_an_result_free(struct rp_an_result *r);
/* Append a finding; NULL when out of memory. */
struct rp_an_finding *rp_an_add(struct rp_an_result *r, enum rp_an_rule rule, uint64_t lost_ns);
void rp_an_fig(struct rp_an_finding *f, const char *key, const char *words, enum rp_an_unit unit, double v);

#endif
