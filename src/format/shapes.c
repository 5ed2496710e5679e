#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "format/shapes.h"

struct slot {
    uint32_t gen;
    int known;        /* pl holds the payload of generation gen */
    int seen;         /* api_id and last_t0 are the slot's last launch record's */
    uint16_t api_id;
    uint64_t last_t0; /* in the file's units */
    struct ct_pl_launch pl;
};

struct thread_shapes {
    uint32_t tid;
    int used;
    uint64_t last_seq, last_t0; /* of the thread's last call record */
    struct slot *slot;          /* CT_LAUNCH_SHAPES of them, made at the thread's first launch that has one:
                                   most threads of a program with many never launch */
};

/* Open addressing on the thread id; a program has few threads that launch, but it may have thousands. */
struct ct_shapes {
    struct thread_shapes *t;
    size_t cap, n;
};

struct ct_shapes *ct_shapes_new(void) { return calloc(1, sizeof(struct ct_shapes)); }

void ct_shapes_clear(struct ct_shapes *s)
{
    for (size_t i = 0; i < s->cap; i++)
        free(s->t[i].slot);
    free(s->t);
    s->t = NULL;
    s->cap = s->n = 0;
}

void ct_shapes_free(struct ct_shapes *s)
{
    if (s)
        ct_shapes_clear(s);
    free(s);
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

/* The entry of thread `tid`, made on first sight; NULL when out of memory. */
static struct thread_shapes *thread(struct ct_shapes *s, uint32_t tid)
{
    struct thread_shapes *t = find(s, tid);

    if (t)
        return t;
    if ((s->n + 1) * 4 > s->cap * 3 && grow(s) < 0)
        return NULL;
    t = free_entry(s->t, s->cap, tid);
    t->used = 1;
    t->tid = tid;
    s->n++;
    return t;
}

/* Slot i of a thread (0-based, < CT_LAUNCH_SHAPES); NULL when out of memory. */
static struct slot *slot_of(struct thread_shapes *t, unsigned i)
{
    if (!t->slot && !(t->slot = calloc(CT_LAUNCH_SHAPES, sizeof *t->slot)))
        return NULL;
    return &t->slot[i];
}

int ct_shapes_note(struct ct_shapes *s, const struct ct_rec_call *c)
{
    struct thread_shapes *t = s ? thread(s, c->h.tid) : NULL;

    if (!t)
        return -1;
    t->last_seq = c->seq;
    t->last_t0 = c->t0_ns;
    if (c->payload == CT_FAM_LAUNCH && c->shape != 0 && c->shape <= CT_LAUNCH_SHAPES) {
        struct slot *sl = slot_of(t, c->shape - 1u);
        if (!sl)
            return -1;
        sl->gen = c->shape_gen;
        sl->known = sl->seen = 1;
        sl->api_id = c->api_id;
        sl->last_t0 = c->t0_ns;
        memcpy(&sl->pl, c + 1, sizeof sl->pl);
    }
    return 0;
}

int ct_shapes_expand(struct ct_shapes *s, const struct ct_rec_hdr *h, uint64_t base, struct ct_launch_call *out)
{
    struct thread_shapes *t = s ? thread(s, h->tid) : NULL;
    struct slot *sl;
    uint64_t t0, dur;
    int known, nomem = s && !t;

    memset(out, 0, sizeof *out);
    out->c.h = *h;
    out->c.h.type = CT_REC_CALL;
    out->c.h.size = sizeof *out;
    out->c.payload = CT_FAM_LAUNCH;
    if (h->type == CT_REC_LAUNCH_REPEAT) {
        const struct ct_rec_launch_repeat *rep = (const void *)h;
        sl = t && rep->shape - 1u < CT_LAUNCH_SHAPES ? slot_of(t, rep->shape - 1u) : NULL;
        nomem |= t && rep->shape - 1u < CT_LAUNCH_SHAPES && !sl;
        if (sl && (uint8_t)sl->gen != rep->shape_gen)
            sl->known = 0; /* a newer payload than the file holds: short repeats after this stand for it too */
        known = sl && sl->known;
        out->c.api_id = rep->api_id;
        out->c.seq = rep->seq;
        t0 = rep->t0_ns;
        dur = rep->dur_ns;
    } else {
        const struct ct_rec_launch_short *sh = (const void *)h;
        sl = t ? slot_of(t, sh->dur_slot >> CT_SHORT_DUR_BITS) : NULL;
        nomem |= t && !sl;
        known = sl && sl->known;
        /* Not seen: the record that named the slot was lost; the api is unknown, the time near the last. */
        out->c.api_id = sl && sl->seen ? sl->api_id : UINT16_MAX;
        out->c.seq = t ? t->last_seq + 1 : 0;
        t0 = (sl && sl->seen ? sl->last_t0 : t && t->last_t0 ? t->last_t0 : base) + sh->dt0;
        dur = sh->dur_slot & ((1u << CT_SHORT_DUR_BITS) - 1);
    }
    out->c.t0_ns = t0;
    out->c.t1_ns = t0 + dur;
    if (known)
        out->pl = sl->pl;
    if (sl) {
        sl->seen = 1;
        sl->api_id = out->c.api_id;
        sl->last_t0 = t0;
    }
    if (t) {
        t->last_seq = out->c.seq;
        t->last_t0 = t0;
    }
    return nomem ? -1 : known;
}

int ct_shapes_expand_call(struct ct_shapes *s, const struct ct_rec_call_short *sh, uint64_t base,
                          struct ct_rec_call *out)
{
    struct thread_shapes *t = s ? thread(s, sh->h.tid) : NULL;
    const uint64_t t0 = (t && t->last_t0 ? t->last_t0 : base) + sh->dt0;

    memset(out, 0, sizeof *out);
    out->h = sh->h;
    out->h.type = CT_REC_CALL;
    out->h.size = sizeof *out;
    out->api_id = sh->api_id;
    out->seq = t ? t->last_seq + 1 : 0;
    out->t0_ns = t0;
    out->t1_ns = t0 + sh->dur;
    if (!t)
        return s ? -1 : 0;
    t->last_seq = out->seq;
    t->last_t0 = t0;
    return 0;
}
