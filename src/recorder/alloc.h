/* The tracer's heap: what the recorder, GPU time and the preload layer allocate.  Not glibc's allocator:
 * a traced call may run in a signal handler that interrupted the program inside malloc (or a library's
 * malloc inside a driver call), where a call into glibc's allocator waits forever on the lock the
 * interrupted code holds.  So the tracer's blocks come from mmap'd chunks of its own, under its own lock,
 * taken with every signal blocked on this thread (no handler can interrupt its holder there) and held
 * across fork.  Built with a sanitizer, glibc's allocator serves instead, with signals
 * blocked around it, so that the sanitizer sees and checks the tracer's blocks (there a handler's traced
 * call that interrupted the program's malloc can still wait on its lock: interpose-signals.sh's churn run
 * is for plain builds). */
#ifndef CT_RECORDER_ALLOC_H
#define CT_RECORDER_ALLOC_H

#include <signal.h>
#include <stddef.h>

void *ct_malloc(size_t size);
void *ct_calloc(size_t n, size_t size);
void *ct_realloc(void *p, size_t size);
void *ct_aligned_alloc(size_t align, size_t size); /* align a power of two, at most 64 */
char *ct_strdup(const char *s);
void ct_free(void *p);

/* Every signal blocked on this thread until ct_signals_restore(old): around the tracer's rare paths that
 * call glibc functions that allocate inside (the recorder's start, pthread_getattr_np). */
void ct_signals_block(sigset_t *old);
void ct_signals_restore(const sigset_t *old);

#endif
