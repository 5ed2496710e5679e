/* A thread's record buffer: a single-producer/single-consumer byte ring.
 *
 * Positions are byte counts since the ring was made (never wrap); offset = position & mask.  The producer
 * (the owning thread) reserves a record contiguously: when it does not fit before the end of the memory, a
 * pad record (type CT_RING_PAD, never written to a file) fills the rest and the record starts at offset 0.
 * head_pub is published with a release store after the record is filled; the consumer (whoever holds the
 * drain, see drain.h) reads up to head_pub with acquire, writes, then releases the space by storing tail.
 *
 * Memory first touched costs a page fault per 4 KiB, and on a fresh virtual machine each one is several µs
 * (the host backs the page then): 2048 of them for an 8 MiB ring.  A ring of CT_RING_HUGE_MIN or more is
 * therefore 2 MiB aligned and starts its positions CT_RING_STARTER bytes before the end of its memory: a
 * thread that makes a few calls touches a few small pages there, and a busy one wraps early, at which point
 * (ct_ring_reserve, once) the ring asks for transparent huge pages, so the rest costs one fault per 2 MiB. */
#ifndef CT_PRELOAD_RING_H
#define CT_PRELOAD_RING_H

#include <stdalign.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#include "cudatrace/format.h"

#define CT_RING_PAD 0u /* record type of the filler before a wrap */
#define CT_RING_HUGE (2u << 20)          /* a transparent huge page */
#define CT_RING_HUGE_MIN (2 * CT_RING_HUGE) /* rings this large get huge pages once busy */
#define CT_RING_STARTER (64u << 10)      /* bytes a big ring uses before its first wrap */

struct ct_ring {
    /* Producer's own line: read and written by the owning thread only (lost/lost_* also at final drains). */
    unsigned char *buf;
    uint64_t size, mask;
    uint64_t head;      /* committed position (the producer's copy of head_pub) */
    uint64_t resv;      /* end of the record being filled */
    uint64_t tail_seen; /* the consumer's tail when last looked at */
    uint64_t limit;     /* records ending at or below this position take the fast path (ct_ring_reserve) */
    int want_drain;     /* set by ct_ring_reserve: the unwritten part passed a quarter of the ring, or it is full */
    int full_asked;     /* want_drain was set for this ring being full (once until a reservation succeeds) */
    uint64_t seq_next, seq_end; /* this thread's block of call sequence numbers */
    _Atomic uint64_t lost;       /* records dropped and not yet written as CT_REC_LOST */
    uint64_t lost_first, lost_last;
    uint32_t tid;

    alignas(64) _Atomic uint64_t head_pub; /* written by the producer */
    alignas(64) _Atomic uint64_t tail;     /* written by the consumer */
    _Atomic int dead;                      /* the thread has exited: drain, write its loss, free */
    struct ct_ring *_Atomic next;          /* the list of all rings (recorder.c) */
    void *map;                             /* the mapping holding buf and this control block */
    size_t map_len;
    int huge_pending;                      /* ask for huge pages at the first wrap */

    /* The thread's launch shapes (format.h; recorder.c fills them): the producer's only.  gen 0: empty. */
    alignas(64) struct ct_pl_launch shape[CT_LAUNCH_SHAPES];
    uint32_t shape_gen[CT_LAUNCH_SHAPES];
    uint32_t shape_name_gen[CT_LAUNCH_SHAPES]; /* ct_kernel_name_generation when the payload's name was found */
};

struct ct_ring *ct_ring_new(size_t size, uint32_t tid);
void ct_ring_free(struct ct_ring *r);
/* Forget every buffered record and pending loss (the child of a fork). */
void ct_ring_reset(struct ct_ring *r, uint32_t tid);

/* Producer, fast path: does a record of `size` bytes (multiple of 8, at most size/4) fit before the end of
 * the memory (a record reaching the end takes ct_ring_reserve, which notices the wrap) and below `limit`:
 * the consumer's tail as last seen, or the point where the unwritten part reaches a quarter of the ring
 * (ct_ring_reserve then looks at the consumer again and asks for a drain, want_drain)?  Then ct_ring_take
 * reserves it. */
static inline int ct_ring_fits(const struct ct_ring *r, size_t size)
{
    return (r->head & r->mask) + size < r->size && r->head + size <= r->limit;
}
static inline void *ct_ring_take(struct ct_ring *r, size_t size)
{
    r->resv = r->head + size;
    return r->buf + (r->head & r->mask);
}
/* Room for `size` bytes, looking at the consumer's progress and wrapping with a pad record when needed;
 * NULL when the ring is full. */
void *ct_ring_reserve(struct ct_ring *r, size_t size);
static inline void ct_ring_commit(struct ct_ring *r)
{
    r->head = r->resv;
    atomic_store_explicit(&r->head_pub, r->head, memory_order_release);
}

/* What ct_ring_spans saw of the records it returned, so that the file's bookkeeping needs no walk of its
 * own (tracefile.h). */
#define CT_SPAN_LAST 16
struct ct_span_stats {
    uint64_t records;
    uint64_t calls;              /* CT_REC_CALL and CT_REC_LAUNCH_REPEAT */
    uint64_t lost;               /* the counts of the CT_REC_LOST records */
    uint64_t at[CT_SPAN_LAST];   /* record i starts at byte at[i % CT_SPAN_LAST] of the spans, joined */
};

/* Consumer: the published records as at most 3 contiguous spans of whole records (pads left out); *end is
 * the position to pass to ct_ring_release once they are written.  Call times stay ticks (the file's
 * CT_REC_CLOCK converts them); a LOST record's become ns here.  Returns the span count. */
int ct_ring_spans(struct ct_ring *r, struct iovec iov[3], uint64_t *end, struct ct_span_stats *st);
static inline void ct_ring_release(struct ct_ring *r, uint64_t end)
{
    atomic_store_explicit(&r->tail, end, memory_order_release);
}

#endif
