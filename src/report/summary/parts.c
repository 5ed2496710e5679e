#include "config.h"

#include "report/summary/parts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/grow.h"

void rp_sum_emit(struct rp_sum_out *o, struct rp_table *t)
{
    char key[256], title[512];
    if (o->group)
        rp_table_of(t, o->group, key, sizeof key, title, sizeof title);
    rp_table_print(t, o->f, o->fmt, o->first, o->labelled);
    o->first = 0;
    rp_table_free(t);
}

const char *rp_unit_title(char *buf, size_t size, const char *what, const struct rp_timeunit *u, int est)
{
    snprintf(buf, size, "%s (%s%s)#", what, u->name, est ? ", est." : "");
    return buf;
}

size_t rp_named_row(void **rows, size_t *n, size_t *cap, size_t elem, struct rp_strmap *map, const char *name)
{
    size_t i = rp_strmap_get(map, name);
    if (i != (size_t)-1)
        return i;
    void *r = ct_grow(*rows, cap, *n + 1, elem);
    if (!r)
        return (size_t)-1;
    *rows = r;
    struct rp_named_stats *ns = (struct rp_named_stats *)((char *)r + *n * elem);
    memset(ns, 0, elem);
    if (!(ns->name = strdup(name)) || rp_strmap_put_ref(map, ns->name, *n) < 0) { /* the row's name is the key */
        free(ns->name);
        return (size_t)-1;
    }
    return (*n)++;
}

void rp_named_stats_free(struct rp_named_stats *ns)
{
    free(ns->name);
    rp_stats_free(&ns->st);
}

struct rp_named_stats *rp_named_rows_get(struct rp_named_rows *r, const char *name)
{
    size_t i = rp_named_row((void **)&r->v, &r->n, &r->cap, sizeof *r->v, &r->by_name, name);
    return i == (size_t)-1 ? NULL : &r->v[i];
}

int rp_named_rows_merge(struct rp_named_rows *dst, const struct rp_named_rows *src)
{
    for (size_t i = 0; i < src->n; i++) {
        struct rp_named_stats *d = rp_named_rows_get(dst, src->v[i].name);
        if (!d || rp_stats_merge(&d->st, &src->v[i].st) < 0)
            return -1;
    }
    return 0;
}

void rp_named_rows_free(struct rp_named_rows *r)
{
    for (size_t i = 0; i < r->n; i++)
        rp_named_stats_free(&r->v[i]);
    free(r->v);
    rp_strmap_free(&r->by_name);
    memset(r, 0, sizeof *r);
}

int rp_cmp_total_desc(double a, double b, const char *na, const char *nb)
{
    if (a != b)
        return a < b ? 1 : -1;
    return strcmp(na, nb);
}

int rp_stats_table(struct rp_table *t, const char *key, const char *title, const struct rp_stats_columns *c,
                   const struct rp_timeunit *u)
{
    static const char *const times[] = {"Avg", "Med", "Min", "Max", "StdDev"};
    char b[7][64], what[32];
    const char *titles[12];
    unsigned n = 0;
    snprintf(b[0], sizeof b[0], "%sTime (%%)#", c->prefix);
    titles[n++] = b[0];
    snprintf(what, sizeof what, "%sTotal Time", c->prefix);
    titles[n++] = rp_unit_title(b[1], sizeof b[1], what, u, c->est);
    titles[n++] = c->count;
    if (c->timed)
        titles[n++] = c->timed;
    for (unsigned i = 0; i < 5; i++) {
        snprintf(what, sizeof what, "%s%s", c->prefix, times[i]);
        titles[n++] = rp_unit_title(b[2 + i], sizeof b[2 + i], what, u, 0);
    }
    if (c->extra)
        titles[n++] = c->extra;
    titles[n++] = c->name;
    return rp_table_init(t, key, title, n, titles);
}

void rp_stats_cells(char cells[][48], struct rp_stats *s, double all, const struct rp_timeunit *u)
{
    snprintf(cells[0], 48, "%.1f", all > 0 ? 100.0 * (double)s->total / all : 0.0);
    rp_fmt_time(cells[1], 48, (double)s->total, u, 0);
    rp_u64s(cells[2], s->n);
    rp_fmt_time(cells[3], 48, rp_stats_mean(s), u, 1);
    rp_fmt_time(cells[4], 48, rp_stats_median(s), u, 1);
    rp_fmt_time(cells[5], 48, (double)s->min, u, 0);
    rp_fmt_time(cells[6], 48, (double)s->max, u, 0);
    rp_fmt_time(cells[7], 48, rp_stats_stddev(s), u, 1);
}

void rp_stats_row(struct rp_table *t, struct rp_stats *s, double all, const struct rp_timeunit *u, const char *extra,
                  const char *name)
{
    char cells[8][48];
    const char *row[10];
    unsigned n = 0;
    rp_stats_cells(cells, s, all, u);
    for (; n < 8; n++)
        row[n] = cells[n];
    if (extra)
        row[n++] = extra;
    row[n] = name;
    rp_table_row(t, row);
}

void rp_list_add(char *list, size_t size, const char *s)
{
    size_t n = strlen(list), l = strlen(s);
    for (const char *p = list; (p = strstr(p, s)); p += l)
        if ((p == list || p[-1] == ' ') && (p[l] == '\0' || p[l] == ','))
            return;
    snprintf(list + n, size - n, "%s%s", n ? ", " : "", s);
}
