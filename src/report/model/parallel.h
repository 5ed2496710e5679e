/* Work on several threads with output in a fixed order: the report reads several files at once (-j), yet
 * prints what one thread would, byte for byte.
 *
 * rp_parallel_ordered runs work(i) for every i in [0, n) on up to `jobs` threads, and done(i) on the calling
 * thread in order of i, each once work(i) returned.  Work runs at most 2 x jobs items ahead of done, so what
 * finished items hold (a file's partial tables, its messages) stays bounded whatever n is.  work must touch
 * nothing another item's work touches but what it only reads; done may use anything. */
#ifndef CT_REPORT_MODEL_PARALLEL_H
#define CT_REPORT_MODEL_PARALLEL_H

#include <stddef.h>

/* The threads a command may use (-j): set once before any work starts; by default the CPUs this process may
 * run on (sched_getaffinity). */
void rp_jobs_set(unsigned jobs);
unsigned rp_jobs(void);

/* Returns the first nonzero value done returned (items after it are still worked but not done), or 0.
 * With jobs <= 1, or when a thread cannot start, everything runs on the calling thread. */
int rp_parallel_ordered(size_t n, unsigned jobs, void *ctx, void (*work)(void *ctx, size_t i),
                        int (*done)(void *ctx, size_t i));

#endif
