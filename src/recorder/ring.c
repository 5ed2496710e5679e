#include "config.h"

#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cudatrace/format.h"
#include "format/record.h"
#include "recorder/clock.h"
#include "recorder/ring.h"
#include "recorder/tsan.h"

#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25 /* Linux 6.1; older kernels refuse it and the small pages stay */
#endif

/* Where a fresh ring's positions start (see ring.h). */
static uint64_t first_position(const struct ct_ring *r)
{
    return r->huge_pending ? r->size - CT_RING_STARTER : 0;
}

/* The data and, after it, the control block share one mapping: allocated once per thread, off the hot path.
 * Only the pages written are ever touched. */
struct ct_ring *ct_ring_new(size_t size, uint32_t tid)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t ctl = (sizeof(struct ct_ring) + page - 1) & ~(page - 1);
    size_t align = size >= CT_RING_HUGE_MIN && CT_RING_HUGE > page ? CT_RING_HUGE : page;
    size_t len = size + ctl + (align - page); /* mmap gives page alignment: room to align further */
    void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    unsigned char *buf;
    struct ct_ring *r;

    if (m == MAP_FAILED)
        return NULL;
    buf = (unsigned char *)(((uintptr_t)m + align - 1) & ~(uintptr_t)(align - 1));
    r = (struct ct_ring *)(buf + size);
    r->buf = buf;
    r->size = size;
    r->mask = size - 1;
    r->map = m;
    r->map_len = len;
    r->huge_pending = align != page;
    ct_ring_reset(r, tid);
    return r;
}

void ct_ring_free(struct ct_ring *r)
{
    munmap(r->map, r->map_len); /* r lies inside the mapping: nothing of it is read after this */
}

void ct_ring_reset(struct ct_ring *r, uint32_t tid)
{
    uint64_t start = first_position(r);

    r->resv = r->tail_seen = start;
    r->limit = start + r->size / 4;
    r->want_drain = r->full_asked = 0;
    r->seq_next = 0;
    r->seq_left = 0;
    r->call_t0 = 0;
    atomic_store(&r->lost, 0);
    r->lost_first = r->lost_last = 0;
    r->tid = tid;
    memset(r->key, 0, sizeof r->key); /* a fork's child writes a new file: its reader knows no shape */
    atomic_store(&r->head_pub, start);
    atomic_store(&r->tail, start);
}

void ct_ring_adopt(struct ct_ring *r, struct ct_ring *old)
{
    uint64_t lost = atomic_exchange(&old->lost, 0);

    memcpy(r->key, old->key, sizeof r->key);
    r->seq_next = old->seq_next;
    r->seq_left = old->seq_left;
    r->call_t0 = old->call_t0;
    if (lost) {
        atomic_store(&r->lost, lost);
        r->lost_first = old->lost_first;
        r->lost_last = old->lost_last;
        r->limit = 0; /* reported ahead of the next record */
    }
}

/* The first wrap of a big ring: its thread is busy, so back the ring with huge pages from here on, and fold
 * the starter's few small pages into one too so that the next pass over them faults no more. */
static void go_huge(struct ct_ring *r)
{
    r->huge_pending = 0;
    madvise(r->buf, r->size, MADV_HUGEPAGE);
    madvise(r->buf + r->size - CT_RING_HUGE, CT_RING_HUGE, MADV_COLLAPSE);
}

