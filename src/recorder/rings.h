/* The registry of every thread's ring (ring.h), and the process's call sequence numbers.
 *
 * A thread gets its ring at its first record and hands it over at exit (a pthread key destructor); a busy
 * thread moves to a ring twice as large when the writer falls behind.  The list is oldest first, so that a
 * drain writes a thread's records in the order they were made even when its thread id has two rings: a
 * record made in a TLS destructor after the ring was handed over, a thread that moved to a bigger ring, or a
 * new thread that got the id of one whose ring is not drained yet.  Readers rely on that order (launch
 * repeats).  Appended under a lock, read by the drainer without one. */
#ifndef CT_RECORDER_RINGS_H
#define CT_RECORDER_RINGS_H

#include <stddef.h>
#include <stdint.h>

#include "recorder/ring.h"

/* The calling thread's ring (NULL before its first record).  initial-exec: the library is preloaded, so
 * its TLS is static and a read is one %fs-relative load. */
extern __thread struct ct_ring *ct_rec_ring __attribute__((tls_model("initial-exec")));

/* The thread was named explicitly (ct_rec_thread_name): its first ring does not take the OS name. */
extern __thread int ct_thread_named __attribute__((tls_model("initial-exec")));

/* At start: the largest ring a thread may grow to (CUDATRACE_BUFFER_SIZE).  0, or -1 after a warning. */
int ct_rings_start(size_t max_size);
/* The calling thread's first ring, made and registered; NULL (one warning per process) when out of memory. */
struct ct_ring *ct_rings_new_thread(void);
/* The writer has fallen half a ring behind this thread: its ring, or a ring twice as large that takes over
 * (up to the maximum; r itself on failure or when no record of the thread is half made in r). */
struct ct_ring *ct_rings_grow_if_behind(struct ct_ring *r);

/* Drain side: the list, oldest first, and its newest ring (NULL when none).  A thread makes a second ring
 * only after handing its first over, so a drain that stops at the ring ct_rings_last returned at its start
 * never writes a thread's new ring ahead of the rest of its old one. */
struct ct_ring *ct_rings_first(void);
struct ct_ring *ct_rings_last(void);
/* Unlink and free the rings of exited threads that are fully drained (not from a signal handler). */
void ct_rings_free_dead(void);

/* Calls made inside the tracer on their own thread (recorder.h, ct_rec_nested): counted with lock-free
 * atomics, as a signal handler may make them; the drain takes the count and writes it as a LOST record
 * (reason nested) of the thread that made the last of them.  0 when there were none. */
void ct_rings_note_nested(uint32_t tid, uint64_t ticks);
uint64_t ct_rings_take_nested(uint32_t *tid, uint64_t *first_ticks, uint64_t *last_ticks);

/* The calls and losses no drain has written yet, in every ring (ct_ring_unwritten) and among the nested
 * calls: what a flush that gives up counts lost.  Reads only. */
uint64_t ct_rings_unwritten(void);

#define CT_SEQ_BLOCK 256 /* sequence numbers a thread takes at a time: one atomic add per block */
/* The first of CT_SEQ_BLOCK call sequence numbers for the calling thread (recorder_hot.h). */
uint64_t ct_rings_seq_block(void);

/* Fork: the registry's lock is held across fork() where it can be (forklock.h; 1 when taken); after it, given
 * back in the parent if taken, made anew in the child.  The child keeps only the calling thread's ring,
 * emptied, and numbers its calls from 1 again. */
int ct_rings_fork_lock(void);
void ct_rings_fork_unlock(int taken, int child);
void ct_rings_after_fork_child(void);

#endif
