#include "config.h"

#include "report/model/gpu_spans.h"

#include <stdio.h>
#include <stdlib.h>

#include "cudatrace/format.h"
#include "format/enum_names.h"
#include "format/grow.h"
#include "report/model/sort.h"

int rp_gpu_spans_add(struct rp_gpu_spans *s, const struct ct_gpu_span *g)
{
    struct rp_gpu_span *v = ct_grow(s->v, &s->cap, s->n + 1, sizeof *v);
    if (!v)
        return -1;
    s->v = v;
    v[s->n++] = (struct rp_gpu_span){g->seq, g->start_ns, g->end_ns, g->stream, g->device};
    return 0;
}

static int cmp_seq(const void *a, const void *b)
{
    uint64_t x = ((const struct rp_gpu_span *)a)->seq, y = ((const struct rp_gpu_span *)b)->seq;
    return (x > y) - (x < y);
}

void rp_gpu_spans_finish(struct rp_gpu_spans *s)
{
    for (size_t i = 1; i < s->n; i++)
        if (s->v[i].seq < s->v[i - 1].seq) { /* the writer's order is its completion order */
            rp_sort(s->v, s->n, sizeof *s->v, cmp_seq);
            return;
        }
}

const struct rp_gpu_span *rp_gpu_spans_find(const struct rp_gpu_spans *s, uint64_t seq, size_t *hint)
{
    if (*hint < s->n && s->v[*hint].seq == seq)
        return &s->v[(*hint)++];
    size_t lo = 0, hi = s->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->v[mid].seq < seq)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == s->n || s->v[lo].seq != seq)
        return NULL;
    *hint = lo + 1;
    return &s->v[lo];
}

void rp_gpu_spans_free(struct rp_gpu_spans *s)
{
    free(s->v);
    s->v = NULL;
    s->n = s->cap = 0;
}

const char *rp_gpu_mode_text(const struct ct_gpu_info *g, char *buf, size_t size)
{
    if (g->mode == CT_GPU_SAMPLE)
        snprintf(buf, size, "sample: the first %u calls of each kind, then 1 in %u", g->sample_k, g->sample_n);
    else
        snprintf(buf, size, "%s", ct_name_gpu_mode(g->mode));
    return buf;
}
