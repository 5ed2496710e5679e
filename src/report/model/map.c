#include "config.h"

#include "report/model/map.h"

#include <stdlib.h>
#include <string.h>

#define USED (UINT64_C(1) << 63)

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= UINT64_C(0xff51afd7ed558ccd);
    x ^= x >> 33;
    x *= UINT64_C(0xc4ceb9fe1a85ec53);
    return x ^ (x >> 33);
}

static uint64_t str_hash(const char *s)
{
    uint64_t h = UINT64_C(1469598103934665603);
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * UINT64_C(1099511628211);
    return mix(h);
}

size_t rp_strmap_get(const struct rp_strmap *m, const char *key)
{
    if (!m->cap)
        return (size_t)-1;
    for (size_t i = str_hash(key) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
        if (!m->keys[i])
            return (size_t)-1;
        if (!strcmp(m->keys[i], key))
            return m->vals[i];
    }
}

static void str_insert(struct rp_strmap *m, char *key, size_t val)
{
    size_t i = str_hash(key) & (m->cap - 1);
    while (m->keys[i] && strcmp(m->keys[i], key))
        i = (i + 1) & (m->cap - 1);
    if (!m->keys[i])
        m->n++;
    else if (!m->borrowed)
        free(m->keys[i]);
    m->keys[i] = key;
    m->vals[i] = val;
}

/* Room for one more key: 0, or -1 when out of memory. */
static int str_room(struct rp_strmap *m)
{
    if ((m->n + 1) * 2 > m->cap) {
        struct rp_strmap g = {calloc(m->cap ? m->cap * 2 : 16, sizeof(char *)),
                              calloc(m->cap ? m->cap * 2 : 16, sizeof(size_t)), m->cap ? m->cap * 2 : 16, 0,
                              m->borrowed};
        if (!g.keys || !g.vals) {
            free(g.keys);
            free(g.vals);
            return -1;
        }
        for (size_t i = 0; i < m->cap; i++)
            if (m->keys[i])
                str_insert(&g, m->keys[i], m->vals[i]);
        free(m->keys);
        free(m->vals);
        *m = g;
    }
    return 0;
}

int rp_strmap_put(struct rp_strmap *m, const char *key, size_t val)
{
    char *k = str_room(m) < 0 ? NULL : strdup(key);
    if (!k)
        return -1;
    str_insert(m, k, val);
    return 0;
}

int rp_strmap_put_ref(struct rp_strmap *m, const char *key, size_t val)
{
    m->borrowed = 1;
    if (str_room(m) < 0)
        return -1;
    str_insert(m, (char *)key, val);
    return 0;
}

void rp_strmap_free(struct rp_strmap *m)
{
    for (size_t i = 0; i < m->cap && !m->borrowed; i++)
        free(m->keys[i]);
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}

static size_t slot_of(const struct rp_u64map *m, uint64_t k1, uint64_t k2)
{
    return mix(k1 ^ mix(k2)) & (m->cap - 1);
}

struct rp_u64map_entry *rp_u64map_get(const struct rp_u64map *m, uint64_t k1, uint64_t k2)
{
    if (!m->cap)
        return NULL;
    k2 |= USED;
    for (size_t i = slot_of(m, k1, k2);; i = (i + 1) & (m->cap - 1)) {
        struct rp_u64map_entry *e = &m->e[i];
        if (!(e->k2 & USED))
            return NULL;
        if (e->k1 == k1 && e->k2 == k2)
            return e;
    }
}

static struct rp_u64map_entry *u64_insert(struct rp_u64map *m, uint64_t k1, uint64_t k2)
{
    size_t i = slot_of(m, k1, k2);
    while ((m->e[i].k2 & USED) && !(m->e[i].k1 == k1 && m->e[i].k2 == k2))
        i = (i + 1) & (m->cap - 1);
    if (!(m->e[i].k2 & USED))
        m->n++;
    m->e[i].k1 = k1;
    m->e[i].k2 = k2;
    return &m->e[i];
}

struct rp_u64map_entry *rp_u64map_put(struct rp_u64map *m, uint64_t k1, uint64_t k2, uint64_t v1, uint64_t v2)
{
    k2 |= USED;
    if ((m->n + 1) * 2 > m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 64;
        struct rp_u64map g = {calloc(cap, sizeof *g.e), cap, 0};
        if (!g.e)
            return NULL;
        for (size_t i = 0; i < m->cap; i++)
            if (m->e[i].k2 & USED)
                *u64_insert(&g, m->e[i].k1, m->e[i].k2) = m->e[i];
        free(m->e);
        *m = g;
    }
    struct rp_u64map_entry *e = u64_insert(m, k1, k2);
    e->v1 = v1;
    e->v2 = v2;
    return e;
}

void rp_u64map_remove(struct rp_u64map *m, struct rp_u64map_entry *e)
{
    /* Backward-shift deletion keeps every probe chain unbroken without tombstones. */
    size_t i = (size_t)(e - m->e), mask = m->cap - 1;
    m->e[i].k2 = 0;
    m->n--;
    for (size_t j = (i + 1) & mask; m->e[j].k2 & USED; j = (j + 1) & mask) {
        size_t home = slot_of(m, m->e[j].k1, m->e[j].k2);
        /* move e[j] into the hole at i if its home is not cyclically within (i, j] */
        if ((j > i && (home <= i || home > j)) || (j < i && home <= i && home > j)) {
            m->e[i] = m->e[j];
            m->e[j].k2 = 0;
            i = j;
        }
    }
}

void rp_u64map_free(struct rp_u64map *m)
{
    free(m->e);
    memset(m, 0, sizeof *m);
}
