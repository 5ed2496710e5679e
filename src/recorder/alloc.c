#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "recorder/alloc.h"

void ct_signals_block(sigset_t *old)
{
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, old);
}

void ct_signals_restore(const sigset_t *old) { pthread_sigmask(SIG_SETMASK, old, NULL); }

/* Every signal blocked while glibc's allocator may hold its locks (alloc.h). */
#define MASKED(expr)                                                                                     \
    do {                                                                                                 \
        sigset_t old_;                                                                                   \
        ct_signals_block(&old_);                                                                         \
        expr;                                                                                            \
        ct_signals_restore(&old_);                                                                       \
    } while (0)

void *ct_malloc(size_t size)
{
    void *p;
    MASKED(p = malloc(size));
    return p;
}

void *ct_calloc(size_t n, size_t size)
{
    void *p;
    MASKED(p = calloc(n, size));
    return p;
}

void *ct_realloc(void *p, size_t size)
{
    void *q;
    MASKED(q = realloc(p, size));
    return q;
}

void *ct_aligned_alloc(size_t align, size_t size)
{
    void *p;
    MASKED(p = aligned_alloc(align, size));
    return p;
}

char *ct_strdup(const char *s)
{
    char *d;
    MASKED(d = strdup(s));
    return d;
}

void ct_free(void *p)
{
    if (p)
        MASKED(free(p));
}
