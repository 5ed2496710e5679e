/* Where each thread's calls lie in one file: the index a time-ordered merge (merge.h) reads each thread by.
 *
 * The recorder writes each thread's records in order, in blocks (a drain writes every ring in turn), so a
 * thread's calls form runs of the file that hold no call of another thread.  A run is cut where another
 * thread's record or a new clock comes between, so each run has one clock.  Built by a reader as it reads
 * (ct_reader_build_runs), 24 bytes a run. */
#ifndef CT_FORMAT_RUNS_H
#define CT_FORMAT_RUNS_H

#include <stddef.h>
#include <stdint.h>

#include "cudatrace/format.h"

struct ct_run {
    uint64_t begin, end; /* file offsets: the thread's calls in [begin, end), among process-wide records */
    uint64_t clock;      /* clocks[clock - 1] converts their times; 0: they are ns in the file */
};

struct ct_runs_thread {
    uint32_t tid;
    uint64_t calls;
    struct ct_run *runs;
    size_t nruns, cap;
};

struct ct_runs {
    struct ct_runs_thread *threads; /* sorted by tid once finished */
    size_t nthreads, cap;
    struct ct_rec_clock *clocks;    /* every CT_REC_CLOCK of the file, in order */
    size_t nclocks, clocks_cap;
    uint64_t start_ns;              /* the file header's start_mono_ns */
    uint32_t *map;                  /* while building: tid -> 1 + index into threads (open addressing) */
    size_t map_cap;
    size_t last;                    /* the thread of the last call noted ... */
    uint32_t last_tid;              /* ... its tid ... */
    int in_run;                     /* ... and whether its run goes on */
};

struct ct_runs *ct_runs_new(uint64_t start_ns);
void ct_runs_free(struct ct_runs *x);
/* While reading in file order.  0, or -1 when out of memory.  A call that goes on its thread's run (most
 * do: a thread's records come in blocks) costs a test and two stores. */
int ct_runs_note_new_run(struct ct_runs *x, uint32_t tid, uint64_t begin, uint64_t end);
static inline int ct_runs_note_call(struct ct_runs *x, uint32_t tid, uint64_t begin, uint64_t end)
{
    if (x->in_run && x->last_tid == tid) {
        struct ct_runs_thread *t = &x->threads[x->last];
        t->runs[t->nruns - 1].end = end;
        t->calls++;
        return 0;
    }
    return ct_runs_note_new_run(x, tid, begin, end);
}
int ct_runs_note_clock(struct ct_runs *x, const struct ct_rec_clock *c);
void ct_runs_note_other(struct ct_runs *x, uint32_t tid); /* any other record: another thread's cuts the run */
/* Done reading: threads sorted by tid, the building map freed. */
void ct_runs_finish(struct ct_runs *x);
/* The entry of `tid` in a finished index; NULL when it has no call. */
const struct ct_runs_thread *ct_runs_thread_of(const struct ct_runs *x, uint32_t tid);

#endif
