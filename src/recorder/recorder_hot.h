/* The recorder's fast path, inlined into the trampolines (wrappers.c) and record.c.
 *
 * Between two launches the driver runs for microseconds and evicts the tracer's code and data from the
 * first-level caches, so what a launch costs the tracer is mostly the lines it brings back: this path
 * touches the ring's producer line, the slot's key (two adjacent lines) and the record's line, in code that is part of the
 * trampoline itself (no call, no argument spills).  Anything unusual (first record of a thread, a full ring,
 * a loss to report, a wrap) leaves through ct_rec_begin_slow. */
#ifndef CT_RECORDER_RECORDER_HOT_H
#define CT_RECORDER_RECORDER_HOT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "cudatrace/format.h"
#include "format/record.h"
#include "recorder/recorder.h"
#include "recorder/ring.h"
#include "recorder/rings.h"
#include "recorder/stacks.h"

#define CT_REPEAT_MAX_TICKS (1u << 30) /* longer launches are written in full: dur_ns must fit 32 bits */

/* record.c: ct_rec_reserve's way out (starts the recorder, makes the thread's ring, reports losses,
 * wraps); NULL when the record is not kept. */
void *ct_rec_begin_slow(size_t size);

/* Reserve `size` bytes (multiple of 8) in the calling thread's ring; NULL when the record is not kept. */
static inline __attribute__((always_inline)) void *ct_rec_reserve(size_t size)
{
    struct ct_ring *r = ct_rec_ring;

    if (__builtin_expect(r != NULL && atomic_load_explicit(&ct_state, memory_order_relaxed) == CT_ST_ON &&
                             ct_ring_fits(r, size), 1))
        return ct_ring_take(r, size);
    return ct_rec_begin_slow(size);
}

/* The thread's next call sequence number, for its call record (of any type) that starts at t0: the t0 a
 * short record counts from (format.h) is that of the call record that took the last number. */
static inline __attribute__((always_inline)) uint64_t ct_rec_next_seq(struct ct_ring *r, uint64_t t0)
{
    if (__builtin_expect(r->seq_left == 0, 0)) {
        r->seq_next = ct_rings_seq_block();
        r->seq_left = CT_SEQ_BLOCK;
    }
    r->seq_left--;
    r->call_t0 = t0;
    return r->seq_next++;
}

/* Launch shapes (format.h).  The slot is picked by the function handle (handles are pointers: drop the
 * alignment bits, fold in higher ones); a slot a different kernel also maps to just alternates full records. */
static inline unsigned ct_rec_shape_slot(uint64_t function)
{
    return (unsigned)((function >> 4) ^ (function >> 12)) % CT_LAUNCH_SHAPES;
}

/* The size of the repeat of slot k for this launch: the 16-byte form wherever it can stand for the launch
 * (format.h, CT_REC_LAUNCH_SHORT: the seq follows the thread's last call's, the api is the slot's, the times
 * fit), else 32 bytes. */
static inline __attribute__((always_inline)) size_t ct_rec_repeat_size(const struct ct_ring *r,
                                                                       const struct ct_shape_key *k,
                                                                       uint16_t api_id, uint64_t t0, uint64_t t1)
{
    /* seq_left is 0 only before a thread's first call and when its block is used up: otherwise the next
     * number is one more than its last call record's. */
    return r->seq_left != 0 && k->api_id == api_id && t0 - k->last_t0 <= UINT32_MAX &&
                   t1 - t0 < (1u << CT_SHORT_DUR_BITS)
               ? sizeof(struct ct_rec_launch_short)
               : sizeof(struct ct_rec_launch_repeat);
}

/* Fill and commit at p, reserved in r with ct_rec_repeat_size's `size`, the repeat of slot `slot` (whose
 * payload the launch's equals). */
static inline __attribute__((always_inline)) void ct_rec_fill_repeat(struct ct_ring *r, void *p, size_t size,
                                                                     uint16_t api_id, unsigned slot, uint64_t t0,
                                                                     uint64_t t1)
{
    struct ct_shape_key *k = &r->key[slot];

    if (size == sizeof(struct ct_rec_launch_short)) {
        struct ct_rec_launch_short *sh = p;
        ct_put_hdr(&sh->h, CT_REC_LAUNCH_SHORT, sizeof *sh, r->tid);
        sh->dt0 = (uint32_t)(t0 - k->last_t0);
        sh->dur_slot = (uint32_t)(t1 - t0) | (uint32_t)slot << CT_SHORT_DUR_BITS;
        ct_rec_next_seq(r, t0); /* readers count it */
    } else {
        struct ct_rec_launch_repeat *rep = p;
        ct_put_hdr(&rep->h, CT_REC_LAUNCH_REPEAT, sizeof *rep, r->tid);
        rep->api_id = api_id;
        rep->shape = (uint8_t)(slot + 1);
        rep->shape_gen = (uint8_t)k->gen;
        rep->dur_ns = (uint32_t)(t1 - t0);
        rep->seq = ct_rec_next_seq(r, t0);
        rep->t0_ns = t0;
        k->api_id = api_id;
    }
    k->last_t0 = t0;
    ct_ring_commit(r);
}

/* What makes two launches the same, in one place: their whole decoded payloads, byte for byte (decoders
 * zero a payload before filling it, so padding compares too).  Any field a decoder fills is compared; none
 * can be decoded and left out. */
static inline __attribute__((always_inline)) int ct_rec_same_launch(const struct ct_pl_launch *a,
                                                                   const struct ct_pl_launch *b)
{
    return memcmp(a, b, sizeof *a) == 0; /* compilers expand a small fixed-size equality inline */
}

/* The launch shortcut, before the kernel's name is looked up: *pl is the decoded payload but for its name
 * (name_id 0).  When the thread's slot for the function holds this payload and name_gen (the generation of
 * kernel names now, kernel_names.h) is the slot's, the name would be the slot's too: write the repeat and
 * return 1.  Else 0, with pl->name_id changed, and the caller looks the name up and calls ct_rec_launch
 * (which also takes every case this leaves to the slow path). */
static inline __attribute__((always_inline)) int ct_rec_launch_again(uint16_t api_id, int32_t result, uint64_t t0,
                                                                    uint64_t t1, struct ct_pl_launch *pl,
                                                                    uint32_t name_gen)
{
    struct ct_ring *r = ct_rec_ring;

    if (__builtin_expect(!r || result != 0 || t1 - t0 >= CT_REPEAT_MAX_TICKS || ct_stack_wanted(CT_FAM_LAUNCH) ||
                             atomic_load_explicit(&ct_state, memory_order_relaxed) != CT_ST_ON, 0))
        return 0;
    const unsigned slot = ct_rec_shape_slot(pl->function);
    struct ct_shape_key *k = &r->key[slot];
    pl->name_id = k->pl.name_id; /* the name is the slot's while the handle is and no module was unloaded */
    if (k->gen == 0 || k->name_gen != name_gen || !ct_rec_same_launch(pl, &k->pl))
        return 0;
    const size_t size = ct_rec_repeat_size(r, k, api_id, t0, t1);
    if (__builtin_expect(!ct_ring_fits(r, size), 0))
        return 0; /* the caller's ct_rec_launch takes the slow path */
    ct_rec_fill_repeat(r, ct_ring_take(r, size), size, api_id, slot, t0, t1);
    return 1;
}

#endif
