#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/model/memory.h"

#include "report/model/display_names.h"

/* A change of kind's live bytes, kept for rp_mem_replay. */
static void note(struct rp_memtrack *m, unsigned kind, int grew, uint64_t bytes, uint32_t stack)
{
    if (!m->record)
        return;
    if (m->record_stacks)
        rp_put_var(&m->change_stacks, stack);
    rp_put_svar(&m->changes, m->cur_t0 - m->last_t0);
    rp_put_svar(&m->changes, m->cur_t1 - m->cur_t0);
    rp_put_u8(&m->changes, (uint8_t)(kind << 1 | (grew ? 1 : 0)));
    rp_put_var(&m->changes, bytes);
    m->last_t0 = m->cur_t0;
    m->nchanges++;
    m->oom |= m->changes.oom | m->change_stacks.oom;
}

static void grew(struct rp_mem_stats *s, uint64_t bytes, int64_t t)
{
    s->live++;
    s->live_bytes += bytes;
    if (s->live_bytes > s->peak_bytes) {
        s->peak_bytes = s->live_bytes;
        s->peak_t = t;
    }
}

static void shrank(struct rp_mem_stats *s, uint64_t bytes)
{
    s->live--;
    s->live_bytes -= bytes;
}

/* The per-device stats of a kind (detail only); NULL when out of memory. */
static struct rp_mem_stats *dev_stats(struct rp_memtrack *m, int32_t device, unsigned kind)
{
    size_t slot = device < 0 ? 0 : (size_t)device + 1;
    if (slot >= m->ndevices) {
        size_t n = slot + 1;
        struct rp_mem_stats *s = realloc(m->by_device, n * RP_MEM_KINDS * sizeof *s);
        if (!s) {
            m->oom = 1;
            return NULL;
        }
        memset(s + m->ndevices * RP_MEM_KINDS, 0, (n - m->ndevices) * RP_MEM_KINDS * sizeof *s);
        m->by_device = s;
        m->ndevices = n;
    }
    return &m->by_device[slot * RP_MEM_KINDS + kind];
}

/* Live bytes and allocations of a call site (detail only), apart for the kinds that are not device memory. */
static void site_add(struct rp_memtrack *m, uint32_t stack, uint64_t file, unsigned kind, int64_t bytes, int64_t count)
{
    const uint64_t key = file | (rp_mem_kind_on_device(kind) ? 0 : RP_SITE_OFF_DEVICE);
    struct rp_u64map_entry *e = rp_u64map_get(&m->sites, stack, key);
    if (!e && !(e = rp_u64map_put(&m->sites, stack, key, 0, 0))) {
        m->oom = 1;
        return;
    }
    e->v1 += (uint64_t)bytes;
    e->v2 += (uint64_t)count;
}

/* Remove a live allocation (freed, or replaced by a new one at the same address). */
static int release(struct rp_memtrack *m, struct rp_u64map_entry *e)
{
    uint64_t bytes = e->v1;
    unsigned kind = rp_live_kind(e);
    uint32_t stack = rp_live_stack(e); /* e is gone after the removal */
    if (m->detail) {
        struct rp_mem_stats *d = dev_stats(m, rp_live_device(e), kind);
        if (d)
            shrank(d, bytes);
        /* k2: file << 2 | space, and the map's used bit */
        site_add(m, rp_live_stack(e), (e->k2 & ~(1ull << 63)) >> 2, kind, -(int64_t)bytes, -1);
    }
    rp_u64map_remove(&m->live, e);
    shrank(&m->kind[kind], bytes);
    note(m, kind, 0, bytes, stack);
    if (rp_mem_kind_on_device(kind)) {
        shrank(&m->device, bytes);
        return 1;
    }
    return 0;
}

