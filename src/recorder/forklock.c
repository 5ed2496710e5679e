#include "config.h"

#include <stdatomic.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "recorder/forklock.h"

/* How long one fork's prepare handlers wait, all locks together, for locks held by other threads: holders
 * keep them for microseconds, unless they wait on the thread that forks. */
#define FORK_WAIT_MS 200

static _Atomic int refused;
static _Atomic unsigned waited_ms; /* this fork's wait so far (reset with refused) */

int ct_fork_lock(pthread_mutex_t *mu)
{
    /* glibc records a mutex's owner (its kernel thread id) in the mutex: one this thread holds, as when the
     * fork comes from a signal handler that interrupted the holder, is never freed while we wait. */
    const int self = (int)syscall(SYS_gettid);
    for (;;) {
        if (pthread_mutex_trylock(mu) == 0)
            return 1;
        if (mu->__data.__owner == self || atomic_load(&refused) || atomic_load(&waited_ms) >= FORK_WAIT_MS)
            break;
        nanosleep(&(struct timespec){0, 1000000L}, NULL);
        atomic_fetch_add(&waited_ms, 1);
    }
    atomic_store(&refused, 1);
    return 0;
}

void ct_fork_unlock(pthread_mutex_t *mu, int taken)
{
    if (taken)
        pthread_mutex_unlock(mu);
}

int ct_fork_refused(void)
{
    atomic_store(&waited_ms, 0);
    return atomic_exchange(&refused, 0);
}
