/* A thread's record buffer: a single-producer/single-consumer byte ring.
 *
 * Positions are byte counts since the ring was made (never wrap); offset = position & mask.  The producer
 * (the owning thread) reserves a record contiguously: when it does not fit before the end of the memory, a
 * pad record (type CT_RING_PAD, never written to a file) fills the rest and the record starts at offset 0.
 * head_pub is published with a release store after the record is filled; the consumer (whoever holds the
 * drain, drain.h) reads up to head_pub with acquire, writes, then releases the space by storing tail.
 *
 * Memory first touched costs a page fault per 4 KiB, and on a fresh virtual machine each one is several µs
 * (the host backs the page then): 2048 of them for an 8 MiB ring.  A ring of CT_RING_HUGE_MIN or more is
 * therefore 2 MiB aligned and starts its positions CT_RING_STARTER bytes before the end of its memory: a
 * thread that makes a few calls touches a few small pages there, and a busy one wraps early, at which point
 * (ct_ring_reserve, once) the ring asks for transparent huge pages, so the rest costs one fault per 2 MiB. */
#ifndef CT_RECORDER_RING_H
#define CT_RECORDER_RING_H

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
#define CT_RING_FIRST (1u << 20)         /* a thread's first ring: it doubles while the writer falls behind */

/* A launch shape slot (format.h): the payload of the slot's last full launch record, what readers need to
 * expand a short repeat, and the slot's generation.  All that a launch on the fast path reads of the slot:
 * two adjacent cache lines. */
struct ct_shape_key {
    struct ct_pl_launch pl; /* compared whole (recorder_hot.h, ct_rec_same_launch) */
    uint32_t gen;      /* how many payloads the slot has held (wraps past 0); 0: empty */
    uint32_t name_gen; /* ct_kernel_name_generation when the payload's name was found */
    uint16_t api_id;   /* of the slot's last launch record (a short repeat must have the same) */
    uint64_t last_t0;  /* of the slot's last launch record (a short repeat's t0 counts from it) */
} __attribute__((aligned(128)));

/* Between two launches the driver runs for microseconds and evicts the tracer's lines from the first-level
 * cache: a record on the fast path touches the producer's line below, its slot's key and the record's own
 * line, and nothing else of the ring. */
struct ct_ring {
    /* The producer's line: everything the fast path reads or writes, a plain call's included.  head_pub is
     * the committed position, the producer's own to write (it reads it back with ct_ring_head) and the
     * consumer's to read, but only when it drains (every few milliseconds): sharing the line costs one
     * transfer per drain. */
    alignas(64) unsigned char *buf;
    uint64_t mask;                 /* size - 1 */
    _Atomic uint64_t head_pub;     /* committed position, published with release after each record */
    uint64_t resv;                 /* end of the record being filled */
    uint64_t limit;                /* records ending at or below this position take the fast path
                                    * (ct_ring_reserve); 0 while a loss waits to be reported */
    uint64_t seq_next;             /* this thread's next call sequence number ... */
    uint32_t seq_left;             /* ... and how many are left in its block */
    uint32_t tid;
    /* The t0 of the thread's last call record, from which a short call's counts (format.h,
     * CT_REC_CALL_SHORT); 0 before the first. */
    uint64_t call_t0;

    /* The producer's slow path (lost/lost_* also at final drains). */
    alignas(64) uint64_t size;
    uint64_t tail_seen;          /* the consumer's tail when last looked at */
    int want_drain;              /* set by ct_ring_reserve: the unwritten part passed a quarter of the ring, or it is full */
    int full_asked;              /* want_drain was set for this ring being full (once until a reservation succeeds) */
    _Atomic uint64_t lost;       /* records dropped and not yet written as CT_REC_LOST */
    uint64_t lost_first, lost_last;
    _Atomic int dead;            /* the thread has exited: drain, write its loss, free */
    struct ct_ring *_Atomic next; /* the list of all rings (rings.c) */
    void *map;                   /* the mapping holding buf and this control block */
    size_t map_len;
    int huge_pending;            /* ask for huge pages at the first wrap */
    char os_name[16];            /* the thread's name at its first record (prctl PR_GET_NAME) ... */
    _Atomic int name_pending;    /* ... which the drain writes as a CT_REC_THREAD (unless renamed since) */