int rp_memtrack_call(struct rp_memtrack *m, const struct rp_call *c)
{
    if (c->call->c.result != 0)
        return 0;
    uint64_t file = (uint64_t)c->file_index << 2;
    m->cur_t0 = (int64_t)c->call->c.t0_ns;
    m->cur_t1 = (int64_t)c->call->c.t1_ns;
    if (c->call->family == CT_FAM_ALLOC) {
        const struct ct_pl_alloc *a = &c->call->pl.alloc;
        unsigned kind = a->kind < RP_MEM_KINDS ? a->kind : CT_MEM_UNKNOWN;
        /* An ordinal no device can have (a damaged record) counts as unknown: by_device is sized by it and
         * the live set keeps it in 24 bits. */
        int32_t device = a->device >= 0 && a->device < RP_MEM_MAX_DEVICES ? a->device : -1;
        int changed = 0;
        m->kind[kind].allocs++;
        m->kind[kind].alloc_bytes += a->bytes;
        if (rp_mem_kind_on_device(kind)) {
            m->device.allocs++;
            m->device.alloc_bytes += a->bytes;
        }
        struct rp_u64map_entry *old = rp_u64map_get(&m->live, a->address, file | rp_mem_space(kind));
        if (old) /* its free was not recorded (lost records): the new allocation replaces it */
            changed |= release(m, old);
        uint64_t tag = kind | (uint64_t)(uint32_t)(device + 1) << 8 | (uint64_t)c->call->c.stack_id << 32;
        if (!rp_u64map_put(&m->live, a->address, file | rp_mem_space(kind), a->bytes, tag)) {
            m->oom = 1;
            return changed;
        }
        grew(&m->kind[kind], a->bytes, c->t1);
        note(m, kind, 1, a->bytes, c->call->c.stack_id);
        if (m->detail) {
            struct rp_mem_stats *d = dev_stats(m, device, kind);
            if (d) {
                d->allocs++;
                d->alloc_bytes += a->bytes;
                grew(d, a->bytes, c->t1);
            }
            site_add(m, c->call->c.stack_id, c->file_index, kind, (int64_t)a->bytes, 1);
        }
        if (rp_mem_kind_on_device(kind)) {
            grew(&m->device, a->bytes, c->t1);
            changed = 1;
        }
        return changed;
    }
    if (c->call->family == CT_FAM_FREE) {
        const struct ct_pl_free *f = &c->call->pl.free;
        if (f->address == 0) /* freeing NULL does nothing */
            return 0;
        unsigned fkind = f->kind < RP_MEM_KINDS ? f->kind : CT_MEM_UNKNOWN;
        struct rp_u64map_entry *e = rp_u64map_get(&m->live, f->address, file | rp_mem_space(fkind));
        if (!e) {
            m->unmatched_frees++;
            return 0;
        }
        unsigned kind = rp_live_kind(e); /* counted under the kind it was allocated as */
        m->kind[kind].frees++;
        m->kind[kind].freed_bytes += e->v1;
        struct rp_mem_stats *d = m->detail ? dev_stats(m, rp_live_device(e), kind) : NULL;
        if (d) {
            d->frees++;
            d->freed_bytes += e->v1;
        }
        if (rp_mem_kind_on_device(kind)) {
            m->device.frees++;
            m->device.freed_bytes += e->v1;
        }
        return release(m, e);
    }
    return 0;
}

/* A file's next change, decoded. */
/* Changes read from a descriptor come through a buffer this large per file: a change takes at most 31 bytes. */
#define SPILL_BUF 4096
#define CHANGE_MAX 31

struct cursor {
    struct rp_rd rd;
    uint64_t left;
    int64_t t0, t1, offset;
    unsigned kind, grew;
    uint64_t bytes;
    size_t file;
    int fd;                /* >= 0: the changes lie in it from `at`, `unread` bytes of them not yet buffered */
    uint64_t at, unread;
    unsigned char *buf;
};

