#include "config.h"

#include <stdatomic.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "format/record.h"
#include "recorder/apis.h"
#include "recorder/clock.h"
#include "recorder/meta_queue.h"
#include "recorder/drain.h"
#include "recorder/gpu.h"
#include "recorder/intern.h"
#include "recorder/rings.h"
#include "recorder/tracefile.h"

static _Atomic int holder; /* tid of the drainer, 0 when free */

int ct_drain_acquire(int wait_ms)
{
    const int me = (int)gettid();
    const struct timespec nap = {0, 100000}; /* 0.1 ms */

    for (long naps = 0;; naps++) {
        int expected = 0;
        if (atomic_compare_exchange_strong(&holder, &expected, me))
            return 1;
        if (expected == me || (wait_ms >= 0 && naps >= (long)wait_ms * 10))
            return 0;
        nanosleep(&nap, NULL);
    }
}

void ct_drain_release(void) { atomic_store(&holder, 0); }

int ct_drain_mine(void) { return atomic_load(&holder) == (int)gettid(); }

void ct_drain_reset(void) { atomic_store(&holder, 0); }

static void append_lost(uint32_t tid, uint64_t count, uint64_t first_ticks, uint64_t last_ticks, unsigned reason)
{
    struct ct_rec_lost l;

    ct_put_lost(&l, tid, count, ct_clock_ns(first_ticks), ct_clock_ns(last_ticks), reason);
    ct_tf_append(&(struct iovec){&l, sizeof l}, 1);
}

/* A thread's drops not yet reported in its ring (it exited, or this is the last drain). */
static void write_pending_loss(struct ct_ring *r)
{
    uint64_t n = atomic_exchange(&r->lost, 0);

    if (n)
        append_lost(r->tid, n, r->lost_first, r->lost_last, CT_LOST_BUFFER_FULL);
}

/* Calls made inside the tracer on their own thread since the last drain (rings.h). */
static void write_nested_loss(void)
{
    uint32_t tid = 0;
    uint64_t first = 0, last = 0, n = ct_rings_take_nested(&tid, &first, &last);

    if (n)
        append_lost(tid, n, first, last, CT_LOST_NESTED);
}

/* The name a thread had at its first record, written ahead of its records (interning it queues its string for
 * the next metadata write: *strings says one is due).  Not in a signal handler (a lock and malloc). */
static void write_first_name(struct ct_ring *r, int in_signal, int *strings)
{
    struct ct_rec_thread t;

    if (in_signal || !atomic_exchange(&r->name_pending, 0))
        return;
    r->os_name[sizeof r->os_name - 1] = '\0';
    if (ct_intern_thread(&t, r->tid, r->os_name) == 0) {
        ct_tf_append(&(struct iovec){&t, sizeof t}, 1);
        *strings = 1;
    }
}

/* Write every ring up to `last`, in list order.  *clock: the clock record still to write ahead of the first
 * call times (ticks) of this drain, or NULL; an idle drain writes none. */
static void drain_upto(struct ct_ring *last, int final, int in_signal, struct ct_rec_clock **clock, int *strings)
{
    for (struct ct_ring *r = last ? ct_rings_first() : NULL; r;
         r = r == last ? NULL : atomic_load_explicit(&r->next, memory_order_acquire)) {
        /* Seen dead, so everything the thread committed is published. */
        int dead = atomic_load_explicit(&r->dead, memory_order_acquire);
        struct iovec iov[3];
        struct ct_span_stats st;
        uint64_t end;
        int n = ct_ring_spans(r, iov, &end, &st);

        write_first_name(r, in_signal, strings);
        if (st.calls && *clock) {
            ct_tf_append(&(struct iovec){*clock, sizeof **clock}, 1);
            *clock = NULL;
        }
        if (n > 0)
            ct_tf_append_seen(iov, n, &st);
        ct_ring_release(r, end);
        if (final || dead)
            write_pending_loss(r);
    }
}

/* A pass stops at the ring that was newest when it began.  Going on would race a thread that, between this
 * pass reading its old ring and reaching the end of the list, records more there, exits and records into
 * a new ring from a TLS destructor: the new ring's records would be written before the old one's rest, and
 * readers rely on each thread's order (launch repeats).  A later ring waits for the next pass; a final drain
 * makes passes until no ring was added meanwhile. */
void ct_drain_all(int final, int in_signal)
{
    struct ct_rec_clock clk, *clock = NULL;
    struct ct_gpu_batch gpu;
    int strings = 0;

    ct_gpu_take(&gpu, final, in_signal); /* before the rings are listed: every span's call is in them by now */
    struct ct_ring *last = ct_rings_last(), *upto;
    ct_clock_calibrate();
    ct_tf_verify();
    ct_meta_write(in_signal);
    if (ct_clock_get(&clk)) { /* the call times this drain writes are ticks: how they become ns */
        ct_put_hdr(&clk.h, CT_REC_CLOCK, sizeof clk, 0);
        clock = &clk;
    }
    do {
        upto = last;
        drain_upto(upto, final, in_signal, &clock, &strings);
        last = ct_rings_last();
    } while (final && last != upto);
    write_nested_loss();
    ct_apis_write();
    if (strings) /* the thread names' strings, now rather than at the next drain (this may be the last) */
        ct_meta_write(in_signal);
    ct_gpu_write(&gpu, final, in_signal);
    if (!in_signal)
        ct_rings_free_dead();
}
