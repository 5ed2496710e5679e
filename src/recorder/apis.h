/* Record-time filters (CUDATRACE_APIS): which driver functions are recorded.  An excluded variant is counted,
 * not timed and not recorded; its count reaches the trace as CT_REC_COUNTED records.  The decision is made
 * once per variant, here, when the library starts, into the client's api_skip bytes (variants.h), which a
 * trampoline reads only while a filter is on at all (the preload layer's gate, capture.h); the trampoline
 * adds an excluded call to the client's api_counted. */
#ifndef CT_RECORDER_APIS_H
#define CT_RECORDER_APIS_H


/* Read CUDATRACE_APIS and fill the client's api_skip (once: later calls return the first answer).  1 when some
 * variant is excluded.  A bad value or a glob that matches no function: one warning, nothing excluded. */
int ct_apis_init(void);
/* The drain holder: a CT_REC_COUNTED for each excluded variant whose count grew since the last one written
 * (counts are totals: the last record of a variant is its count).  Async-signal-safe. */
void ct_apis_write(void);
/* The child of a fork counts its own calls from 0. */
void ct_apis_after_fork_child(void);

#endif