/* Keep at least CHANGE_MAX bytes (or all that is left) ahead of a cursor reading a descriptor.  0 or -1. */
static int refill(struct cursor *k)
{
    size_t have = (size_t)(k->rd.end - k->rd.p);
    if (k->fd < 0 || have >= CHANGE_MAX || !k->unread)
        return 0;
    memmove(k->buf, k->rd.p, have);
    size_t want = SPILL_BUF - have;
    if (want > k->unread)
        want = (size_t)k->unread;
    for (size_t got = 0; got < want;) {
        ssize_t n = pread(k->fd, k->buf + have + got, want - got, (off_t)k->at);
        if (n <= 0)
            return -1;
        got += (size_t)n;
        k->at += (uint64_t)n;
    }
    k->unread -= want;
    k->rd.p = k->buf;
    k->rd.end = k->buf + have + want;
    return 0;
}

int rp_mem_get_change(struct rp_rd *r, struct rp_mem_change *c)
{
    c->dt0 = rp_get_svar(r);
    c->dt1 = rp_get_svar(r);
    const uint8_t kg = rp_get_u8(r);
    c->kind = kg >> 1;
    c->grew = kg & 1;
    c->bytes = rp_get_var(r);
    return r->bad || c->kind >= RP_MEM_KINDS ? -1 : 0;
}

int rp_mem_changes_ok(const unsigned char *p, size_t len, uint64_t n)
{
    struct rp_rd rd = rp_rd_of(p, len);
    struct rp_mem_change c;
    for (uint64_t i = 0; i < n; i++)
        if (rp_mem_get_change(&rd, &c) < 0)
            return 0;
    return rd.p == rd.end;
}

static int next_change(struct cursor *k)
{
    if (!k->left)
        return 0;
    if (refill(k) < 0)
        return -1;
    k->left--;
    struct rp_mem_change c;
    if (rp_mem_get_change(&k->rd, &c) < 0)
        return -1;
    /* unsigned: a corrupt partial's deltas wrap instead of overflowing */
    k->t0 = (int64_t)((uint64_t)k->t0 + (uint64_t)c.dt0);
    k->t1 = (int64_t)((uint64_t)k->t0 + (uint64_t)c.dt1);
    k->kind = c.kind;
    k->grew = c.grew;
    k->bytes = c.bytes;
    return 1;
}

/* The merge's order: report time of the call's start, then file. */
static int before(const struct cursor *a, const struct cursor *b)
{
    const int64_t x = (int64_t)((uint64_t)a->t0 + (uint64_t)a->offset),
                  y = (int64_t)((uint64_t)b->t0 + (uint64_t)b->offset);
    return x != y ? x < y : a->file < b->file;
}

static void sift_down(struct cursor **h, size_t n, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, min = i;
        if (l < n && before(h[l], h[min]))
            min = l;
        if (r < n && before(h[r], h[min]))
            min = r;
        if (min == i)
            return;
        struct cursor *t = h[i];
        h[i] = h[min];
        h[min] = t;
        i = min;
    }
}

static void apply(struct rp_mem_stats *s, int grow, uint64_t bytes, int64_t t)
{
    if (grow)
        grew(s, bytes, t);
    else
        shrank(s, bytes);
}

/* The replay of rp_mem_replay; with `stop`, only its first `stop` changes, counting each file's in applied[]
 * (both 0/NULL: all of them); *peak_step (may be NULL) gets the number of the change that set the device
 * peak. */
