/* The recorder API (recorder.h): per-thread rings, lazy start, shutdown, and the records off the hot path. */
#include "config.h"

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#include "format/record.h"
#include "preload/hot.h"
#include "preload/intern.h"
#include "preload/meta.h"
#include "preload/recorder.h"
#include "preload/recorder_hot.h"
#include "preload/recorder_int.h"
#include "preload/settings.h"
#include "preload/stacks.h"
#include "preload/tracefile.h"
#include "preload/warn.h"

CT_HOT_DATA _Atomic int ct_state;
static struct ct_settings cfg;
static int cfg_loaded;
static _Atomic int ranges_only; /* ct_rec_ranges_only */
static _Atomic uint64_t seq_counter = 1;
static _Atomic uint64_t untraced_total;

/* initial-exec: a preloaded library's TLS is in the static block, so access is one %fs-relative load. */
__thread struct ct_ring *ct_rec_ring __attribute__((tls_model("initial-exec")));
static __thread int in_init __attribute__((tls_model("initial-exec")));

/* Oldest first, so that a drain writes a thread's records in the order they were made even when its thread
 * id has two rings: a record made in a TLS destructor after the ring was handed over, a thread that moved to
 * a bigger ring (grow), or a new thread that got the id of one whose ring is not drained yet.  Readers rely
 * on that order (launch repeats). */
static struct ct_ring *_Atomic rings;
static struct ct_ring *_Atomic rings_last; /* written under rings_mu, read by the drainer without it */
static pthread_mutex_t rings_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t init_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_key_t ring_key;
static int ring_key_made;

/* ---- rings ---- */

struct ct_ring *ct_rings_first(void) { return atomic_load_explicit(&rings, memory_order_acquire); }

struct ct_ring *ct_rings_last(void) { return atomic_load_explicit(&rings_last, memory_order_acquire); }

/* Thread exit (pthread key destructor): hand the ring to the drainer, which writes and frees it.  A record
 * made later by this thread (another TLS destructor) gets a fresh ring. */
static void thread_exit(void *arg)
{
    struct ct_ring *r = arg;
    if (ct_rec_ring == r)
        ct_rec_ring = NULL;
    atomic_store_explicit(&r->dead, 1, memory_order_release);
}

/* Make r the calling thread's ring: appended to the list (after any ring the thread had before, which the
 * drain therefore writes first). */
