/* Which driver functions are counted, not timed: by default a set of trivial queries that the layer above
 * lends in the client's api_skip bytes (variants.h; the library's from src/preload/counted_by_default.txt);
 * CUDATRACE_APIS=all times every function; a list in CUDATRACE_APIS replaces the default set.  A counted
 * variant's successful calls are added to the client's api_counted by the trampolines and reach the trace as
 * CT_REC_COUNTED records; its failed calls are recorded.  Decided once per variant, here, when the library
 * starts, into api_skip, which a trampoline reads where the default set or a list needs it (the preload
 * layer's gate, capture.h). */
#ifndef CT_RECORDER_APIS_H
#define CT_RECORDER_APIS_H

#include <stdint.h>

/* Read CUDATRACE_APIS and set the client's api_skip (once: later calls return the first answer).  1 when a
 * list chose the functions, so that every trampoline must read its byte.  A bad value or a glob that matches
 * no function: one warning, and the default set. */
int ct_apis_init(void);
/* Which set applied, as the trace header's bits: CT_FEAT_APIS_DEFAULT, CT_FEAT_APIS_LIST, or 0 (all timed). */
uint32_t ct_apis_features(void);
/* The drain holder: a CT_REC_COUNTED for each counted variant whose count grew since the last one written
 * (counts are totals: the last record of a variant is its count), in one append.  Async-signal-safe. */
void ct_apis_write(void);
/* The child of a fork counts its own calls from 0. */
void ct_apis_after_fork_child(void);

#endif
