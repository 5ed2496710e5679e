/* Draining: writing the queued metadata and every thread's published records to the trace file.  One
 * drainer at a time (the writer thread, a flush, exit, a signal handler); the holder is a thread id, so a
 * signal handler never waits on the thread it interrupted. */
#ifndef CT_RECORDER_DRAIN_H
#define CT_RECORDER_DRAIN_H

/* 1 when the caller now holds the drain, 0 when it could not have it: the caller's own thread holds it, or
 * wait_ms passed (wait_ms < 0: wait as long as needed). */
int ct_drain_acquire(int wait_ms);
void ct_drain_release(void);
/* Does the calling thread hold the drain (a signal handler that interrupted its own thread's drain)? */
int ct_drain_mine(void);
/* The child of a fork: no thread holds the drain. */
void ct_drain_reset(void);
/* Write the queued metadata and every ring; at a final drain also each thread's pending loss, and passes
 * until no ring was added meanwhile.  in_signal: frees nothing (a signal handler). */
void ct_drain_all(int final, int in_signal);

#endif
