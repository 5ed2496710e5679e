#include "config.h"

#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "recorder/drain.h"
#include "recorder/gpu.h"
#include "recorder/state.h"
#include "recorder/writer.h"
#include "recorder/tracefile.h"

/* The writer sleeps on a futex word: a timeout every interval_ms, or a nudge (a producer whose ring filled
 * a quarter: ct_writer_nudge), or stop.  A futex and not a condition variable because a nudge may come
 * from any thread at any moment, a signal handler included: it is two atomic operations and a system call. */
static _Atomic uint32_t wake_word;
static _Atomic int stop;
static pthread_t thread;
static _Atomic int running; /* read by nudging threads */
static unsigned interval_ms;
/* A flush that can take no lock nor call the driver (a signal handler's, exec's) asks this thread to collect
 * GPU spans for it (ct_writer_hand_gpu): an enum ct_gpu_hand_how, 0 for none. */
static _Atomic int gpu_ask;
static _Atomic uint32_t gpu_answered;

static void *writer_main(void *arg)
{
    (void)arg;
    /* Named, so that top -H and /proc tell the tracer's CPU from the program's. */
    pthread_setname_np(pthread_self(), "cudatrace-wr");
    ct_tf_thread_blocks_signals();
    uint32_t seen = atomic_load(&wake_word);
    while (!atomic_load(&stop)) {
        const struct timespec wait = {interval_ms / 1000, (long)(interval_ms % 1000) * 1000000L};
        syscall(SYS_futex, &wake_word, FUTEX_WAIT_PRIVATE, seen, &wait, NULL, 0);
        /* Read before draining: a nudge that comes during the drain changes the word, so the next wait
         * returns at once instead of sleeping through it. */
        seen = atomic_load(&wake_word);
        if (atomic_load(&stop))
            break;
        const int ask = atomic_exchange(&gpu_ask, 0);
        if (ask) {
            if (atomic_load(&ct_state) == CT_ST_ON)
                ct_gpu_hand(ask);
            atomic_fetch_add(&gpu_answered, 1);
            continue;
        }
        if (atomic_load(&ct_state) == CT_ST_ON)
            ct_gpu_collect_soon(); /* outside the drain (gpu.h) */
        if (atomic_load(&ct_state) == CT_ST_ON && ct_drain_acquire(-1)) {
            if (atomic_load(&ct_state) == CT_ST_ON)
                ct_drain_all(0, 0);
            ct_drain_release();
        }
    }
    return NULL;
}

static void wake(void)
{
    atomic_fetch_add(&wake_word, 1);
    syscall(SYS_futex, &wake_word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

void ct_writer_nudge(void)
{
    if (running)
        wake();
}

int ct_writer_start(unsigned flush_ms)
{
    sigset_t all, old;
    int rc;

    interval_ms = flush_ms;
    atomic_store(&stop, 0);
    /* Born with every signal blocked: the program's signals go to its own threads, and SIGXFSZ from a
     * write past RLIMIT_FSIZE stays pending here instead of killing the process. */
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    rc = pthread_create(&thread, NULL, writer_main, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    running = rc == 0;
    return rc == 0 ? 0 : -1;
}

int ct_writer_hand_gpu(int how, unsigned wait_ms)
{
    if (!running || pthread_equal(pthread_self(), thread))
        return -1;
    const uint32_t before = atomic_load(&gpu_answered);
    atomic_store(&gpu_ask, how);
    wake();
    for (unsigned ms = 0; ms < wait_ms; ms++) {
        if (atomic_load(&gpu_answered) != before)
            return 0;
        nanosleep(&(struct timespec){0, 1000000L}, NULL);
    }
    return -1;
}

void ct_writer_stop(void)
{
    if (!running)
        return;
    atomic_store(&stop, 1);
    wake();
    pthread_join(thread, NULL);
    running = 0;
}

void ct_writer_after_fork_child(void)
{
    running = 0;
    atomic_store(&stop, 0);
}
