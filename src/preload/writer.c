#include "config.h"

#include <pthread.h>
#include <signal.h>
#include <time.h>

#include "preload/recorder_int.h"
#include "preload/tracefile.h"

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv;
static pthread_t thread;
static int running, stop;
static unsigned interval_ms;

static void *writer_main(void *arg)
{
    (void)arg;
    ct_tf_thread_blocks_signals();
    pthread_mutex_lock(&mu);
    while (!stop) {
        struct timespec when;
        clock_gettime(CLOCK_MONOTONIC, &when);
        when.tv_nsec += (long)(interval_ms % 1000) * 1000000L;
        when.tv_sec += interval_ms / 1000 + when.tv_nsec / 1000000000L;
        when.tv_nsec %= 1000000000L;
        while (!stop && pthread_cond_timedwait(&cv, &mu, &when) == 0) {
        }
        if (stop)
            break;
        pthread_mutex_unlock(&mu);
        if (atomic_load(&ct_state) == CT_ST_ON && ct_drain_acquire(-1)) {
            if (atomic_load(&ct_state) == CT_ST_ON)
                ct_drain_all(0, 0);
            ct_drain_release();
        }
        pthread_mutex_lock(&mu);
    }
    pthread_mutex_unlock(&mu);
    return NULL;
}

int ct_writer_start(unsigned flush_ms)
{
    pthread_condattr_t ca;
    sigset_t all, old;
    int rc;

    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&cv, &ca);
    pthread_condattr_destroy(&ca);
    interval_ms = flush_ms;
    stop = 0;
    /* Born with every signal blocked: the program's signals go to its own threads, and SIGXFSZ from a
     * write past RLIMIT_FSIZE stays pending here instead of killing the process. */
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    rc = pthread_create(&thread, NULL, writer_main, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    running = rc == 0;
    return rc == 0 ? 0 : -1;
}

void ct_writer_stop(void)
{
    if (!running)
        return;
    pthread_mutex_lock(&mu);
    stop = 1;
    pthread_cond_signal(&cv);
    pthread_mutex_unlock(&mu);
    pthread_join(thread, NULL);
    running = 0;
}

void ct_writer_after_fork_child(void)
{
    pthread_mutex_init(&mu, NULL);
    running = 0;
    stop = 0;
}
