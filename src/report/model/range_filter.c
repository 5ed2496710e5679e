#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/grow.h"
#include "report/model/range_filter.h"
#include "report/model/sort.h"

struct rp_interval {
    uint32_t tid;
    uint64_t t0, t1;
};

static int cmp_iv(const void *a, const void *b)
{
    const struct rp_interval *x = a, *y = b;
    if (x->tid != y->tid)
        return x->tid < y->tid ? -1 : 1;
    return (x->t0 > y->t0) - (x->t0 < y->t0);
}

static int matches(const struct rp_file *f, const struct rp_nvtx_range *r, const char *name, const char *domain)
{
    const char *s = rp_file_string(f, r->name_id);
    if (r->style == RP_NVTX_MARK || !s || strcmp(s, name) != 0)
        return 0;
    if (!domain)
        return 1;
    const char *d = rp_file_string(f, rp_nvtx_domain_name(&f->nvtx, r->domain));
    return d ? strcmp(d, domain) == 0 : *domain == '\0';
}

int rp_range_filter_init(struct rp_range_filter *rf, const struct rp_trace *t, const char *spec)
{
    char *name = strdup(spec), *at = name ? strrchr(name, '@') : NULL;
    memset(rf, 0, sizeof *rf);
    if (at)
        *at++ = '\0';
    if (!name || !(rf->iv = calloc(t->nfiles ? t->nfiles : 1, sizeof *rf->iv)) ||
        !(rf->n = calloc(t->nfiles ? t->nfiles : 1, sizeof *rf->n)))
        goto oom;
    rf->nfiles = t->nfiles;
    for (size_t i = 0; i < t->nfiles; i++) {
        const struct rp_file *f = &t->files[i];
        size_t cap = 0, n = 0;
        struct rp_interval *v = NULL;
        for (size_t j = 0; j < f->nvtx.n; j++) {
            const struct rp_nvtx_range *r = &f->nvtx.r[j];
            if (!matches(f, r, name, at))
                continue;
            if (!(v = ct_grow(rf->iv[i], &cap, n + 1, sizeof *v)))
                goto oom;
            rf->iv[i] = v;
            v[n++] = (struct rp_interval){r->tid, r->t0, r->t1};
            rf->ranges++;
        }
        rp_sort(rf->iv[i], n, sizeof *rf->iv[i], cmp_iv);
        size_t k = 0; /* nested or overlapping ranges of a thread become one */
        for (size_t j = 0; j < n; j++) {
            if (k && v[k - 1].tid == v[j].tid && v[j].t0 <= v[k - 1].t1) {
                if (v[j].t1 > v[k - 1].t1)
                    v[k - 1].t1 = v[j].t1;
            } else {
                v[k++] = v[j];
            }
        }
        rf->n[i] = k;
    }
    free(name);
    return 0;
oom:
    fprintf(stderr, "cudatrace-report: out of memory\n");
    free(name);
    rp_range_filter_free(rf);
    return -1;
}

int rp_range_filter_keep(const struct rp_range_filter *rf, const struct rp_call *c)
{
    const struct rp_interval *v = rf->iv[c->file_index];
    size_t lo = 0, hi = rf->n[c->file_index];
    const uint32_t tid = c->call->c.h.tid;
    const uint64_t t = c->call->c.t0_ns;
    while (lo < hi) { /* the first interval after (tid, t) */
        size_t mid = (lo + hi) / 2;
        if (v[mid].tid < tid || (v[mid].tid == tid && v[mid].t0 <= t))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo > 0 && v[lo - 1].tid == tid && t >= v[lo - 1].t0 && t <= v[lo - 1].t1;
}

void rp_range_filter_free(struct rp_range_filter *rf)
{
    for (size_t i = 0; rf->iv && i < rf->nfiles; i++)
        free(rf->iv[i]);
    free(rf->iv);
    free(rf->n);
    memset(rf, 0, sizeof *rf);
}
