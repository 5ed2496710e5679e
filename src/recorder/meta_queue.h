/* Records that must not be lost to a full ring (strings, driver and device records, untraced notes): queued
 * here (malloc, off the hot path) and written by the next drain ahead of the rings.  "Sticky" records
 * define ids the process keeps using; they are kept after writing so a forked child's file gets them too. */
#ifndef CT_RECORDER_META_QUEUE_H
#define CT_RECORDER_META_QUEUE_H

#include <stddef.h>

/* Queue a copy of a record (lock-free push).  0, or -1 when out of memory. */
int ct_meta_push(const void *rec, size_t size, int sticky);
/* Drain holder: write the queued records in the order they were queued.  In a signal handler nothing is
 * freed (the nodes are freed by a later drain). */
void ct_meta_write(int in_signal);
/* The child of a fork: drop the parent's pending non-sticky records, queue every sticky one again. */
void ct_meta_after_fork_child(void);

#endif
