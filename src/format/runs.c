#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "format/grow.h"
#include "format/runs.h"

struct ct_runs *ct_runs_new(uint64_t start_ns)
{
    struct ct_runs *x = calloc(1, sizeof *x);
    if (x)
        x->start_ns = start_ns;
    return x;
}

void ct_runs_free(struct ct_runs *x)
{
    if (!x)
        return;
    for (size_t i = 0; i < x->nthreads; i++)
        free(x->threads[i].runs);
    free(x->threads);
    free(x->clocks);
    free(x->map);
    free(x);
}

static size_t home(uint32_t tid, size_t cap) { return (size_t)(tid * 2654435761u) & (cap - 1); }

/* Keep the map under half full. */
static int map_grow(struct ct_runs *x)
{
    size_t cap = x->map_cap ? x->map_cap * 2 : 64;
    uint32_t *m = calloc(cap, sizeof *m);
    if (!m)
        return -1;
    for (size_t i = 0; i < x->nthreads; i++) {
        size_t j = home(x->threads[i].tid, cap);
        while (m[j])
            j = (j + 1) & (cap - 1);
        m[j] = (uint32_t)i + 1;
    }
    free(x->map);
    x->map = m;
    x->map_cap = cap;
    return 0;
}

/* The index of thread `tid`, made on first sight; -1 when out of memory. */
static long thread_index(struct ct_runs *x, uint32_t tid)
{
    if ((x->nthreads + 1) * 2 > x->map_cap && map_grow(x) < 0)
        return -1;
    size_t j = home(tid, x->map_cap);
    for (; x->map[j]; j = (j + 1) & (x->map_cap - 1))
        if (x->threads[x->map[j] - 1].tid == tid)
            return (long)x->map[j] - 1;
    struct ct_runs_thread *grown = ct_grow(x->threads, &x->cap, x->nthreads + 1, sizeof *grown);
    if (!grown)
        return -1;
    x->threads = grown;
    memset(&x->threads[x->nthreads], 0, sizeof x->threads[0]);
    x->threads[x->nthreads].tid = tid;
    x->map[j] = (uint32_t)++x->nthreads;
    return (long)x->nthreads - 1;
}

int ct_runs_note_new_run(struct ct_runs *x, uint32_t tid, uint64_t begin, uint64_t end)
{
    long i = thread_index(x, tid);
    if (i < 0)
        return -1;
    struct ct_runs_thread *t = &x->threads[i];
    /* Room for one run to begin with: most threads of a program that has many make one or two. */
    struct ct_run *runs = ct_grow_from(t->runs, &t->cap, t->nruns + 1, sizeof *runs, 1);
    if (!runs)
        return -1;
    t->runs = runs;
    t->runs[t->nruns++] = (struct ct_run){begin, end, x->nclocks};
    t->calls++;
    x->last = (size_t)i;
    x->last_tid = tid;
    x->in_run = 1;
    return 0;
}

int ct_runs_note_clock(struct ct_runs *x, const struct ct_rec_clock *c)
{
    struct ct_rec_clock *clocks = ct_grow(x->clocks, &x->clocks_cap, x->nclocks + 1, sizeof *clocks);
    if (!clocks)
        return -1;
    x->clocks = clocks;
    x->clocks[x->nclocks++] = *c;
    x->in_run = 0; /* a run has one clock */
    return 0;
}

void ct_runs_note_other(struct ct_runs *x, uint32_t tid)
{
    if (tid != 0 && x->in_run && x->last_tid != tid)
        x->in_run = 0; /* a record of another thread ends the current run */
}

static int cmp_tid(const void *a, const void *b)
{
    uint32_t p = ((const struct ct_runs_thread *)a)->tid, q = ((const struct ct_runs_thread *)b)->tid;
    return (p > q) - (p < q);
}

void ct_runs_finish(struct ct_runs *x)
{
    if (x->nthreads > 1)
        qsort(x->threads, x->nthreads, sizeof *x->threads, cmp_tid);
    free(x->map);
    x->map = NULL;
    x->map_cap = 0;
    x->in_run = 0;
}

const struct ct_runs_thread *ct_runs_thread_of(const struct ct_runs *x, uint32_t tid)
{
    struct ct_runs_thread key = {.tid = tid};
    return x->nthreads ? bsearch(&key, x->threads, x->nthreads, sizeof key, cmp_tid) : NULL;
}
