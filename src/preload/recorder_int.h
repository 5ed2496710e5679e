/* The recorder's internal seams (recorder.c, drain.c, writer.c, lifecycle.c): not for the rest of the
 * library, which uses recorder.h only. */
#ifndef CT_PRELOAD_RECORDER_INT_H
#define CT_PRELOAD_RECORDER_INT_H

#include <stdatomic.h>
#include <stdint.h>

#include "preload/recorder.h"
#include "preload/ring.h"

/* recorder.c: the list of every thread's ring, oldest first (appended under a lock, read without one). */
struct ct_ring *ct_rings_first(void);
/* The newest ring (NULL when none).  A thread makes a second ring only after handing its first over, so a
 * drain that stops at the ring this returned at its start never writes a thread's new ring ahead of the rest
 * of its old one. */
struct ct_ring *ct_rings_last(void);
/* Unlink and free the rings of exited threads that are fully drained (drain holder, not a signal handler). */
void ct_rings_free_dead(void);
/* Final flush from a signal handler (async-signal-safe): `last` when the signal's default action follows
 * (the file is closed and nothing is written after). */
void ct_rec_signal_flush(int last);
void ct_rec_fork_prepare(void);
void ct_rec_fork_parent(void);
void ct_rec_fork_child(void);

/* drain.c: one drainer at a time (writer thread, flush, exit, signal handler).  The holder is a thread id, so
 * a signal handler never waits on the thread it interrupted.  wait_ms < 0: wait as long as needed. */
int ct_drain_acquire(int wait_ms);
void ct_drain_release(void);
void ct_drain_reset(void);
/* Write the queued metadata and every ring; at a final drain also each thread's pending loss. */
void ct_drain_all(int final, int in_signal);

/* writer.c: the background thread that drains every flush_ms, and sooner when nudged. */
int ct_writer_start(unsigned flush_ms);
void ct_writer_stop(void);
/* Drain soon: a thread's ring is a quarter full (async-signal-safe; nothing when no writer runs). */
void ct_writer_nudge(void);
void ct_writer_after_fork_child(void);

/* lifecycle.c: fork handlers and SIGTERM/SIGINT/SIGHUP handlers, installed once per process image. */
void ct_lifecycle_install(void);

#endif
