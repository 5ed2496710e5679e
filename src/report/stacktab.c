#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "format/grow.h"
#include "report/stacktab.h"

static int add_module(struct rp_stacktab *t, const struct ct_rec_module *r)
{
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

int rp_stacktab_add(struct rp_stacktab *t, const struct ct_rec_hdr *h)
{
    if (h->type == CT_REC_MODULE)
        return add_module(t, (const void *)h);
    if (h->type == CT_REC_STACK)
        return add_stack(t, (const void *)h);
    return 0;
}

const struct rp_stack *rp_stacktab_get(const struct rp_stacktab *t, uint32_t id)
{
    struct rp_u64map_entry *e = id ? rp_u64map_get(&t->ids, id, 0) : NULL;
    return e ? &t->stacks[e->v1] : NULL;
}

const struct rp_module *rp_stacktab_module(const struct rp_stacktab *t, uint64_t addr)
{
    for (size_t i = t->nmods; i-- > 0;)
        if (addr >= t->mods[i].lo && addr < t->mods[i].hi)
            return &t->mods[i];
    return NULL;
}

void rp_stacktab_free(struct rp_stacktab *t)
{
    for (size_t i = 0; i < t->n; i++) {
        for (unsigned j = 0; j < t->stacks[i].nframes; j++) {
            free(t->stacks[i].frames[j].function);
            free(t->stacks[i].frames[j].srcfile);
        }
        free(t->stacks[i].frames);
    }
    for (size_t i = 0; i < t->nmods; i++)
        free(t->mods[i].path);
    free(t->stacks);
    free(t->mods);
    rp_u64map_free(&t->ids);
    memset(t, 0, sizeof *t);
}
