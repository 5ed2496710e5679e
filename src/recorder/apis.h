/* Record-time filters (CUDATRACE_APIS): which driver functions are recorded.  An excluded variant is counted,
 * not timed and not recorded; its count reaches the trace as CT_REC_COUNTED records.  The decision is made
 * once per variant, here, when the library starts: a trampoline reads its variant's byte of ct_api_skip, and
 * only while a filter is on at all (the preload layer's gate, capture.h). */
#ifndef CT_RECORDER_APIS_H
#define CT_RECORDER_APIS_H

#include <stdatomic.h>
#include <stdint.h>

/* By api id, sized as ct_variants and defined beside it (the generated wrappers.c; the recorder's tests
 * have their own): 1 where the variant is excluded; the calls of each excluded variant so far. */
extern uint8_t ct_api_skip[];
extern _Atomic uint64_t ct_api_counted[];

/* An excluded call: one relaxed atomic add (threads share the counter; no lock, no system call). */
static inline __attribute__((always_inline)) void ct_api_count(unsigned id)
{
    atomic_fetch_add_explicit(&ct_api_counted[id], 1, memory_order_relaxed);
}

/* Read CUDATRACE_APIS and fill ct_api_skip (once: later calls return the first answer).  1 when some
 * variant is excluded.  A bad value or a glob that matches no function: one warning, nothing excluded. */
int ct_apis_init(void);
/* The drain holder: a CT_REC_COUNTED for each excluded variant whose count grew since the last one written
 * (counts are totals: the last record of a variant is its count).  Async-signal-safe. */
void ct_apis_write(void);
/* The child of a fork counts its own calls from 0. */
void ct_apis_after_fork_child(void);

#endif
