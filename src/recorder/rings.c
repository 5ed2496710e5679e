/* The registry of the threads' rings (rings.h). */
#include "config.h"

#include <pthread.h>
#include <stdatomic.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "recorder/forklock.h"
#include "recorder/rings.h"
#include "recorder/tsan.h"
#include "recorder/warn.h"

__thread struct ct_ring *ct_rec_ring __attribute__((tls_model("initial-exec")));

static struct ct_ring *_Atomic rings;
static struct ct_ring *_Atomic rings_last; /* written under rings_mu, read by the drainer without it */
static pthread_mutex_t rings_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_key_t ring_key;
static int ring_key_made;
static size_t max_size;
static _Atomic uint64_t seq_counter = 1;

struct ct_ring *ct_rings_first(void) { return atomic_load_explicit(&rings, memory_order_acquire); }

struct ct_ring *ct_rings_last(void) { return atomic_load_explicit(&rings_last, memory_order_acquire); }

static struct {
    _Atomic uint64_t count, first, last; /* first, last: ticks; first 0 while none is counted */
    _Atomic uint32_t tid;
} nested;

void ct_rings_note_nested(uint32_t tid, uint64_t ticks)
{
    uint64_t none = 0;

    atomic_compare_exchange_strong(&nested.first, &none, ticks);
    atomic_store(&nested.last, ticks);
    atomic_store(&nested.tid, tid);
    atomic_fetch_add(&nested.count, 1);
}

uint64_t ct_rings_take_nested(uint32_t *tid, uint64_t *first_ticks, uint64_t *last_ticks)
{
    uint64_t n = atomic_exchange(&nested.count, 0);

    if (n) { /* a call counted meanwhile may lend its times to this record: only the count must be exact */
        *first_ticks = atomic_exchange(&nested.first, 0);
        *last_ticks = atomic_load(&nested.last);
        *tid = atomic_load(&nested.tid);
        if (*first_ticks == 0 || *first_ticks > *last_ticks)
            *first_ticks = *last_ticks;
    }
    return n;
}

uint64_t ct_rings_unwritten(void)
{
    uint64_t n = atomic_load(&nested.count);

    for (struct ct_ring *r = ct_rings_first(); r; r = atomic_load_explicit(&r->next, memory_order_acquire))
        n += ct_ring_unwritten(r);
    return n;
}

uint64_t ct_rings_seq_block(void)
{
    return atomic_fetch_add_explicit(&seq_counter, CT_SEQ_BLOCK, memory_order_relaxed);
}

/* Thread exit (pthread key destructor): hand the ring to the drainer, which writes and frees it.  A record
 * made later by this thread (another TLS destructor) gets a fresh ring. */
static void thread_exit(void *arg)
{
    struct ct_ring *r = arg;
    if (ct_rec_ring == r)
        ct_rec_ring = NULL;
    atomic_store_explicit(&r->dead, 1, memory_order_release);
}

int ct_rings_start(size_t max)
{
    max_size = max;
    if (!ring_key_made) { /* once per process image: a forked child keeps the key */
        if (pthread_key_create(&ring_key, thread_exit) != 0) {
            ct_warn("cannot create a thread key; tracing disabled");
            return -1;
        }
        ring_key_made = 1;
    }
    return 0;
}

/* Make r the calling thread's ring: appended to the list (after any ring the thread had before, which the
 * drain therefore writes first). */
static void publish(struct ct_ring *r)
{
    atomic_store_explicit(&r->next, NULL, memory_order_relaxed);
    ct_tsan_release(r); /* the drain's ct_ring_spans acquires it: the mapping is made before r is listed */
    pthread_mutex_lock(&rings_mu);
    struct ct_ring *last = atomic_load_explicit(&rings_last, memory_order_relaxed);
    atomic_store_explicit(last ? &last->next : &rings, r, memory_order_release);
    atomic_store_explicit(&rings_last, r, memory_order_release);
    pthread_mutex_unlock(&rings_mu);
    pthread_setspecific(ring_key, r);
    ct_rec_ring = r;
}

