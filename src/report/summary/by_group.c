#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/grow.h"
#include "report/summary/by_group.h"
#include "report/summary/inputs.h"
#include "report/model/sort.h"

int rp_group_by_parse(const char *s)
{
    static const char *const n[] = {"rank", "pid", "host", "device"};
    for (int i = 0; i < 4; i++)
        if (strcmp(s, n[i]) == 0)
            return i;
    return -1;
}

/* The group key order; ties by pid, then by input (a stable order of the groups and of a group's files). */
struct keyed {
    const struct rp_sum_input *in;
    size_t i;
    enum rp_group_by by;
};

static int cmp_file(const void *a, const void *b)
{
    const struct keyed *p = a, *q = b;
    const struct rp_sum_input *x = p->in, *y = q->in;
    int c = 0;
    if (p->by == RP_BY_RANK) {
        int64_t rx = x->rank.rank < 0 ? INT64_MAX : x->rank.rank, ry = y->rank.rank < 0 ? INT64_MAX : y->rank.rank;
        c = (rx > ry) - (rx < ry);
    } else if (p->by == RP_BY_HOST) {
        c = strcmp(x->host, y->host);
    }
    if (!c)
        c = (x->pid > y->pid) - (x->pid < y->pid);
    return c ? c : (p->i > q->i) - (p->i < q->i);
}

static int same_group(const struct rp_sum_input *x, const struct rp_sum_input *y, enum rp_group_by by)
{
    switch (by) {
    case RP_BY_RANK: return x->rank.rank >= 0 && x->rank.rank == y->rank.rank;
    case RP_BY_HOST: return strcmp(x->host, y->host) == 0;
    default: return x->pid == y->pid && strcmp(x->host, y->host) == 0;
    }
}

