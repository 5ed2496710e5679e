/* The recorder's fast path, inlined into the trampolines (wrappers.c) and recorder.c.
 *
 * Between two launches the driver runs for microseconds and evicts the tracer's code and data from the
 * first-level caches, so what a launch costs the tracer is mostly the lines it brings back: this path
 * touches the ring's producer line, the slot's key line and the record's line, in code that is part of the
 * trampoline itself (no call, no argument spills).  Anything unusual (first record of a thread, a full ring,
 * a loss to report, a wrap) leaves through ct_rec_begin_slow. */
#ifndef CT_PRELOAD_RECORDER_HOT_H
#define CT_PRELOAD_RECORDER_HOT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "cudatrace/format.h"
#include "format/record.h"
#include "preload/recorder.h"
#include "preload/ring.h"
#include "preload/stacks.h"

#define CT_SEQ_BLOCK 256                /* sequence numbers a thread takes at a time: one atomic add per block */
#define CT_REPEAT_MAX_TICKS (1u << 30) /* longer launches are written in full: dur_ns must fit 32 bits */

/* recorder.c: ct_rec_reserve's way out (starts the recorder, makes the thread's ring, reports losses,
 * wraps); NULL when the record is not kept. */
void *ct_rec_begin_slow(size_t size);
/* recorder.c: the first of CT_SEQ_BLOCK call sequence numbers for the calling thread. */
uint64_t ct_rec_seq_block(void);

/* Reserve `size` bytes (multiple of 8) in the calling thread's ring; NULL when the record is not kept. */
static inline __attribute__((always_inline)) void *ct_rec_reserve(size_t size)
{
    struct ct_ring *r = ct_rec_ring;

    if (__builtin_expect(r != NULL && atomic_load_explicit(&ct_state, memory_order_relaxed) == CT_ST_ON &&
                             ct_ring_fits(r, size), 1))
        return ct_ring_take(r, size);
    return ct_rec_begin_slow(size);
}

/* The thread's next call sequence number. */
static inline __attribute__((always_inline)) uint64_t ct_rec_next_seq(struct ct_ring *r)
{
    if (__builtin_expect(r->seq_left == 0, 0)) {
        r->seq_next = ct_rec_seq_block();
        r->seq_left = CT_SEQ_BLOCK;
    }
    r->seq_left--;
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
        ct_rec_next_seq(r); /* readers count it */
    } else {
        struct ct_rec_launch_repeat *rep = p;
        ct_put_hdr(&rep->h, CT_REC_LAUNCH_REPEAT, sizeof *rep, r->tid);
        rep->api_id = api_id;
        rep->shape = (uint8_t)(slot + 1);
        rep->shape_gen = (uint8_t)k->gen;
        rep->dur_ns = (uint32_t)(t1 - t0);
        rep->seq = ct_rec_next_seq(r);
        rep->t0_ns = t0;
        k->api_id = api_id;
    }
    k->last_t0 = t0;
    ct_ring_commit(r);
}

/* cuLaunchKernel's shortcut, before any decoding: when these arguments are what the thread's slot for the
 * function holds and name_gen (the generation of kernel names now) is the slot's, the decoded payload would
 * equal the slot's: write the repeat and return 1.  Else 0, and the caller decodes and calls ct_rec_launch
 * (which also takes every case this leaves to the slow path).  What ct_dec_cuLaunchKernel (decode_launch.c)
 * decodes, field by field: a change there is a change here. */
static inline __attribute__((always_inline)) int
ct_rec_launch_kernel_again(uint16_t api_id, int32_t result, uint64_t t0, uint64_t t1, const void *function,
                           unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                           unsigned shared_mem, const void *stream, uint32_t name_gen)
{
    struct ct_ring *r = ct_rec_ring;
    const uint64_t fn = (uint64_t)(uintptr_t)function;

    if (__builtin_expect(!r || result != 0 || t1 - t0 >= CT_REPEAT_MAX_TICKS || ct_stack_wanted(CT_FAM_LAUNCH) ||
                             atomic_load_explicit(&ct_state, memory_order_relaxed) != CT_ST_ON, 0))
        return 0;
    const unsigned slot = ct_rec_shape_slot(fn);
    struct ct_shape_key *k = &r->key[slot];
    /* plain is set only in a filled slot; the name id is the slot's while the handle is and the kernel-name
     * generation has not moved (no module unloaded since). */
    if (k->function != fn || !k->plain || k->stream != (uint64_t)(uintptr_t)stream ||
        ((k->grid[0] ^ gx) | (k->grid[1] ^ gy) | (k->grid[2] ^ gz) | (k->block[0] ^ bx) | (k->block[1] ^ by) |
         (k->block[2] ^ bz) | (k->shared_mem ^ shared_mem) | (k->name_gen ^ name_gen)))
        return 0;
    const size_t size = ct_rec_repeat_size(r, k, api_id, t0, t1);
    if (__builtin_expect(!ct_ring_fits(r, size), 0))
        return 0; /* the caller's ct_rec_launch takes the slow path */
    ct_rec_fill_repeat(r, ct_ring_take(r, size), size, api_id, slot, t0, t1);
    return 1;
}

#endif
