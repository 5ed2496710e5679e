/* Forces the race where a drain pass could write a thread's records out of order: the writer is stopped in
 * the middle of writing thread T's ring (this program's own writev, which the recorder linked in here calls),
 * and meanwhile T records more into that ring, exits, and records again from a TLS destructor, which gives
 * it a second ring at the end of the list.  The trace must still hold T's records in the order T made them
 * (recorder-order.sh checks the sequence numbers).
 *
 *   recorder-order N   T makes N records, N more after the writer stopped, N from its TLS destructor
 *   recorder-order -g N   (growth) the main thread is T: it makes N records while the writer is stopped,
 *                      far more than its first ring holds, then lets the writer go
 * Exit status 0; 2 when the writer never stopped on T's records or was never let go (the race was not made). */
#include "config.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "format/record.h"
#include "recorder/clock.h"
#include "recorder/recorder.h"

enum { IDLE, ARMED, WRITER_STOPPED, RELEASED };

static _Atomic int phase = IDLE;
static _Atomic uint32_t target_tid;
static pthread_key_t at_exit_key;
static long per_step;

/* Wait until phase is `want`, 10 s at most; 0 when it did not come. */
static int wait_phase(int want)
{
    const struct timespec nap = {0, 1000000};
    for (int i = 0; i < 10000; i++) {
        if (atomic_load(&phase) == want)
            return 1;
        nanosleep(&nap, NULL);
    }
    return 0;
}

/* The recorder's writes come here.  The first write of T's records (by any other thread: the writer) stops
 * until T has made its second ring. */
ssize_t writev(int fd, const struct iovec *iov, int n)
{
    static ssize_t (*real)(int, const struct iovec *, int);
    const struct ct_rec_hdr *h = n > 0 && iov[0].iov_len >= sizeof *h ? iov[0].iov_base : NULL;

    if (!real)
        real = (ssize_t (*)(int, const struct iovec *, int))dlsym(RTLD_NEXT, "writev");
    if (h && h->tid == atomic_load(&target_tid) && (uint32_t)gettid() != h->tid) {
        int armed = ARMED;
        if (atomic_compare_exchange_strong(&phase, &armed, WRITER_STOPPED))
            wait_phase(RELEASED);
    }
    return real(fd, iov, n);
}

static void records(long n)
{
    for (long i = 0; i < n; i++) {
        uint64_t t0 = ct_now(), t1 = ct_now();
        struct ct_rec_call *c = ct_rec_begin(sizeof *c);
        if (!c)
            continue;
        ct_rec_fill_call(c, sizeof *c, 0, CT_FAM_NONE, 0, t0, t1);
        ct_rec_commit(c);
    }
}

static void at_exit(void *arg)
{
    (void)arg;
    records(per_step); /* the tracer's own destructor ran first: a second ring */
    atomic_store(&phase, RELEASED);
}

static void *thread_main(void *arg)
{
    (void)arg;
    atomic_store(&target_tid, (uint32_t)gettid());
    atomic_store(&phase, ARMED); /* before recording: a drain that comes at once is the one stopped */
    records(per_step);
    if (!wait_phase(WRITER_STOPPED))
        exit(2);
    records(per_step);
    pthread_setspecific(at_exit_key, &at_exit_key);
    return NULL;
}

/* The writer stops at its first write (of T's records or of metadata T made) until T has made them all. */
static int grow_main(long n)
{
    atomic_store(&target_tid, (uint32_t)gettid());
    atomic_store(&phase, ARMED);
    records(n);
    if (!wait_phase(WRITER_STOPPED))
        return 2;
    atomic_store(&phase, RELEASED);
    return 0;
}

int main(int argc, char **argv)
{
    pthread_t t;

    if (argc > 2 && strcmp(argv[1], "-g") == 0)
        return grow_main(atol(argv[2]));
    per_step = argc > 1 ? atol(argv[1]) : 100;
    records(1); /* starts the recorder, whose thread key comes before ours: its destructor runs first */
    if (pthread_key_create(&at_exit_key, at_exit) != 0 || pthread_create(&t, NULL, thread_main, NULL) != 0)
        return 2;
    pthread_join(t, NULL);
    return atomic_load(&phase) == RELEASED ? 0 : 2;
}
