#include "config.h"

#include "report/model/gpu_spans.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    uint32_t own = 0;
    if (g->flags & (CT_GPU_SPAN_GRAPH | CT_GPU_SPAN_NO_CALL)) { /* the call does not say what ran */
        struct rp_gpu_ran *w = ct_grow(s->own, &s->cown, s->nown + 1, sizeof *w);
        if (!w)
            return -1;
        s->own = w;
        w[s->nown++] = (struct rp_gpu_ran){g->family, g->name_id, g->launch_kind, {g->grid[0], g->grid[1], g->grid[2]},
                                            {g->block[0], g->block[1], g->block[2]}, g->bytes, g->copy_flags,
                                            g->src_kind, g->dst_kind};
        own = (uint32_t)s->nown;
    }
    v[s->n++] = (struct rp_gpu_span){g->seq, g->start_ns, g->end_ns, g->stream, g->device, g->flags, own};
    return 0;
}

/* By call, and a call's spans (a graph's) in the order they ran. */
static int cmp_seq(const void *a, const void *b)
{
    const struct rp_gpu_span *x = a, *y = b;
    if (x->seq != y->seq)
        return x->seq < y->seq ? -1 : 1;
    return (x->start_ns > y->start_ns) - (x->start_ns < y->start_ns);
}

void rp_gpu_spans_finish(struct rp_gpu_spans *s)
{
    for (size_t i = 1; i < s->n; i++)
        if (cmp_seq(&s->v[i], &s->v[i - 1]) < 0) { /* the writer's order is its completion order */
            rp_sort(s->v, s->n, sizeof *s->v, cmp_seq);
            return;
        }
}

const struct rp_gpu_span *rp_gpu_spans_find(const struct rp_gpu_spans *s, uint64_t seq, size_t *hint, size_t *count)
{
    size_t lo;
    if (*hint < s->n && s->v[*hint].seq == seq) {
        lo = *hint;
    } else {
        size_t hi = s->n;
        lo = 0;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (s->v[mid].seq < seq)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo == s->n || s->v[lo].seq != seq)
            return NULL;
    }
    size_t end = lo + 1;
    while (end < s->n && s->v[end].seq == seq)
        end++;
    *hint = end;
    *count = end - lo;
    return &s->v[lo];
}

void rp_gpu_spans_free(struct rp_gpu_spans *s)
{
    free(s->v);
    free(s->own);
    memset(s, 0, sizeof *s);
}

/* Why GPU time stepped back from CUPTI, in words (enum ct_gpu_why). */
static const char *why_text(unsigned why)
{
    switch (why) {
    case CT_GPU_WHY_NO_CUPTI: return "no usable libcupti";
    case CT_GPU_WHY_CUPTI_BUSY: return "CUPTI in use by a tool";
    case CT_GPU_WHY_PROGRAM: return "the program uses CUPTI";
    case CT_GPU_WHY_CUPTI_ERROR: return "CUPTI refused";
    case CT_GPU_WHY_CHILD: return "a forked child";
    default: return NULL;
    }
}

const char *rp_gpu_mode_text(const struct ct_gpu_info *g, uint64_t start_ns, char *buf, size_t size)
{
    const char *why = why_text(g->why);
    int n;
    if (g->source == CT_GPU_SRC_ACTIVITY)
        n = snprintf(buf, size, "CUPTI activity records: every kernel, copy and set");
    else if (g->mode == CT_GPU_SAMPLE)
        n = snprintf(buf, size, "timing events: the first %u calls of each kind, then 1 in %u", g->sample_k,
                     g->sample_n);
    else if (g->mode == CT_GPU_ALL)
        n = snprintf(buf, size, "timing events: every call");
    else
        n = snprintf(buf, size, "off");
    if (n < 0 || (size_t)n >= size || !why || g->request == CT_GPU_REQ_SAMPLE || g->request == CT_GPU_REQ_EVENTS ||
        g->request == CT_GPU_REQ_OFF)
        return buf; /* events or off were asked for: nothing stepped back */
    if (g->why == CT_GPU_WHY_PROGRAM && g->source_ns > start_ns) {
        const double s = (double)(g->source_ns - start_ns) / 1e9;
        snprintf(buf + n, size - (size_t)n, " (CUPTI activity until %.3f %s into the trace: %s)",
                 s >= 1 ? s : s * 1e3, s >= 1 ? "s" : "ms", why);
    }
    else
        snprintf(buf + n, size - (size_t)n, " (%s)", why);
    return buf;
}