    alignas(64) _Atomic uint64_t tail; /* written by the consumer */

    /* The thread's launch shapes (format.h; record.c fills them): the producer's only. */
    struct ct_shape_key key[CT_LAUNCH_SHAPES];
};

struct ct_ring *ct_ring_new(size_t size, uint32_t tid);
void ct_ring_free(struct ct_ring *r);
/* The thread moves from `old` to the empty ring `r` (a bigger one): r takes over its launch shapes, its
 * block of sequence numbers and its pending loss, so that the records it makes next read on from old's. */
void ct_ring_adopt(struct ct_ring *r, struct ct_ring *old);
/* Forget every buffered record and pending loss (the child of a fork). */
void ct_ring_reset(struct ct_ring *r, uint32_t tid);

/* The producer's committed position (only it writes head_pub: a relaxed read is its own last store). */
static inline uint64_t ct_ring_head(const struct ct_ring *r)
{
    return atomic_load_explicit(&r->head_pub, memory_order_relaxed);
}

/* Producer, fast path: does a record of `size` bytes (multiple of 8, at most size/4) fit before the end of
 * the memory (a record reaching the end takes ct_ring_reserve, which notices the wrap) and below `limit`:
 * the consumer's tail as last seen, or the point where the unwritten part reaches a quarter of the ring
 * (ct_ring_reserve then looks at the consumer again and asks for a drain, want_drain), or nowhere while a
 * dropped record waits to be reported (the recorder sets limit to 0)?  Then ct_ring_take reserves it. */
static inline int ct_ring_fits(const struct ct_ring *r, size_t size)
{
    const uint64_t head = ct_ring_head(r);
    return (head & r->mask) + size <= r->mask && head + size <= r->limit;
}
static inline void *ct_ring_take(struct ct_ring *r, size_t size)
{
    const uint64_t head = ct_ring_head(r);
    r->resv = head + size;
    return r->buf + (head & r->mask);
}
/* Room for `size` bytes, looking at the consumer's progress and wrapping with a pad record when needed;
 * NULL when the ring is full. */
void *ct_ring_reserve(struct ct_ring *r, size_t size);
static inline void ct_ring_commit(struct ct_ring *r)
{
    atomic_store_explicit(&r->head_pub, r->resv, memory_order_release);
}

/* What ct_ring_spans saw of the records it returned, so that the file's bookkeeping needs no walk of its
 * own (tracefile.h). */
#define CT_SPAN_LAST 16
struct ct_span_stats {
    uint64_t records;
    uint64_t calls;              /* records that stand for a call (ct_rec_is_call) */
    uint64_t nvtx;               /* CT_REC_NVTX records (their times made ns here) */
    uint64_t lost;               /* the counts of the CT_REC_LOST records */
    uint64_t at[CT_SPAN_LAST];   /* record i starts at byte at[i % CT_SPAN_LAST] of the spans, joined */
};

/* What a writer that gives up would lose of this ring: the published records not yet released (calls and
 * the counts of LOST records among them) plus the drops not yet reported.  Reads only: safe while another
 * thread holds the drain. */
uint64_t ct_ring_unwritten(const struct ct_ring *r);

/* Consumer: the published records as at most 3 contiguous spans of whole records (pads left out); *end is
 * the position to pass to ct_ring_release once they are written.  Call times stay ticks (the file's
 * CT_REC_CLOCK converts them); a LOST or NVTX record's become ns here (few: touching them costs nothing
 * that matters, and readers of NVTX ranges then need no clock).  Returns the span count. */
int ct_ring_spans(struct ct_ring *r, struct iovec iov[3], uint64_t *end, struct ct_span_stats *st);
static inline void ct_ring_release(struct ct_ring *r, uint64_t end)
{
    atomic_store_explicit(&r->tail, end, memory_order_release);
}

#endif
