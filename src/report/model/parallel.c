#include "config.h" /* _GNU_SOURCE: sched_getaffinity */

#include "report/model/parallel.h"

#include <malloc.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/resource.h>

/* A worker's stack: the work decodes and aggregates, with no deep recursion. */
#define STACK_SIZE (4u << 20)

static unsigned jobs_set;

void rp_jobs_set(unsigned jobs) { jobs_set = jobs; }

unsigned rp_jobs(void)
{
    if (jobs_set)
        return jobs_set;
    cpu_set_t cpus;
    int n = sched_getaffinity(0, sizeof cpus, &cpus) == 0 ? CPU_COUNT(&cpus) : 1;
    return n > 0 ? (unsigned)n : 1u;
}

struct pool {
    pthread_mutex_t lock;
    pthread_cond_t more;     /* workers: an item may be taken (done caught up), or stop */
    pthread_cond_t finished; /* the caller: an item's work returned */
    size_t n, next, window, done_upto; /* items [0, done_upto) are done; workers take `next` while below
                                        * done_upto + window */
    unsigned char *ready;
    void *ctx;
    void (*work)(void *, size_t);
};

static void *worker(void *arg)
{
    struct pool *p = arg;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (p->next < p->n && p->next >= p->done_upto + p->window)
            pthread_cond_wait(&p->more, &p->lock);
        if (p->next >= p->n)
            break;
        size_t i = p->next++;
        pthread_mutex_unlock(&p->lock);
        p->work(p->ctx, i);
        pthread_mutex_lock(&p->lock);
        p->ready[i] = 1;
        pthread_cond_signal(&p->finished);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

static int serial(size_t n, void *ctx, void (*work)(void *, size_t), int (*done)(void *, size_t))
{
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        work(ctx, i);
        if (!rc)
            rc = done(ctx, i);
    }
    return rc;
}

int rp_parallel_ordered(size_t n, unsigned jobs, void *ctx, void (*work)(void *ctx, size_t i),
                        int (*done)(void *ctx, size_t i))
{
    if (jobs > n)
        jobs = (unsigned)n;
    if (jobs <= 1)
        return serial(n, ctx, work, done);
    struct pool p = {.n = n, .window = 2 * (size_t)jobs, .ctx = ctx, .work = work};
    pthread_t *t = malloc(jobs * sizeof *t);
    if (!t || !(p.ready = calloc(n, 1))) {
        free(t);
        return serial(n, ctx, work, done);
    }
    /* Under an address-space limit (ulimit -v), glibc's arena of a thread, which reserves 64 MiB, may not fit:
     * its mallocs would fail where one thread's succeed.  The threads then share the main arena. */
    struct rlimit as;
    if (getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY)
        mallopt(M_ARENA_MAX, 1);
    pthread_mutex_init(&p.lock, NULL);
    pthread_cond_init(&p.more, NULL);
    pthread_cond_init(&p.finished, NULL);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, STACK_SIZE);
    unsigned started = 0;
    while (started < jobs && pthread_create(&t[started], &attr, worker, &p) == 0)
        started++;
    pthread_attr_destroy(&attr);
    if (!started) { /* no thread: the caller works alone */
        free(t);
        free(p.ready);
        pthread_mutex_destroy(&p.lock);
        pthread_cond_destroy(&p.more);
        pthread_cond_destroy(&p.finished);
        return serial(n, ctx, work, done);
    }
    int rc = 0;
    pthread_mutex_lock(&p.lock);
    for (size_t i = 0; i < n; i++) {
        while (!p.ready[i])
            pthread_cond_wait(&p.finished, &p.lock);
        pthread_mutex_unlock(&p.lock);
        if (!rc)
            rc = done(ctx, i);
        pthread_mutex_lock(&p.lock);
        p.done_upto = i + 1;
        pthread_cond_broadcast(&p.more);
    }
    pthread_mutex_unlock(&p.lock);
    for (unsigned k = 0; k < started; k++)
        pthread_join(t[k], NULL);
    pthread_mutex_destroy(&p.lock);
    pthread_cond_destroy(&p.more);
    pthread_cond_destroy(&p.finished);
    free(p.ready);
    free(t);
    return rc;
}
