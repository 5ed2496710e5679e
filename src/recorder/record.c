/* Records (recorder.h): the hot path's way out (recorder_hot.h), full call and launch records, and the
 * records off the hot path. */
#include "config.h"

#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#include "format/record.h"
#include "recorder/hot.h"
#include "recorder/intern.h"
#include "recorder/meta_queue.h"
#include "recorder/recorder.h"
#include "recorder/recorder_hot.h"
#include "recorder/rings.h"
#include "recorder/stacks.h"
#include "recorder/writer.h"

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
    ct_put_lost(l, r->tid, atomic_load_explicit(&r->lost, memory_order_relaxed), r->lost_first, r->lost_last,
                CT_LOST_BUFFER_FULL);
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
    if (st != CT_ST_ON || (!(r = ct_rec_ring) && !(r = ct_rings_new_thread())))
        return NULL;
    r = ct_rings_grow_if_behind(r);
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

static inline void fill_call(struct ct_rec_call *c, size_t size, uint16_t api_id, uint8_t payload, int32_t result,
                             uint64_t t0, uint64_t t1)
{
    struct ct_ring *r = ct_rec_ring;

    ct_put_hdr(&c->h, CT_REC_CALL, size, r->tid);
    c->api_id = api_id;
    c->payload = payload;
    c->shape = 0;
    c->result = result;
    c->seq = ct_rec_next_seq(r, t0);
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

/* A call without payload (the generated trampolines' plain path), when it needs no call stack: as a 16-byte
 * CT_REC_CALL_SHORT where one can stand for it (format.h: it succeeded, its seq follows the thread's last call
 * record's, its times fit), else in full.  One function shared by all those trampolines: they are many, and
 * each is called from few places. */
CT_HOT_CODE
void ct_rec_plain(uint16_t api_id, int32_t result, uint64_t t0, uint64_t t1)
{
    struct ct_ring *r = ct_rec_ring;

    /* seq_left is 0 before the thread's first call record (and when its block is used up): otherwise
     * call_t0 is its last call record's t0. */
    if (__builtin_expect(r != NULL && result == 0 && r->seq_left != 0 &&
                             t0 - r->call_t0 <= UINT32_MAX && t1 - t0 <= CT_CALL_SHORT_DUR_MAX &&
                             atomic_load_explicit(&ct_state, memory_order_relaxed) == CT_ST_ON &&
                             ct_ring_fits(r, sizeof(struct ct_rec_call_short)),
                         1)) {
        struct ct_rec_call_short *sh = ct_ring_take(r, sizeof *sh);
        ct_put_hdr(&sh->h, CT_REC_CALL_SHORT, sizeof *sh, r->tid);
        sh->api_id = api_id;
        sh->dur = (uint16_t)(t1 - t0);
        sh->dt0 = (uint32_t)(t0 - r->call_t0);
        ct_rec_next_seq(r, t0); /* readers count it */
        ct_ring_commit(r);
        return;
    }
    struct ct_rec_call *c = ct_rec_call_begin(sizeof *c, api_id, CT_FAM_NONE, result, t0, t1);
    if (c)
        ct_rec_commit(c);
}

/* Slot `slot` now holds *pl, as generation gen, from a launch of api_id at t0. */
static void fill_slot(struct ct_ring *r, unsigned slot, const struct ct_pl_launch *pl, uint32_t gen,
                      uint32_t name_gen, uint16_t api_id, uint64_t t0)
{
    struct ct_shape_key *k = &r->key[slot];

    k->pl = *pl;
    k->gen = gen;
    k->name_gen = name_gen;
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
                             t1 - t0 < CT_REPEAT_MAX_TICKS && ct_rec_same_launch(&r->key[slot].pl, pl), 1)) {
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

void ct_rec_nested(void)
{
    if (atomic_load_explicit(&ct_state, memory_order_relaxed) == CT_ST_ON)
        ct_rings_note_nested(my_tid(), ct_now());
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
    ct_meta_push(&u, sizeof u, 0);
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