static int replay(struct rp_memtrack *m, const struct rp_mem_changes *files, size_t n, uint64_t stop,
                  uint64_t *applied, uint64_t *peak_step)
{
    uint64_t step = 0;
    struct cursor *k = calloc(n ? n : 1, sizeof *k);
    struct cursor **h = calloc(n ? n : 1, sizeof *h);
    size_t nh = 0;
    int rc = 0;
    if (!k || !h) {
        free(k);
        free(h);
        return -1;
    }
    for (unsigned i = 0; i < RP_MEM_KINDS; i++)
        m->kind[i].live = m->kind[i].live_bytes = m->kind[i].peak_bytes = 0;
    m->device.live = m->device.live_bytes = m->device.peak_bytes = 0;
    for (size_t i = 0; i < n; i++) {
        const unsigned char *p = files[i].fd < 0 ? files[i].p : NULL;
        k[i] = (struct cursor){{p, p ? p + files[i].len : NULL, 0}, files[i].n, 0, 0, files[i].offset, 0, 0, 0, i,
                               files[i].fd, files[i].at, files[i].len, NULL};
        if (k[i].fd >= 0) {
            if (!(k[i].buf = malloc(SPILL_BUF))) {
                rc = -1;
                break;
            }
            k[i].rd = (struct rp_rd){k[i].buf, k[i].buf, 0};
        }
        int got = next_change(&k[i]);
        if (got < 0)
            rc = -1;
        else if (got)
            h[nh++] = &k[i];
    }
    for (size_t i = nh; i-- > 0;)
        sift_down(h, nh, i);
    while (nh && rc == 0 && (!stop || step < stop)) {
        struct cursor *c = h[0];
        const int64_t t1 = (int64_t)((uint64_t)c->t1 + (uint64_t)c->offset);
        const uint64_t peak = m->device.peak_bytes;
        apply(&m->kind[c->kind], (int)c->grew, c->bytes, t1);
        if (rp_mem_kind_on_device(c->kind))
            apply(&m->device, (int)c->grew, c->bytes, t1);
        step++;
        if (peak_step && m->device.peak_bytes > peak)
            *peak_step = step;
        if (applied)
            applied[c->file]++;
        int got = next_change(c);
        if (got < 0)
            rc = -1;
        else if (!got)
            h[0] = h[--nh];
        sift_down(h, nh, 0);
    }
    for (size_t i = 0; i < n; i++)
        free(k[i].buf);
    free(k);
    free(h);
    return rc;
}

int rp_mem_replay(struct rp_memtrack *m, const struct rp_mem_changes *files, size_t n)
{
    return replay(m, files, n, 0, NULL, NULL);
}

int rp_mem_replay_peak(struct rp_memtrack *m, const struct rp_mem_changes *files, size_t n, uint64_t *applied)
{
    uint64_t peak_step = 0;
    struct rp_memtrack at = {0};
    memset(applied, 0, n * sizeof *applied);
    if (replay(m, files, n, 0, NULL, &peak_step) < 0)
        return -1;
    return peak_step ? replay(&at, files, n, peak_step, applied, NULL) : 0;
}

void rp_memtrack_free(struct rp_memtrack *m)
{
    rp_bytes_free(&m->change_stacks);
    rp_bytes_free(&m->changes);
    rp_u64map_free(&m->live);
    rp_u64map_free(&m->sites);
    free(m->by_device);
}

void rp_memtracks_free(struct rp_memtrack *m, size_t n)
{
    for (size_t i = 0; m && i < n; i++)
        rp_memtrack_free(&m[i]);
    free(m);
}

int rp_memtrack_replay(struct rp_trace *t, struct rp_memtrack *m, uint64_t stop, uint64_t *peak_at,
                       void (*each)(void *ctx, const struct rp_call *c, const struct rp_memtrack *m), void *ctx)
{
    struct rp_merge *mg = rp_merge_begin(t);
    uint64_t i = 0;
    if (!mg)
        return -1;
    m->detail = 1;
    for (const struct rp_call *c; (c = rp_merge_next(mg));) {
        uint64_t before = m->device.peak_bytes;
        if (c->call->family != CT_FAM_ALLOC && c->call->family != CT_FAM_FREE)
            continue;
        rp_memtrack_call(m, c);
        i++;
        if (peak_at && m->device.peak_bytes > before)
            *peak_at = i;
        if (each)
            each(ctx, c, m);
        if (m->oom || i == stop)
            break;
    }
    int failed = rp_merge_failed(mg);
    rp_merge_end(mg);
    return m->oom ? -1 : failed ? RP_EXIT_UNREADABLE : 0;
}
