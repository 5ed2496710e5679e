#include "config.h"

#include "report/summary/shape_set.h"

#include <stdlib.h>
#include <string.h>

#include "format/grow.h"

static int same(const struct rp_shape *s, const uint32_t grid[3], const uint32_t block[3])
{
    return !memcmp(s->grid, grid, sizeof s->grid) && !memcmp(s->block, block, sizeof s->block);
}

struct rp_shape *rp_shape_set_get(struct rp_shape_set *s, const uint32_t grid[3], const uint32_t block[3])
{
    if (s->last < s->n && same(&s->v[s->last], grid, block))
        return &s->v[s->last];
    for (size_t i = 0; i < s->n; i++)
        if (same(&s->v[i], grid, block))
            return &s->v[s->last = i];
    /* one set per kernel, and most kernels have a single shape */
    struct rp_shape *v = ct_grow_from(s->v, &s->cap, s->n + 1, sizeof *v, 1);
    if (!v)
        return NULL;
    s->v = v;
    v = &s->v[s->last = s->n++];
    memset(v, 0, sizeof *v);
    memcpy(v->grid, grid, sizeof v->grid);
    memcpy(v->block, block, sizeof v->block);
    return v;
}

void rp_shape_set_free(struct rp_shape_set *s)
{
    free(s->v);
    memset(s, 0, sizeof *s);
}

double rp_timed_count_estimate(const struct rp_timed_count *c, double fallback_mean)
{
    if (c->timed == c->n)
        return (double)c->timed_ns;
    return (c->weight > 0 ? c->weighed_ns / c->weight : fallback_mean) * (double)c->n;
}
