/* The tracer's heap allocations on the program's threads, with every signal blocked for the time of the
 * allocator's call.  glibc's fork takes the allocator's locks: a program that forks from a signal handler
 * (POSIX lists fork as async-signal-safe) would otherwise deadlock when the signal interrupts the tracer
 * inside malloc on that thread, a hang the untraced program never has.  The cost, two sigprocmask system
 * calls, falls on the tracer's rare paths (a new string, thread, stack or table), never on a call's. */
#ifndef CT_RECORDER_ALLOC_H
#define CT_RECORDER_ALLOC_H

#include <signal.h>
#include <stddef.h>

void *ct_malloc(size_t size);
void *ct_calloc(size_t n, size_t size);
void *ct_realloc(void *p, size_t size);
void *ct_aligned_alloc(size_t align, size_t size);
char *ct_strdup(const char *s);
void ct_free(void *p);

/* Every signal blocked on this thread until ct_signals_restore(old): around the tracer's rare paths that
 * call glibc functions that allocate inside (the recorder's start, pthread_getattr_np). */
void ct_signals_block(sigset_t *old);
void ct_signals_restore(const sigset_t *old);

#endif