void *ct_ring_reserve(struct ct_ring *r, size_t size)
{
    const uint64_t head = ct_ring_head(r);
    uint64_t off = head & r->mask, to_end = r->size - off;
    uint64_t need = to_end < size ? to_end + size : size, quarter = r->size / 4;

    r->tail_seen = atomic_load_explicit(&r->tail, memory_order_acquire);
    if (head + need - r->tail_seen > r->size) {
        r->want_drain = !r->full_asked; /* once per filling: each dropped record must not cost a system call */
        r->full_asked = 1;
        return NULL;
    }
    r->full_asked = 0;
    /* Ask for a drain while a quarter is unwritten, then again each further quarter until the consumer
     * catches up; the fast path never passes the consumer's tail. */
    if (head + need - r->tail_seen >= quarter) {
        r->want_drain = 1;
        r->limit = head + need + quarter;
    } else {
        r->limit = r->tail_seen + quarter;
    }
    if (r->limit > r->tail_seen + r->size)
        r->limit = r->tail_seen + r->size;
    if (to_end <= size && r->huge_pending) /* this record reaches the end of the memory: the first wrap */
        go_huge(r);
    if (to_end >= size) {
        r->resv = head + size;
        return r->buf + off;
    }
    /* to_end < size <= CT_REC_MAX_SIZE, so the pad's size fits its 16-bit field. */
    ct_put_hdr((struct ct_rec_hdr *)(r->buf + off), CT_RING_PAD, to_end, r->tid);
    r->resv = head + to_end + size;
    return r->buf;
}

uint64_t ct_ring_unwritten(const struct ct_ring *r)
{
    uint64_t pos = atomic_load_explicit(&r->tail, memory_order_acquire);
    uint64_t head = atomic_load_explicit(&r->head_pub, memory_order_acquire);
    uint64_t n = atomic_load_explicit(&r->lost, memory_order_relaxed);

    while (pos < head) {
        const struct ct_rec_hdr *h = (const void *)(r->buf + (pos & r->mask));
        if (h->size == 0)
            break;
        if (ct_rec_is_call(h->type))
            n++;
        else if (h->type == CT_REC_LOST)
            n += ((const struct ct_rec_lost *)h)->count;
        pos += h->size;
    }
    return n;
}

/* A LOST record made by the thread itself holds ticks; the file has ns in every LOST record. */
static void lost_to_ns(struct ct_rec_lost *l)
{
    l->t_first_ns = ct_clock_ns(l->t_first_ns);
    l->t_last_ns = ct_clock_ns(l->t_last_ns);
}

int ct_ring_spans(struct ct_ring *r, struct iovec iov[3], uint64_t *end, struct ct_span_stats *st)
{
    uint64_t pos = atomic_load_explicit(&r->tail, memory_order_relaxed);
    uint64_t head = atomic_load_explicit(&r->head_pub, memory_order_acquire);
    uint64_t start = pos, joined = 0;
    int n = 0;

    ct_tsan_acquire(r); /* found in the registry, which listed it after ct_tsan_release (rings.c) */
    st->records = st->calls = st->lost = st->nvtx = 0;
    /* A span ends at a pad and at the end of the memory (a record may end exactly there, with no pad). */
    while (pos < head) {
        struct ct_rec_hdr *h = (void *)(r->buf + (pos & r->mask));
        if (h->size == 0) /* cannot happen with our producer; never loop on it */
            break;
        if (h->type == CT_RING_PAD) {
            if (pos > start && n < 3)
                iov[n++] = (struct iovec){r->buf + (start & r->mask), pos - start};
            pos += h->size;
            start = pos;
            continue;
        }
        st->at[st->records++ % CT_SPAN_LAST] = joined;
        joined += h->size;
        if (ct_rec_is_call(h->type)) {
            st->calls++;
        } else if (h->type == CT_REC_LOST) {
            st->lost += ((struct ct_rec_lost *)h)->count;
            lost_to_ns((struct ct_rec_lost *)h);
        } else if (h->type == CT_REC_NVTX) {
            struct ct_rec_nvtx *e = (struct ct_rec_nvtx *)h;
            e->t_ns = ct_clock_ns(e->t_ns);
            st->nvtx++;
        }
        pos += h->size;
        if ((pos & r->mask) == 0 && n < 3) {
            iov[n++] = (struct iovec){r->buf + (start & r->mask), pos - start};
            start = pos;
        }
    }
    if (pos > start && n < 3)
        iov[n++] = (struct iovec){r->buf + (start & r->mask), pos - start};
    *end = pos;
    return n;
}