int rp_groups_make(struct rp_groups *g, const struct rp_sum_input *in, size_t n, enum rp_group_by by)
{
    struct keyed *k = malloc((n ? n : 1) * sizeof *k);
    size_t *idx = malloc((n ? n : 1) * sizeof *idx);
    memset(g, 0, sizeof *g);
    if (!k || !idx || !(g->v = calloc(n ? n : 1, sizeof *g->v))) {
        free(k);
        free(idx);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        k[i] = (struct keyed){&in[i], i, by};
    qsort(k, n, sizeof *k, cmp_file);
    for (size_t i = 0; i < n; i++) {
        idx[i] = k[i].i;
        if (g->n && same_group(k[i - 1].in, k[i].in, by)) {
            g->v[g->n - 1].nfiles++;
            continue;
        }
        struct rp_group *gr = &g->v[g->n++];
        gr->files = &idx[i];
        gr->nfiles = 1;
        if (by == RP_BY_HOST)
            snprintf(gr->label, sizeof gr->label, "%s", *k[i].in->host ? k[i].in->host : "?");
        else
            rp_process_label(k[i].in->rank.rank, k[i].in->host, k[i].in->pid, gr->label, sizeof gr->label);
    }
    free(k);
    return 0;
}

void rp_groups_free(struct rp_groups *g)
{
    if (g->n)
        free(g->v[0].files); /* the one array of all indexes */
    free(g->v);
    memset(g, 0, sizeof *g);
}

int rp_spread_init(struct rp_spread *s, size_t ngroups)
{
    memset(s, 0, sizeof *s);
    s->ngroups = ngroups;
    return 0;
}

int rp_spread_add(struct rp_spread *s, const char *kind, const char *name, size_t group, uint64_t total_ns)
{
    char key[1024];
    snprintf(key, sizeof key, "%s\t%s", kind, name);
    size_t i = rp_strmap_get(&s->by_key, key);
    if (i == (size_t)-1) {
        struct rp_spread_row *r = ct_grow(s->rows, &s->cap, s->n + 1, sizeof *r);
        if (!r)
            return -1;
        s->rows = r;
        r = &s->rows[s->n];
        r->kind = strdup(kind); /* all set before any test: the clean-up below frees whichever was made */
        r->name = strdup(name);
        r->total = NULL;
        if (!r->kind || !r->name ||
            !(r->total = malloc(s->ngroups * sizeof *r->total)) || rp_strmap_put(&s->by_key, key, s->n) < 0) {
            free(r->kind);
            free(r->name);
            free(r->total);
            return -1;
        }
        for (size_t k = 0; k < s->ngroups; k++)
            r->total[k] = -1;
        i = s->n++;
    }
    double *t = &s->rows[i].total[group];
    *t = (*t < 0 ? 0 : *t) + (double)total_ns;
    return 0;
}

struct summary {
    double min, med, max;
    size_t groups, slowest;
    const struct rp_spread_row *row;
};

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int cmp_summary(const void *a, const void *b)
{
    const struct summary *x = a, *y = b;
    double dx = x->max - x->min, dy = y->max - y->min;
    if (dx != dy)
        return dx < dy ? 1 : -1;
    int c = strcmp(x->row->kind, y->row->kind);
    return c ? c : strcmp(x->row->name, y->row->name);
}

void rp_spread_print(struct rp_sum_out *o, struct rp_spread *s, const struct rp_groups *g)
{
    struct summary *v = calloc(s->n ? s->n : 1, sizeof *v);
    double *vals = calloc(s->ngroups ? s->ngroups : 1, sizeof *vals);
    struct rp_table t;
    char b[3][48];
    const char *titles[] = {"Kind", "Groups#", rp_unit_title(b[0], 48, "Min Total", o->unit, 0),
                            rp_unit_title(b[1], 48, "Med Total", o->unit, 0),
                            rp_unit_title(b[2], 48, "Max Total", o->unit, 0), "Max/Min#", "Slowest", "Name"};
    if (!v || !vals || rp_table_init(&t, "spread", "Spread across groups (a group without the row counts as 0)", 8,
                                     titles) < 0) {
        free(v);
        free(vals);
        return;
    }
    for (size_t i = 0; i < s->n; i++) {
        const struct rp_spread_row *r = &s->rows[i];
        v[i].row = r;
        for (size_t k = 0; k < s->ngroups; k++) {
            vals[k] = r->total[k] < 0 ? 0 : r->total[k];
            v[i].groups += r->total[k] >= 0;
            if (vals[k] > vals[v[i].slowest])
                v[i].slowest = k;
        }
        qsort(vals, s->ngroups, sizeof *vals, cmp_double);
        v[i].min = vals[0];
        v[i].max = vals[s->ngroups - 1];
        v[i].med = s->ngroups % 2 ? vals[s->ngroups / 2] : (vals[s->ngroups / 2 - 1] + vals[s->ngroups / 2]) / 2;
    }
    rp_sort(v, s->n, sizeof *v, cmp_summary);
    for (size_t i = 0; i < s->n && (!o->top || i < o->top); i++) {
        char c[5][48];
        rp_u64s(c[0], v[i].groups);
        rp_fmt_time(c[1], 48, v[i].min, o->unit, 0);
        rp_fmt_time(c[2], 48, v[i].med, o->unit, 1);
        rp_fmt_time(c[3], 48, v[i].max, o->unit, 0);
        if (v[i].min > 0)
            snprintf(c[4], 48, "%.2f", v[i].max / v[i].min);
        else
            c[4][0] = '\0';
        const char *row[] = {v[i].row->kind, c[0], c[1], c[2], c[3], c[4], g->v[v[i].slowest].label, v[i].row->name};
        rp_table_row(&t, row);
    }
    rp_sum_emit(o, &t);
    free(v);
    free(vals);
}

void rp_spread_free(struct rp_spread *s)
{
    for (size_t i = 0; i < s->n; i++) {
        free(s->rows[i].kind);
        free(s->rows[i].name);
        free(s->rows[i].total);
    }
    free(s->rows);
    rp_strmap_free(&s->by_key);
    memset(s, 0, sizeof *s);
}
