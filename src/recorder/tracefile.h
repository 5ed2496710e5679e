/* The process's trace file: created with its header and process/API records, appended with whole records,
 * closed with CT_REC_END.  Only the holder of the drain (drain.h) calls ct_tf_append/ct_tf_close.
 *
 * A write error (disk full, RLIMIT_FSIZE, EIO) cuts the file back to a record boundary that leaves room for
 * one CT_REC_LOST (reason write_error) and the CT_REC_END; from then on records are only counted, the LOST
 * record is rewritten in place with the running count, and the program is never disturbed (SIGXFSZ is kept
 * from it).  One warning line on stderr. */
#ifndef CT_RECORDER_TRACEFILE_H
#define CT_RECORDER_TRACEFILE_H

#include <stdatomic.h>
#include <stdint.h>
#include <sys/uio.h>

#include "recorder/ring.h"

struct ct_settings;

/* Create the file named by the settings and write its first records; `features` are the header's CT_FEAT_*
 * bits.  0, or -1 after one warning. */
int ct_tf_open(const struct ct_settings *s, uint32_t features);
/* Append spans of whole records (async-signal-safe apart from the one-time warning). */
void ct_tf_append(const struct iovec *iov, int n);
/* The same for spans whose records a walk has seen already (a ring's: ct_ring_spans): when they are all
 * written, its counts stand in for a walk of the file's own. */
void ct_tf_append_seen(const struct iovec *iov, int n, const struct ct_span_stats *st);
/* Write CT_REC_END (its untraced total counts the CT_REC_UNTRACED records appended) and close; print the
 * summary line unless quiet. */
void ct_tf_close(int quiet);
/* Is this process the one that created the file?  Not in the child of a vfork, which shares our memory
 * (the exec hooks run there) but not the parent's state of mind: such a child must not drain. */
int ct_tf_mine(void);
/* Before a drain: make sure the descriptor still refers to our file (the backstop behind the descriptor
 * hooks: a program may reach its descriptors by routes they do not see). */
void ct_tf_verify(void);
/* The trace's descriptor, -1 when none, CT_TF_DETACHED when the program took its number and none other was
 * free (it is reopened by name at the next write): the descriptor hooks (fd_hooks.c) compare the program's
 * with it. */
#define CT_TF_DETACHED (-2)
extern _Atomic int ct_tf_fdnum;
/* Around a program's call that closes or replaces the descriptors lo..hi (close, dup2, dup3, close_range,
 * closefrom; lo == hi for one).  When the trace's is one of them it is first moved aside: to another
 * number (above hi for a range, at or above the floor of fdhigh.h), or, none being free, detached.  1 when
 * the trace is detached: the program's call then runs holding the descriptor's lock (so that the reopen by
 * name cannot take a number the call is about to close or replace), and ct_tf_range_end ends it.  Waits
 * for a write in progress; never deadlocks in a signal handler (the holder blocks signals). */
int ct_tf_range_begin(unsigned lo, unsigned hi);
void ct_tf_range_end(void);
/* Write calls begun plus write calls returned (odd while a write is in the kernel): a waiting signal flush
 * tells a slow drain from a stuck one. */
uint64_t ct_tf_progress(void);
/* A last flush from a signal handler that cannot have the drain (its holder is stuck, or is the very thread
 * the signal interrupted): end the file at the last whole record written (tf.off), with a LOST record
 * (reason shutdown) counting `unwritten` and whatever else was not written, then END; print the summary
 * unless quiet.  The descriptor is left open (the holder may be using it) for the process's death, which
 * follows.  Async-signal-safe.  The holder's half-done write is cut off; a holder stuck in the kernel may
 * still finish its write before the process dies. */
void ct_tf_give_up(uint64_t unwritten, int quiet);
/* The child of a fork: close the parent's file without writing to it. */
void ct_tf_abandon(void);
/* This thread blocks every signal (the writer): no SIGXFSZ guard needed around its writes. */
void ct_tf_thread_blocks_signals(void);

#endif
