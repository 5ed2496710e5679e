#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "format/grow.h"
#include "report/model/sites.h"
#include "report/model/sort.h"
#include "report/model/frames.h"

/* A new site of `key`, labelled with a copy of `label`, its other fields zero; its index, or (size_t)-1 when out
 * of memory. */
static size_t new_site(struct rp_sites *s, const char *key, const char *label)
{
    struct rp_site *v = ct_grow(s->v, &s->cap, s->n + 1, sizeof *v);
    if (!v)
        return (size_t)-1;
    s->v = v;
    memset(&v[s->n], 0, sizeof v[s->n]);
    if (!(v[s->n].label = strdup(label)) || rp_strmap_put(&s->by_key, key, s->n) < 0) {
        free(v[s->n].label);
        return (size_t)-1;
    }
    return s->n++;
}

struct rp_site *rp_site_of(struct rp_sites *s, const struct rp_trace *t, size_t file, uint32_t stack_id,
                           const char *label, uint32_t label_id)
{
    uint64_t k2 = (uint64_t)file << 16 | label_id;
    struct rp_u64map_entry *e = rp_u64map_get(&s->of_id, stack_id, k2);
    if (e)
        return &s->v[e->v1];
    const struct rp_stack *st = rp_stacktab_get(&t->files[file].stacks, stack_id);
    char *skey = rp_stack_key(st), *key = skey ? malloc(strlen(label) + strlen(skey) + 2) : NULL;
    struct rp_site *site = NULL;
    if (!key)
        goto out;
    sprintf(key, "%s\n%s", label, skey);
    size_t i = rp_strmap_get(&s->by_key, key);
    if (i == (size_t)-1) {
        if ((i = new_site(s, key, label)) == (size_t)-1)
            goto out;
        s->v[i].stack = st && st->nframes ? st : NULL;
    }
    if (rp_u64map_put(&s->of_id, stack_id, k2, i, 0))
        site = &s->v[i];
out:
    free(skey);
    free(key);
    return site;
}

struct rp_site *rp_site_keyed(struct rp_sites *s, const char *key, const char *label, const struct rp_stack *stack)
{
    size_t i = rp_strmap_get(&s->by_key, key);
    if (i == (size_t)-1) {
        if ((i = new_site(s, key, label)) == (size_t)-1)
            return NULL;
        s->v[i].stack = stack;
    }
    return &s->v[i];
}

/* The Python frames of st from frame `first` on, sharing st's frames' strings. */
static struct rp_stack *python_view(const struct rp_stack *st, unsigned first)
{
    struct rp_stack *v = calloc(1, sizeof *v);
    if (!v || !(v->frames = calloc(st->nframes - first, sizeof *v->frames))) {
        free(v);
        return NULL;
    }
    v->id = st->id;
    for (unsigned i = first; i < st->nframes; i++)
        if (st->frames[i].python)
            v->frames[v->nframes++] = st->frames[i];
    return v;
}

static void free_view(struct rp_stack *v)
{
    if (v)
        free(v->frames);
    free(v);
}

struct rp_site *rp_site_python(struct rp_sites *s, const struct rp_trace *t, size_t file, uint32_t stack_id)
{
    uint64_t k2 = (uint64_t)file << 16 | 0xFFFFu; /* apart from rp_site_of's labels */
    struct rp_u64map_entry *e = rp_u64map_get(&s->of_id, stack_id, k2);
    if (e)
        return &s->v[e->v1];
    const struct rp_stack *st = rp_stacktab_get(&t->files[file].stacks, stack_id);
    int u = rp_py_user_frame(st);
    char key[4200] = "";
    if (u >= 0)
        snprintf(key, sizeof key, "%s:%u %s", st->frames[u].srcfile, st->frames[u].line, st->frames[u].function);
    size_t i = rp_strmap_get(&s->by_key, key);
    if (i == (size_t)-1) {
        struct rp_stack *own = NULL;
        if ((u >= 0 && !(own = python_view(st, (unsigned)u))) || (i = new_site(s, key, key)) == (size_t)-1) {
            free_view(own);
            return NULL;
        }
        s->v[i].stack = s->v[i].own = own;
    }
    return rp_u64map_put(&s->of_id, stack_id, k2, i, 0) ? &s->v[i] : NULL;
}

static int cmp3(uint64_t a1, uint64_t b1, uint64_t a2, uint64_t b2)
{
    if (a1 != b1)
        return a1 < b1 ? 1 : -1;
    return (a2 < b2) - (a2 > b2);
}
static int by_bytes(const void *x, const void *y)
{
    const struct rp_site *a = x, *b = y;
    return cmp3(a->bytes, b->bytes, a->count, b->count);
}
static int by_time(const void *x, const void *y)
{
    const struct rp_site *a = x, *b = y;
    return cmp3(a->total_ns, b->total_ns, a->count, b->count);
}
static int by_count(const void *x, const void *y)
{
    const struct rp_site *a = x, *b = y;
    return cmp3(a->count, b->count, a->total_ns, b->total_ns);
}

/* Sorting moves the sites: the look-ups' indexes are stale afterwards, so they are dropped. */
static void sort(struct rp_sites *s, int (*cmp)(const void *, const void *))
{
    rp_u64map_free(&s->of_id);
    rp_strmap_free(&s->by_key);
    rp_sort(s->v, s->n, sizeof *s->v, cmp);
}
void rp_sites_sort_bytes(struct rp_sites *s) { sort(s, by_bytes); }
void rp_sites_sort_time(struct rp_sites *s) { sort(s, by_time); }
void rp_sites_sort_count(struct rp_sites *s) { sort(s, by_count); }

void rp_sites_free(struct rp_sites *s)
{
    for (size_t i = 0; i < s->n; i++) {
        free(s->v[i].label);
        free_view(s->v[i].own);
    }
    free(s->v);
    rp_strmap_free(&s->by_key);
    rp_u64map_free(&s->of_id);
    memset(s, 0, sizeof *s);
}

int rp_sites_of_memory(struct rp_sites *out, const struct rp_trace *t, const struct rp_memtrack *m, int by_python,
                       int device_only)
{
    for (size_t i = 0; i < m->sites.cap; i++) {
        const struct rp_u64map_entry *e = &m->sites.e[i];
        if (!(e->k2 >> 63) || !e->v2 || (device_only && (e->k2 & RP_SITE_OFF_DEVICE)))
            continue;
        size_t file = (size_t)(e->k2 & ~(1ull << 63 | RP_SITE_OFF_DEVICE));
        struct rp_site *s = by_python ? rp_site_python(out, t, file, (uint32_t)e->k1)
                                      : rp_site_of(out, t, file, (uint32_t)e->k1, "", 0);
        if (!s)
            return -1;
        s->bytes += e->v1;
        s->count += e->v2;
    }
    rp_sites_sort_bytes(out);
    return 0;
}