/* A thread's first ring is small (CT_RING_FIRST), so that a busy thread's records cycle through memory that
 * stays in the caches and that the process touched before: fresh memory costs a page fault per 4 KiB,
 * several microseconds each on a virtual machine, which a short program would pay all along its first
 * 8 MiB of records. */
__thread int ct_thread_named __attribute__((tls_model("initial-exec")));

struct ct_ring *ct_rings_new_thread(void)
{
    static _Atomic int warned;
    size_t size = max_size < CT_RING_FIRST ? max_size : CT_RING_FIRST;
    struct ct_ring *r = ct_ring_new(size, (uint32_t)gettid());

    if (!r) {
        if (!atomic_exchange(&warned, 1))
            ct_warn("cannot allocate a %zu-byte buffer for a thread; its records are not traced", size);
        return NULL;
    }
    prctl(PR_GET_NAME, r->os_name); /* once per thread: its name when it first recorded */
    atomic_store(&r->name_pending, !ct_thread_named);
    publish(r);
    return r;
}

/* Going on in a ring twice as large means a slow disk or a stalled writer costs memory before it costs
 * records.  The old ring is handed over as at thread exit: the drainer writes its rest, then the new
 * ring's records, and frees it. */
struct ct_ring *ct_rings_grow_if_behind(struct ct_ring *old)
{
    static _Atomic int failed; /* once memory is short, stop asking: each dropped record would pay an mmap */

    /* resv == head: no record of this thread is half made in old (a traced call from a signal handler that
     * interrupted one must not move the thread away from it). */
    if (old->size >= max_size || old->resv != ct_ring_head(old) ||
        ct_ring_head(old) - atomic_load_explicit(&old->tail, memory_order_acquire) < old->size / 2)
        return old;
    struct ct_ring *r =
        atomic_load_explicit(&failed, memory_order_relaxed) ? NULL : ct_ring_new(old->size * 2, old->tid);
    if (!r) {
        if (!atomic_exchange(&failed, 1))
            ct_warn("cannot allocate a %zu-byte buffer for a busy thread; records it makes while the writer is "
                    "behind may be lost", (size_t)old->size * 2);
        return old;
    }
    ct_ring_adopt(r, old);
    publish(r);
    atomic_store_explicit(&old->dead, 1, memory_order_release);
    return r;
}

void ct_rings_free_dead(void)
{
    struct ct_ring *prev = NULL;

    pthread_mutex_lock(&rings_mu);
    for (struct ct_ring *_Atomic *link = &rings; *link;) {
        struct ct_ring *r = *link;
        if (atomic_load(&r->dead) && atomic_load(&r->tail) == atomic_load(&r->head_pub) &&
            atomic_load(&r->lost) == 0) {
            *link = atomic_load(&r->next);
            if (atomic_load(&rings_last) == r)
                atomic_store(&rings_last, prev);
            ct_ring_free(r);
        } else {
            prev = r;
            link = &r->next;
        }
    }
    pthread_mutex_unlock(&rings_mu);
}

int ct_rings_fork_lock(void) { return ct_fork_lock(&rings_mu); }

void ct_rings_fork_unlock(int taken, int child)
{
    if (child)
        pthread_mutex_init(&rings_mu, NULL);
    else
        ct_fork_unlock(&rings_mu, taken);
}

/* The child keeps none of the parent's records (the parent writes them). */
void ct_rings_after_fork_child(void)
{
    struct ct_ring *mine = ct_rec_ring, *r, *next;

    for (r = atomic_load(&rings); r; r = next) {
        next = atomic_load(&r->next);
        if (r != mine)
            ct_ring_free(r);
    }
    if (mine) {
        ct_ring_reset(mine, (uint32_t)gettid());
        atomic_store(&mine->name_pending, 1); /* the child's file names it too */
        atomic_store(&mine->next, NULL);
    }
    atomic_store(&rings, mine);
    atomic_store(&rings_last, mine);
    atomic_store(&seq_counter, 1);
    atomic_store(&nested.count, 0);
    atomic_store(&nested.first, 0);
}