static void publish(struct ct_ring *r)
{
    atomic_store_explicit(&r->next, NULL, memory_order_relaxed);
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
static struct ct_ring *thread_ring(void)
{
    static _Atomic int warned;
    size_t size = cfg.buffer_size < CT_RING_FIRST ? cfg.buffer_size : CT_RING_FIRST;
    struct ct_ring *r = ct_ring_new(size, (uint32_t)gettid());

    if (!r) {
        if (!atomic_exchange(&warned, 1))
            ct_warn("cannot allocate a %zu-byte buffer for a thread; its records are not traced", size);
        return NULL;
    }
    publish(r);
    return r;
}

/* The writer has fallen half a ring behind this thread: go on in a ring twice as large (up to
 * CUDATRACE_BUFFER_SIZE), so that a slow disk or a stalled writer costs memory before it costs records.  The
 * old ring is handed over as at thread exit: the drainer writes its rest, then the new ring's records, and
 * frees it.  On failure the thread stays where it is. */
static struct ct_ring *grow(struct ct_ring *old)
{
    static _Atomic int failed; /* once memory is short, stop asking: each dropped record would pay an mmap */
    struct ct_ring *r = atomic_load_explicit(&failed, memory_order_relaxed) ? NULL : ct_ring_new(old->size * 2, old->tid);

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

static uint32_t my_tid(void) { return ct_rec_ring ? ct_rec_ring->tid : (uint32_t)gettid(); }

/* ---- hot path ---- */

static void note_lost(struct ct_ring *r)
{
    uint64_t now = ct_now(), n = atomic_load_explicit(&r->lost, memory_order_relaxed);
    if (n == 0)
        r->lost_first = now;
    r->lost_last = now;
    atomic_store_explicit(&r->lost, n + 1, memory_order_relaxed);
    r->limit = 0; /* the fast path stops until the loss is reported (ct_ring_reserve sets a new limit) */
}

/* Report the drops in the ring, ahead of the next record.  0 when there is no room yet. */
static int emit_lost(struct ct_ring *r)
{
    struct ct_rec_lost *l = ct_ring_reserve(r, sizeof *l);

    if (!l)
        return 0;
    ct_put_hdr(&l->h, CT_REC_LOST, sizeof *l, r->tid);
    l->count = atomic_load_explicit(&r->lost, memory_order_relaxed);
    l->t_first_ns = r->lost_first;
    l->t_last_ns = r->lost_last;
    l->reason = CT_LOST_BUFFER_FULL;
    l->reserved = 0;
    atomic_store_explicit(&r->lost, 0, memory_order_relaxed);
    ct_ring_commit(r);
    return 1;
}

__attribute__((noinline)) void *ct_rec_begin_slow(size_t size)
{
    struct ct_ring *r;
    void *p;
    int st = atomic_load(&ct_state);

    if (size < sizeof(struct ct_rec_hdr) || size % 8 != 0 || size > CT_REC_MAX_SIZE)
        return NULL;
    if (st == CT_ST_UNINIT) {
        ct_rec_init();
        st = atomic_load(&ct_state);
    }
    if (st != CT_ST_ON || (!(r = ct_rec_ring) && !(r = thread_ring())))
        return NULL;
    /* resv == head: no record of this thread is half made in r (a traced call from a signal handler that
     * interrupted one must not move the thread away from it). */
    if (r->size < cfg.buffer_size && r->resv == r->head &&
        r->head - atomic_load_explicit(&r->tail, memory_order_acquire) >= r->size / 2)
        r = grow(r);
    if (size > r->size / 4 || (atomic_load_explicit(&r->lost, memory_order_relaxed) && !emit_lost(r))) {
        note_lost(r);
        return NULL;
    }
    if (!(p = ct_ring_reserve(r, size)))
        note_lost(r);
    if (r->want_drain) {
        r->want_drain = 0;
        ct_writer_nudge();
    }
    return p;
}

uint64_t ct_rec_seq_block(void) { return atomic_fetch_add_explicit(&seq_counter, CT_SEQ_BLOCK, memory_order_relaxed); }

static inline void fill_call(struct ct_rec_call *c, size_t size, uint16_t api_id, uint8_t payload, int32_t result,
                             uint64_t t0, uint64_t t1)
{
    struct ct_ring *r = ct_rec_ring;

    ct_put_hdr(&c->h, CT_REC_CALL, size, r->tid);
    c->api_id = api_id;
    c->payload = payload;
    c->shape = 0;
    c->result = result;
    c->seq = ct_rec_next_seq(r);
    c->t0_ns = t0;
    c->t1_ns = t1;
    c->stack_id = 0;
    c->shape_gen = 0;
}

void *ct_rec_begin(size_t size) { return ct_rec_reserve(size); }

void ct_rec_fill_call(struct ct_rec_call *c, size_t size, uint16_t api_id, uint8_t payload, int32_t result,
                      uint64_t t0, uint64_t t1)
{
    fill_call(c, size, api_id, payload, result, t0, t1);
}

CT_HOT_CODE
struct ct_rec_call *ct_rec_call_begin(size_t size, uint16_t api_id, uint8_t payload, int32_t result, uint64_t t0,
                                      uint64_t t1)
{
    struct ct_rec_call *c = ct_rec_reserve(size);

    if (c)
        fill_call(c, size, api_id, payload, result, t0, t1);
    return c;
}

/* Payloads are fully written (decoders zero them first), so bytes compare. */
static inline int same_shape(const struct ct_pl_launch *a, const struct ct_pl_launch *b)
{
    return memcmp(a, b, sizeof *a) == 0; /* compilers expand a small fixed-size equality inline */
}

/* Slot `slot` now holds *pl, as generation gen, from a launch of api_id at t0. */
static void fill_slot(struct ct_ring *r, unsigned slot, const struct ct_pl_launch *pl, uint32_t gen,
                      uint32_t name_gen, uint16_t api_id, uint64_t t0)
{
    struct ct_shape_key *k = &r->key[slot];

    r->shape[slot] = *pl;
    k->function = pl->function;
    k->stream = pl->stream;
    memcpy(k->grid, pl->grid, sizeof k->grid);
    memcpy(k->block, pl->block, sizeof k->block);
    k->shared_mem = pl->shared_mem;
    k->gen = gen;
    k->name_gen = name_gen;
    k->plain = pl->kind == CT_LAUNCH_KERNEL && !(pl->cluster[0] | pl->cluster[1] | pl->cluster[2]);
    k->api_id = api_id;
    k->last_t0 = t0;
}

CT_HOT_CODE
void ct_rec_launch(uint16_t api_id, int32_t result, uint64_t t0, uint64_t t1, const struct ct_pl_launch *pl,
                   uint32_t stack_id, uint32_t name_gen)
{
    struct ct_ring *r = ct_rec_ring;
    const unsigned slot = ct_rec_shape_slot(pl->function);

    if (__builtin_expect(r != NULL && result == 0 && stack_id == 0 && r->key[slot].gen != 0 &&
                             t1 - t0 < CT_REPEAT_MAX_TICKS && same_shape(&r->shape[slot], pl), 1)) {
        const size_t size = ct_rec_repeat_size(r, &r->key[slot], api_id, t0, t1);
        void *p = ct_rec_reserve(size);
        if (p) /* in the thread's ring now: the slow path may have moved it to a bigger one */
            ct_rec_fill_repeat(ct_rec_ring, p, size, api_id, slot, t0, t1);
        return;
    }

    struct ct_rec_call *c = ct_rec_reserve(sizeof *c + sizeof *pl);
    if (!c)
        return;
    r = ct_rec_ring; /* the thread's first record made its ring */
    fill_call(c, sizeof *c + sizeof *pl, api_id, CT_FAM_LAUNCH, result, t0, t1);
    uint32_t gen = r->key[slot].gen + 1;
    gen += gen == 0; /* 0 marks an empty slot */
    c->shape = (uint8_t)(slot + 1);
    c->shape_gen = gen;
    c->stack_id = stack_id;
    memcpy(c + 1, pl, sizeof *pl);
    fill_slot(r, slot, pl, gen, name_gen, api_id, t0);
    ct_ring_commit(r);
}

/* ---- records off the hot path ---- */

static int started(void)
{
    if (atomic_load(&ct_state) == CT_ST_UNINIT)
        ct_rec_init();
    return atomic_load(&ct_state) == CT_ST_ON;
}

int ct_rec_enabled(void)
{
    int st = atomic_load_explicit(&ct_state, memory_order_relaxed);
    return st == CT_ST_ON || (st == CT_ST_UNINIT && started());
}

uint32_t ct_rec_intern(enum ct_str_kind kind, const char *s)
{
    return s && started() ? ct_intern(kind, s, my_tid()) : 0;
}

void ct_rec_untraced(const char *symbol)
{
    struct ct_rec_untraced u;

    if (!symbol || !started())
        return;
    memset(&u, 0, sizeof u);
    ct_put_hdr(&u.h, CT_REC_UNTRACED, sizeof u, my_tid());
    u.name_id = ct_intern(CT_STR_OTHER, symbol, my_tid());
    u.count = 1;
    if (ct_meta_push(&u, sizeof u, 0) == 0)
        atomic_fetch_add(&untraced_total, 1);
}

void ct_rec_driver(int driver_version, int device_count)
{
    struct ct_rec_driver d;

    if (!started())
        return;
    memset(&d, 0, sizeof d);
    ct_put_hdr(&d.h, CT_REC_DRIVER, sizeof d, my_tid());
    d.driver_version = driver_version;
    d.device_count = device_count;
    ct_meta_push(&d, sizeof d, 1);
}

void ct_rec_device(int ordinal, const char *name, const uint8_t uuid[16], uint64_t total_mem)
{
    struct ct_rec_device d;

    if (!started())
        return;
    memset(&d, 0, sizeof d);
    ct_put_hdr(&d.h, CT_REC_DEVICE, sizeof d, my_tid());
    d.ordinal = ordinal;
    d.total_mem = total_mem;
    if (uuid)
        memcpy(d.uuid, uuid, sizeof d.uuid);
    if (name)
        strncpy(d.name, name, sizeof d.name - 1);
    ct_meta_push(&d, sizeof d, 1);
}

/* ---- start, flush, stop ---- */

void ct_rec_ranges_only(void) { atomic_store(&ranges_only, 1); }

static int start(void)
{
    if (!cfg_loaded) { /* once per process image: a forked child keeps its parent's settings and warnings */
        ct_settings_load(&cfg);
        cfg_loaded = 1;
    }
    if (!ring_key_made) {
        if (pthread_key_create(&ring_key, thread_exit) != 0) {
            ct_warn("cannot create a thread key; tracing disabled");
            return -1;
        }
        ring_key_made = 1;
    }
    const uint32_t ranges = atomic_load(&ranges_only) ? CT_FEAT_CAPTURE_RANGES : 0;
    if (ct_tf_open(&cfg, CT_FEAT_TIME_MONO | ranges | ct_stack_start(cfg.stacks, cfg.stack_depth)) < 0)
        return -1;
    ct_lifecycle_install();
    if (ct_writer_start(cfg.flush_ms) < 0)
        ct_warn("cannot start the writer thread; records are written at exit only");
    return 0;
}

void ct_rec_init(void)
{
    if (atomic_load(&ct_state) != CT_ST_UNINIT || in_init)
        return;
    in_init = 1; /* anything start() calls that records comes back here and finds tracing not yet on */
    pthread_mutex_lock(&init_mu);
    if (atomic_load(&ct_state) == CT_ST_UNINIT)
        atomic_store(&ct_state, start() == 0 ? CT_ST_ON : CT_ST_OFF);
    pthread_mutex_unlock(&init_mu);
    in_init = 0;
}

void ct_rec_flush(void)
{
    if (atomic_load(&ct_state) != CT_ST_ON || !ct_tf_mine() || !ct_drain_acquire(-1))
        return;
    if (atomic_load(&ct_state) == CT_ST_ON)
        ct_drain_all(0, 0);
    ct_drain_release();
}

void ct_rec_shutdown(void)
{
    int on = CT_ST_ON;

    /* From here ct_rec_begin returns NULL: records published before the last drain are kept, later ones
     * (threads still running after main returned) are not written. */
    if (!atomic_compare_exchange_strong(&ct_state, &on, CT_ST_DONE))
        return;
    ct_writer_stop();
    if (!ct_drain_acquire(-1))
        return;
    ct_drain_all(1, 0);
    ct_tf_close(atomic_load(&untraced_total), cfg.quiet);
    ct_drain_release();
}

void ct_rec_signal_flush(int last)
{
    int on = CT_ST_ON;

    if (atomic_load(&ct_state) != CT_ST_ON || !ct_drain_acquire(200))
        return; /* the drainer is this very thread, or stuck: do not deadlock */
    if (!last) {
        ct_drain_all(0, 1);
        ct_drain_release();
    } else if (atomic_compare_exchange_strong(&ct_state, &on, CT_ST_DONE)) {
        ct_drain_all(1, 1);
        ct_tf_close(atomic_load(&untraced_total), cfg.quiet);
        /* The drain stays held: the process dies next and nothing may write after CT_REC_END. */
    } else {
        ct_drain_release();
    }
}

/* ---- fork ---- */

void ct_rec_fork_prepare(void)
{
    pthread_mutex_lock(&init_mu);
    pthread_mutex_lock(&rings_mu);
    ct_intern_lock();
    ct_stack_lock();
}

void ct_rec_fork_parent(void)
{
    ct_stack_unlock();
    ct_intern_unlock();
    pthread_mutex_unlock(&rings_mu);
    pthread_mutex_unlock(&init_mu);
}

/* The child keeps none of the parent's records (the parent writes them), never touches the parent's file,
 * and starts its own file and writer at its first record. */
void ct_rec_fork_child(void)
{
    struct ct_ring *mine = ct_rec_ring, *r, *next;

    ct_stack_unlock();
    ct_intern_unlock();
    pthread_mutex_unlock(&rings_mu);
    pthread_mutex_unlock(&init_mu);
    if (atomic_load(&ct_state) != CT_ST_ON)
        return;
    ct_tf_abandon();
    ct_writer_after_fork_child();
    ct_drain_reset();
    for (r = atomic_load(&rings); r; r = next) {
        next = atomic_load(&r->next);
        if (r != mine)
            ct_ring_free(r);
    }
    if (mine) {
        ct_ring_reset(mine, (uint32_t)gettid());
        atomic_store(&mine->next, NULL);
    }
    atomic_store(&rings, mine);
    atomic_store(&rings_last, mine);
    ct_meta_after_fork_child();
    atomic_store(&seq_counter, 1);
    atomic_store(&untraced_total, 0);
    atomic_store(&ct_state, CT_ST_UNINIT);
}
