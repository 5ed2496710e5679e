#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "format/grow.h"
#include "report/model/stacktab.h"

static int add_module(struct rp_stacktab *t, const struct ct_rec_module *r)
{
    free(t->pieces); /* a module after the first look-up: the pieces are made again */
    t->pieces = NULL;
    struct rp_module *m = ct_grow(t->mods, &t->cmods, t->nmods + 1, sizeof *m);
    if (!m)
        return -1;
    t->mods = m;
    m = &t->mods[t->nmods];
    memset(m, 0, sizeof *m);
    if (!(m->path = strndup((const char *)(r + 1), r->path_len)))
        return -1;
    m->base = r->base;
    m->lo = r->lo;
    m->hi = r->hi;
    m->build_id_len = r->build_id_len;
    m->flags = r->flags;
    memcpy(m->build_id, r->build_id, r->build_id_len);
    t->nmods++;
    return 0;
}

static int add_stack(struct rp_stacktab *t, const struct ct_rec_stack *r)
{
    if (rp_u64map_get(&t->ids, r->id, 0))
        return 0; /* written twice (a forked child's copy): the first stands */
    struct rp_stack *s = ct_grow(t->stacks, &t->cap, t->n + 1, sizeof *s);
    if (!s)
        return -1;
    t->stacks = s;
    s = &t->stacks[t->n];
    s->id = r->id;
    s->nframes = r->nframes;
    s->trimmed = r->trimmed;
    s->python = 0;
    s->mods_before = t->nmods;
    if (!(s->frames = calloc(r->nframes ? r->nframes : 1, sizeof *s->frames)))
        return -1;
    for (unsigned i = 0; i < r->nframes; i++) /* records need not be aligned in the read buffer */
        memcpy(&s->frames[i].addr, (const char *)(r + 1) + 8 * i, sizeof(uint64_t));
    if (!rp_u64map_put(&t->ids, r->id, 0, t->n, 0)) {
        free(s->frames);
        return -1;
    }
    t->n++;
    return 0;
}

static int add_pystack(struct rp_stacktab *t, const struct ct_rec_pystack *r)
{
    struct rp_pystack *p = ct_grow(t->py, &t->cpy, t->npy + 1, sizeof *p);
    if (!p)
        return -1;
    t->py = p;
    p = &t->py[t->npy];
    p->id = r->id;
    p->nframes = r->nframes;
    if (!(p->frames = malloc((r->nframes ? r->nframes : 1) * sizeof *p->frames)))
        return -1;
    memcpy(p->frames, r + 1, r->nframes * sizeof *p->frames); /* records need not be aligned */
    t->npy++;
    return 0;
}

/* Stack s with the Python frames of p among its native ones. */
static int merge_python(struct rp_stack *s, const struct rp_pystack *p,
                        const char *(*name)(const void *ctx, uint32_t id), const void *ctx)
{
    unsigned n = s->nframes + p->nframes, k = 0, o = 0;
    struct rp_frame *fr = calloc(n ? n : 1, sizeof *fr);
    if (!fr || n > UINT16_MAX) {
        free(fr);
        return -1;
    }
    for (unsigned i = 0; i <= s->nframes; i++) {
        for (; k < p->nframes && (p->frames[k].before <= i || i == s->nframes); k++) {
            const char *file = name(ctx, p->frames[k].file_id), *fn = name(ctx, p->frames[k].name_id);
            fr[o] = (struct rp_frame){.python = 1, .line = p->frames[k].line};
            if (!(fr[o].srcfile = strdup(file ? file : "?")) || !(fr[o].function = strdup(fn ? fn : "?"))) {
                free(fr[o].srcfile);
                for (unsigned j = 0; j < o; j++)
                    if (fr[j].python) {
                        free(fr[j].srcfile);
                        free(fr[j].function);
                    }
                free(fr);
                return -1;
            }
            o++;
        }
        if (i < s->nframes)
            fr[o++] = s->frames[i];
    }
    free(s->frames);
    s->frames = fr;
    s->nframes = (uint16_t)n;
    return 0;
}

int rp_stacktab_add_python(struct rp_stacktab *t, const char *(*name)(const void *ctx, uint32_t id),
                           const void *ctx)
{
    int rc = 0;
    for (size_t i = 0; i < t->npy; i++) {
        struct rp_u64map_entry *e = rp_u64map_get(&t->ids, t->py[i].id, 0);
        struct rp_stack *s = e ? &t->stacks[e->v1] : NULL;
        if (rc == 0 && s && !s->python) { /* written twice (a forked child's copy): the first stands */
            rc = merge_python(s, &t->py[i], name, ctx);
            s->python = 1;
        }
        free(t->py[i].frames);
    }
    free(t->py);
    t->py = NULL;
    t->npy = t->cpy = 0;
    return rc;
}

int rp_stacktab_add(struct rp_stacktab *t, const struct ct_rec_hdr *h)
{
    if (h->type == CT_REC_MODULE)
        return add_module(t, (const void *)h);
    if (h->type == CT_REC_STACK)
        return add_stack(t, (const void *)h);
    if (h->type == CT_REC_PYSTACK)
        return add_pystack(t, (const void *)h);
    return 0;
}

