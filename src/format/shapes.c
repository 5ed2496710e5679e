#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "format/shapes.h"

struct slot {
    uint32_t gen;
    int known;
    struct ct_pl_launch pl;
};

struct thread_shapes {
    uint32_t tid;
    int used;
    struct slot slot[CT_LAUNCH_SHAPES];
};

/* Open addressing on the thread id; a program has few threads that launch, but it may have thousands. */
struct ct_shapes {
    struct thread_shapes *t;
    size_t cap, n;
};

struct ct_shapes *ct_shapes_new(void) { return calloc(1, sizeof(struct ct_shapes)); }

void ct_shapes_free(struct ct_shapes *s)
{
    if (s)
        free(s->t);
    free(s);
}

void ct_shapes_clear(struct ct_shapes *s)
{
    free(s->t);
    s->t = NULL;
    s->cap = s->n = 0;
}

static size_t home(uint32_t tid, size_t cap) { return (size_t)(tid * 2654435761u) & (cap - 1); }

static struct thread_shapes *find(const struct ct_shapes *s, uint32_t tid)
{
    if (!s || !s->cap)
        return NULL;
    for (size_t i = home(tid, s->cap);; i = (i + 1) & (s->cap - 1)) {
        if (!s->t[i].used)
            return NULL;
        if (s->t[i].tid == tid)
            return &s->t[i];
    }
}

/* The free entry where `tid` goes in t[cap] (which has one). */
static struct thread_shapes *free_entry(struct thread_shapes *t, size_t cap, uint32_t tid)
{
    size_t i = home(tid, cap);
    while (t[i].used)
        i = (i + 1) & (cap - 1);
    return &t[i];
}

static int grow(struct ct_shapes *s)
{
    size_t cap = s->cap ? s->cap * 2 : 4; /* a report's per-thread cursor holds one thread */
    struct thread_shapes *t = calloc(cap, sizeof *t);

    if (!t)
        return -1;
    for (size_t i = 0; i < s->cap; i++)
        if (s->t[i].used)
            *free_entry(t, cap, s->t[i].tid) = s->t[i];
    free(s->t);
    s->t = t;
    s->cap = cap;
    return 0;
}

/* Slot `shape` (1..CT_LAUNCH_SHAPES) of thread `tid` now holds *pl, generation gen. */
static int fill(struct ct_shapes *s, uint32_t tid, unsigned shape, uint32_t gen, const struct ct_pl_launch *pl)
{
    struct thread_shapes *t;

    if (shape == 0 || shape > CT_LAUNCH_SHAPES)
        return 0;
    if (!(t = find(s, tid))) {
        if ((s->n + 1) * 4 > s->cap * 3 && grow(s) < 0)
            return -1;
        t = free_entry(s->t, s->cap, tid);
        t->used = 1;
        t->tid = tid;
        s->n++;
    }
    struct slot *sl = &t->slot[shape - 1];
    sl->gen = gen;
    sl->known = 1;
    sl->pl = *pl;
    return 0;
}

int ct_shapes_note(struct ct_shapes *s, const struct ct_rec_call *c)
{
    struct ct_pl_launch pl;

    if (c->payload != CT_FAM_LAUNCH || c->shape == 0)
        return 0;
    memcpy(&pl, c + 1, sizeof pl);
    return fill(s, c->h.tid, c->shape, c->shape_gen, &pl);
}

int ct_shapes_expand(const struct ct_shapes *s, const struct ct_rec_launch_repeat *rep, struct ct_launch_call *out)
{
    const struct thread_shapes *t = find(s, rep->h.tid);
    const struct slot *sl = t ? &t->slot[rep->shape - 1] : NULL;
    const int known = sl && sl->known && (uint8_t)sl->gen == rep->shape_gen;

    memset(out, 0, sizeof *out);
    out->c.h = rep->h;
    out->c.h.type = CT_REC_CALL;
    out->c.h.size = sizeof *out;
    out->c.api_id = rep->api_id;
    out->c.payload = CT_FAM_LAUNCH;
    out->c.seq = rep->seq;
    out->c.t0_ns = rep->t0_ns;
    out->c.t1_ns = rep->t0_ns + rep->dur_ns;
    if (known)
        out->pl = sl->pl;
    return known;
}