const struct rp_stack *rp_stacktab_get(const struct rp_stacktab *t, uint32_t id)
{
    struct rp_u64map_entry *e = id ? rp_u64map_get(&t->ids, id, 0) : NULL;
    return e ? &t->stacks[e->v1] : NULL;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

struct begin {
    uint64_t lo;
    size_t mod;
};

static int cmp_begin(const void *a, const void *b)
{
    return cmp_u64(&((const struct begin *)a)->lo, &((const struct begin *)b)->lo);
}

/* A max-heap of module indexes: the newest module of those begun so far on top. */
static void heap_push(size_t *h, size_t *n, size_t v)
{
    size_t i = (*n)++;
    for (; i && h[(i - 1) / 2] < v; i = (i - 1) / 2)
        h[i] = h[(i - 1) / 2];
    h[i] = v;
}

static void heap_pop(size_t *h, size_t *n)
{
    size_t v = h[--*n], i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= *n)
            break;
        if (c + 1 < *n && h[c + 1] > h[c])
            c++;
        if (h[c] <= v)
            break;
        h[i] = h[c];
        i = c;
    }
    h[i] = v;
}

/* The pieces: a sweep over every module's start and end, keeping the modules begun whose end is not yet
 * passed on a heap (ended ones leave it when they reach the top). */
static int build_pieces(struct rp_stacktab *t)
{
    size_t n = t->nmods, nb = 0, nh = 0, next = 0, np = 0;
    uint64_t *bounds = malloc((2 * n + 1) * sizeof *bounds);
    struct begin *order = malloc((n + 1) * sizeof *order);
    size_t *heap = malloc((n + 1) * sizeof *heap);
    struct rp_modpiece *p = malloc((2 * n + 1) * sizeof *p);
    if (!bounds || !order || !heap || !p) {
        free(bounds);
        free(order);
        free(heap);
        free(p);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        if (t->mods[i].lo < t->mods[i].hi) {
            order[nb / 2] = (struct begin){t->mods[i].lo, i};
            bounds[nb++] = t->mods[i].lo;
            bounds[nb++] = t->mods[i].hi;
        }
    size_t nmods = nb / 2;
    qsort(bounds, nb, sizeof *bounds, cmp_u64);
    qsort(order, nmods, sizeof *order, cmp_begin);
    for (size_t b = 0; b < nb; b++) {
        if (b && bounds[b] == bounds[b - 1])
            continue;
        while (next < nmods && order[next].lo <= bounds[b])
            heap_push(heap, &nh, order[next++].mod);
        while (nh && t->mods[heap[0]].hi <= bounds[b])
            heap_pop(heap, &nh);
        long owner = nh ? (long)heap[0] : -1;
        if (!np || p[np - 1].owner != owner)
            p[np++] = (struct rp_modpiece){bounds[b], owner};
    }
    free(bounds);
    free(order);
    free(heap);
    t->pieces = p;
    t->npieces = np;
    return 0;
}

const struct rp_module *rp_stacktab_module(struct rp_stacktab *t, uint64_t addr)
{
    if (!t->pieces && build_pieces(t) < 0) { /* no memory for the pieces: look at every module */
        for (size_t i = t->nmods; i-- > 0;)
            if (addr >= t->mods[i].lo && addr < t->mods[i].hi)
                return &t->mods[i];
        return NULL;
    }
    size_t lo = 0, hi = t->npieces; /* the last piece that starts at or before addr */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->pieces[mid].start <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo && t->pieces[lo - 1].owner >= 0 ? &t->mods[t->pieces[lo - 1].owner] : NULL;
}

const struct rp_module *rp_stacktab_frame_module(struct rp_stacktab *t, const struct rp_stack *s, uint64_t addr)
{
    const struct rp_module *m = rp_stacktab_module(t, addr);
    size_t before = s->mods_before < t->nmods ? s->mods_before : t->nmods;

    if (!m || (size_t)(m - t->mods) < before) /* the newest of all is older than the stack: the usual case */
        return m;
    /* A module recorded after the stack covers addr: an object loaded there later, or a late record. */
    for (size_t i = before; i-- > 0;)
        if (addr >= t->mods[i].lo && addr < t->mods[i].hi)
            return &t->mods[i];
    for (size_t i = before; i < t->nmods; i++)
        if (addr >= t->mods[i].lo && addr < t->mods[i].hi)
            return &t->mods[i];
    return NULL;
}

void rp_stacktab_free(struct rp_stacktab *t)
{
    for (size_t i = 0; i < t->n; i++) {
        for (unsigned j = 0; j < t->stacks[i].nframes; j++) {
            struct rp_frame *fr = &t->stacks[i].frames[j];
            for (unsigned k = 0; k < fr->ninlined; k++) {
                free(fr->inlined[k].function);
                free(fr->inlined[k].srcfile);
            }
            free(fr->inlined);
            free(fr->function);
            free(fr->srcfile);
        }
        free(t->stacks[i].frames);
    }
    for (size_t i = 0; i < t->npy; i++)
        free(t->py[i].frames);
    free(t->py);
    for (size_t i = 0; i < t->nmods; i++)
        free(t->mods[i].path);
    free(t->stacks);
    free(t->mods);
    free(t->pieces);
    rp_u64map_free(&t->ids);
    memset(t, 0, sizeof *t);
}
