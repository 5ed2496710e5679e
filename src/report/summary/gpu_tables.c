#include "config.h"

#include "report/summary/by_group.h"
#include "report/summary/gpu_tables.h"
#include "report/summary/gpu_agg.h"
#include "report/summary/inputs.h"

#include <stdlib.h>
#include <string.h>

#include "format/grow.h"
#include "report/model/args.h"
#include "report/model/display_names.h"
#include "report/model/map.h"
#include "report/summary/shape_set.h"
#include "report/model/sort.h"

struct rp_gpu_agg *rp_gpu_agg_new(int enabled, int sample_mode, int device)
{
    struct rp_gpu_agg *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->device = device;
    g->enabled = enabled;
    g->sample_mode = sample_mode;
    return g;
}

void rp_gpu_modes(const struct rp_sum_input *in, size_t n, int *enabled, int *sample_mode)
{
    *enabled = *sample_mode = 0;
    for (size_t i = 0; i < n; i++) {
        *enabled |= rp_sum_input_gpu_on(&in[i]);
        *sample_mode |= in[i].has_gpu_info && in[i].gpu_info.mode == CT_GPU_SAMPLE;
    }
}

static void free_rows(struct rp_gpu_agg *g)
{
    for (size_t i = 0; i < g->nkern; i++) {
        rp_named_stats_free(&g->kern[i].r.ns);
        rp_shape_set_free(&g->kern[i].shapes);
    }
    for (size_t i = 0; i < g->ncopy; i++) {
        rp_named_stats_free(&g->copy[i].r.ns);
        rp_stats_free(&g->copy[i].bytes);
    }
    free(g->kern);
    free(g->copy);
    rp_strmap_free(&g->kern_by_name);
    rp_strmap_free(&g->copy_by_op);
    rp_u64map_free(&g->kern_of);
    rp_kernel_names_free(&g->knames);
}

void rp_gpu_agg_free(struct rp_gpu_agg *g)
{
    if (!g)
        return;
    free_rows(g);
    free(g);
}

void rp_gpu_agg_compact(struct rp_gpu_agg *g)
{
    rp_u64map_free(&g->kern_of);
    rp_kernel_names_free(&g->knames);
    memset(&g->kern_of, 0, sizeof g->kern_of);
    memset(&g->knames, 0, sizeof g->knames);
}

void rp_gpu_agg_set_modes(struct rp_gpu_agg *g, int enabled, int sample_mode)
{
    if (!enabled) {
        free_rows(g);
        const int device = g->device;
        memset(g, 0, sizeof *g);
        g->device = device;
    }
    g->enabled = enabled;
    g->sample_mode = sample_mode;
}

/* The row of a kernel (name_id in file fi) or of a graph launch (graph: its handle), by display name. */
static size_t kernel_row(struct rp_gpu_agg *g, const struct rp_file *f, size_t fi, uint32_t name_id, unsigned kind,
                         uint64_t graph)
{
    const int is_graph = kind == CT_LAUNCH_GRAPH;
    const uint64_t k1 = is_graph ? graph : name_id, k2 = (uint64_t)fi * 2 + (uint64_t)is_graph;
    struct rp_u64map_entry *e = rp_u64map_get(&g->kern_of, k1, k2);
    if (e)
        return e->v1;
    char buf[64];
    const char *name = rp_launch_work_name(&g->knames, f, fi, name_id, kind, graph, buf, sizeof buf);
    size_t row = name ? rp_named_row((void **)&g->kern, &g->nkern, &g->ckern, sizeof *g->kern, &g->kern_by_name, name)
                      : (size_t)-1;
    if (row != (size_t)-1 && !rp_u64map_put(&g->kern_of, k1, k2, row, 0))
        return (size_t)-1;
    return row;
}

/* Count one call (or one piece of work of a graph launch) of file f in its row and group; sp, its span, adds
 * its GPU time, weighed. */
static int count(struct timed_row *r, struct rp_timed_count *group, const struct rp_file *f,
                 const struct rp_gpu_span *sp)
{
    r->count++;
    group->n++;
    if (!sp)
        return 0;
    const uint64_t ns = sp->end_ns - sp->start_ns;
    const double w = sp->flags & CT_GPU_SPAN_SAMPLED && f->has_gpu_info ? (double)f->gpu_info.sample_n : 1.0;
    group->timed++;
    group->timed_ns += ns;
    group->weight += w;
    group->weighed_ns += w * (double)ns;
    r->weight += w;
    r->weighed_ns += w * (double)ns;
    return rp_stats_add(&r->ns.st, ns);
}

static int add_kernel(struct rp_gpu_agg *g, const struct rp_file *f, size_t fi, uint32_t name_id, unsigned kind,
                      uint64_t graph, const uint32_t grid[3], const uint32_t block[3], const struct rp_gpu_span *sp)
{
    size_t i = kernel_row(g, f, fi, name_id, kind, graph);
    if (i == (size_t)-1)
        return -1;
    struct rp_shape *s = rp_shape_set_get(&g->kern[i].shapes, grid, block);
    return s ? count(&g->kern[i].r, &s->c, f, sp) : -1;
}

static int add_copy(struct rp_gpu_agg *g, const struct rp_file *f, uint32_t flags, uint16_t src, uint16_t dst,
                    uint64_t bytes, const struct rp_gpu_span *sp)
{
    size_t i = rp_named_row((void **)&g->copy, &g->ncopy, &g->ccopy, sizeof *g->copy, &g->copy_by_op,
                            rp_copy_operation(flags, src, dst));
    if (i == (size_t)-1)
        return -1;
    struct gpu_copy *r = &g->copy[i];
    unsigned cls = bytes ? 64u - (unsigned)__builtin_clzll(bytes) : 0;
    return count(&r->r, &r->size_class[cls], f, sp) | rp_stats_add(&r->bytes, bytes);
}

/* A span's own work (a graph's kernel, copy or set; a span without a call). */
static int add_own(struct rp_gpu_agg *g, const struct rp_file *f, size_t fi, const struct rp_gpu_ran *w,
                   const struct rp_gpu_span *sp)
{
    if (w->family == CT_FAM_LAUNCH)
        return add_kernel(g, f, fi, w->name_id, w->launch_kind, 0, w->grid, w->block, sp);
    return add_copy(g, f, w->copy_flags, w->src_kind, w->dst_kind, w->bytes, sp);
}

int rp_gpu_agg_call(struct rp_gpu_agg *g, const struct rp_call *c)
{
    if (!g->enabled || (c->call->family != CT_FAM_LAUNCH && c->call->family != CT_FAM_COPY))
        return 0;
    if (g->device != RP_GPU_ALL_DEVICES && (!c->gpu || c->gpu->device != g->device))
        return 0; /* a call's spans are all on its stream's device */
    const struct rp_file *f = c->file;
    if (c->gpu && rp_gpu_span_own(&f->gpu, c->gpu)) { /* a graph launch's work, each piece on its own */
        int rc = 0;
        for (size_t i = 0; i < c->ngpu; i++)
            rc |= add_own(g, f, c->file_index, rp_gpu_span_own(&f->gpu, &c->gpu[i]), &c->gpu[i]);
        return rc;
    }
    /* CUPTI's records time every call's work: a call without one ran nothing that was seen. */
    if (!c->gpu && f->has_gpu_info && rp_gpu_by_activity(&f->gpu_info, c->call->c.t0_ns))
        return 0;
    if (c->call->family == CT_FAM_COPY) {
        const struct ct_pl_copy *p = &c->call->pl.copy;
        return add_copy(g, f, p->flags, p->src_kind, p->dst_kind, p->bytes, c->gpu);
    }
    const struct ct_pl_launch *l = &c->call->pl.launch;
    if (l->kind == CT_LAUNCH_HOST_FUNC) /* runs on the host: never timed */
        return 0;
    return add_kernel(g, f, c->file_index, l->name_id, l->kind, l->function, l->grid, l->block, c->gpu);
}

int rp_gpu_agg_no_call(struct rp_gpu_agg *g, const struct rp_trace *tr)
{
    int rc = 0;
    for (size_t fi = 0; g->enabled && fi < tr->nfiles; fi++) {
        const struct rp_file *f = &tr->files[fi];
        size_t hint = 0, n = 0;
        const struct rp_gpu_span *v = rp_gpu_spans_find(&f->gpu, 0, &hint, &n); /* theirs: seq 0 */
        for (size_t i = 0; v && i < n; i++)
            if (v[i].flags & CT_GPU_SPAN_NO_CALL && (g->device == RP_GPU_ALL_DEVICES || v[i].device == g->device))
                rc |= add_own(g, f, fi, rp_gpu_span_own(&f->gpu, &v[i]), &v[i]);
    }
    return rc;
}

static void add_counts(struct rp_timed_count *d, const struct rp_timed_count *s)
{
    d->n += s->n;
    d->timed += s->timed;
    d->timed_ns += s->timed_ns;
    d->weight += s->weight; /* sums of whole numbers below 2^53: exact in any order */
    d->weighed_ns += s->weighed_ns;
}

static int merge_timed(struct timed_row *d, const struct timed_row *s)
{
    d->count += s->count;
    d->weight += s->weight;
    d->weighed_ns += s->weighed_ns;
    return rp_stats_merge(&d->ns.st, &s->ns.st);
}

int rp_gpu_agg_merge(struct rp_gpu_agg *dst, const struct rp_gpu_agg *src)
{
    int rc = 0;
    dst->enabled |= src->enabled;
    dst->sample_mode |= src->sample_mode;
    for (size_t i = 0; i < src->nkern && !rc; i++) {
        const struct gpu_kernel *k = &src->kern[i];
        size_t r = rp_named_row((void **)&dst->kern, &dst->nkern, &dst->ckern, sizeof *dst->kern, &dst->kern_by_name,
                                k->r.ns.name);
        if (r == (size_t)-1)
            return -1;
        rc |= merge_timed(&dst->kern[r].r, &k->r);
        for (size_t j = 0; j < k->shapes.n && !rc; j++) {
            struct rp_shape *s = rp_shape_set_get(&dst->kern[r].shapes, k->shapes.v[j].grid, k->shapes.v[j].block);
            if (!s)
                return -1;
            add_counts(&s->c, &k->shapes.v[j].c);
        }
    }
    for (size_t i = 0; i < src->ncopy && !rc; i++) {
        const struct gpu_copy *c = &src->copy[i];
        size_t r = rp_named_row((void **)&dst->copy, &dst->ncopy, &dst->ccopy, sizeof *dst->copy, &dst->copy_by_op,
                                c->r.ns.name);
        if (r == (size_t)-1)
            return -1;
        rc |= merge_timed(&dst->copy[r].r, &c->r) | rp_stats_merge(&dst->copy[r].bytes, &c->bytes);
        for (unsigned j = 0; j < SIZE_CLASSES; j++)
            add_counts(&dst->copy[r].size_class[j], &c->size_class[j]);
    }
    return rc ? -1 : 0;
}

static int cmp_int(const void *a, const void *b)
{
    const int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

int *rp_gpu_devices(const struct rp_sum_input *in, size_t nin, size_t *n)
{
    int *v = NULL;
    size_t cap = 0;
    *n = 0;
    for (size_t fi = 0; fi < nin; fi++)
        for (size_t i = 0; i < in[fi].nspan_devices; i++) {
            const int d = in[fi].span_devices[i];
            size_t k = 0;
            while (k < *n && v[k] != d)
                k++;
            if (k < *n)
                continue;
            int *w = ct_grow(v, &cap, *n + 1, sizeof *v);
            if (!w) {
                free(v);
                *n = 0;
                return NULL;
            }
            v = w;
            v[(*n)++] = d;
        }
    if (*n)
        rp_sort(v, *n, sizeof *v, cmp_int);
    return v;
}

static double row_mean(const struct timed_row *r) { return r->weight > 0 ? r->weighed_ns / r->weight : 0.0; }

static int cmp_est(const void *x, const void *y)
{
    const struct timed_row *a = x, *b = y;
    return rp_cmp_total_desc(a->est, b->est, a->ns.name, b->ns.name);
}

/* gpu_kernels and gpu_copies_time: rows of `elem` bytes, each starting with a struct timed_row whose est is
 * set. */
static void print_timed(struct rp_sum_out *o, const struct rp_gpu_agg *g, const char *key, const char *title,
                        const char *count_title, const char *name_title, void *rows, size_t n, size_t elem)
{
    uint64_t timed = 0, all = 0;
    double sum = 0;
    rp_sort(rows, n, elem, cmp_est); /* first: the sum of doubles below is then in one order, however the rows came */
    for (size_t i = 0; i < n; i++) {
        const struct timed_row *r = (const void *)((char *)rows + i * elem);
        timed += r->ns.st.n;
        all += r->count;
        sum += r->est;
    }
    const int sampled = g->sample_mode || timed < all;
    const struct rp_stats_columns cols = {"", count_title, sampled ? "Timed#" : NULL, NULL, name_title, sampled};
    struct rp_table t;
    if (rp_stats_table(&t, key, title, &cols, o->unit) < 0)
        return;
    for (size_t i = 0; i < n && (!o->top || i < o->top); i++) {
        struct timed_row *r = (void *)((char *)rows + i * elem);
        char cells[8][48], timed_n[24], pct[24];
        const char *row[10];
        unsigned k = 0;
        rp_stats_cells(cells, &r->ns.st, 0, o->unit);
        snprintf(pct, sizeof pct, "%.1f", sum > 0 ? 100.0 * r->est / sum : 0.0);
        rp_fmt_time(cells[1], sizeof cells[1], r->est, o->unit, 0);
        if (r->ns.st.n < r->count) /* sampled: the estimate's mean, not the timed calls' */
            rp_fmt_time(cells[3], sizeof cells[3], r->est / (double)r->count, o->unit, 1);
        rp_u64s(cells[2], r->count);
        rp_u64s(timed_n, r->ns.st.n);
        if (!r->ns.st.n) { /* nothing measured: no time to show */
            pct[0] = '\0';
            for (unsigned c = 0; c < 8; c++)
                if (c != 2)
                    cells[c][0] = '\0';
        }
        row[k++] = pct;
        row[k++] = cells[1];
        row[k++] = cells[2];
        if (sampled)
            row[k++] = timed_n;
        for (unsigned c = 3; c < 8; c++)
            row[k++] = cells[c];
        row[k++] = r->ns.name;
        rp_table_row(&t, row);
    }
    rp_sum_emit(o, &t);
}

/* By grid, then block: a kernel's estimate sums its shapes' doubles in this order, whatever order the calls
 * came in. */
static int cmp_grid_block(const void *x, const void *y)
{
    const struct rp_shape *a = x, *b = y;
    int c = memcmp(a->grid, b->grid, sizeof a->grid);
    return c ? c : memcmp(a->block, b->block, sizeof a->block);
}

void rp_gpu_print_kernels(struct rp_sum_out *o, struct rp_gpu_agg *g)
{
    for (size_t i = 0; i < g->nkern; i++) {
        struct gpu_kernel *k = &g->kern[i];
        const double mean = row_mean(&k->r);
        k->r.est = 0;
        rp_sort(k->shapes.v, k->shapes.n, sizeof *k->shapes.v, cmp_grid_block);
        k->shapes.last = 0;
        for (size_t j = 0; j < k->shapes.n; j++)
            k->r.est += rp_timed_count_estimate(&k->shapes.v[j].c, mean);
    }
    print_timed(o, g, "gpu_kernels", "GPU kernels (GPU time)", "Instances#", "Name", g->kern, g->nkern, sizeof *g->kern);
}

void rp_gpu_print_copies_time(struct rp_sum_out *o, struct rp_gpu_agg *g)
{
    for (size_t i = 0; i < g->ncopy; i++) {
        struct gpu_copy *c = &g->copy[i];
        const double mean = row_mean(&c->r);
        c->r.est = 0;
        for (unsigned j = 0; j < SIZE_CLASSES; j++)
            c->r.est += rp_timed_count_estimate(&c->size_class[j], mean);
    }
    print_timed(o, g, "gpu_copies_time", "GPU copies and sets (GPU time)", "Count#", "Operation", g->copy, g->ncopy,
                sizeof *g->copy);
}

static int cmp_bytes(const void *x, const void *y)
{
    const struct gpu_copy *a = x, *b = y;
    return rp_cmp_total_desc((double)a->bytes.total, (double)b->bytes.total, a->r.ns.name, b->r.ns.name);
}

static const char *mb(char *buf, double bytes)
{
    snprintf(buf, 48, "%.3f", bytes / 1e6);
    return buf;
}

void rp_gpu_print_copies_size(struct rp_sum_out *o, struct rp_gpu_agg *g)
{
    const char *titles[] = {"Total (MB)#", "Count#", "Avg (MB)#", "Med (MB)#", "Min (MB)#", "Max (MB)#",
                            "StdDev (MB)#", "Operation"};
    struct rp_table t;
    if (rp_table_init(&t, "gpu_copies_size", "GPU copies and sets (size; MB = 10^6 bytes)", 8, titles) < 0)
        return;
    rp_sort(g->copy, g->ncopy, sizeof *g->copy, cmp_bytes);
    for (size_t i = 0; i < g->ncopy && (!o->top || i < o->top); i++) {
        struct rp_stats *b = &g->copy[i].bytes;
        char c[7][48];
        const char *row[] = {mb(c[0], (double)b->total), rp_u64s(c[1], b->n), mb(c[2], rp_stats_mean(b)),
                             mb(c[3], rp_stats_median(b)), mb(c[4], (double)b->min), mb(c[5], (double)b->max),
                             mb(c[6], rp_stats_stddev(b)), g->copy[i].r.ns.name};
        rp_table_row(&t, row);
    }
    rp_sum_emit(o, &t);
}

void rp_gpu_header_rows(struct rp_table *t, const struct rp_sum_input *in, size_t nin)
{
    char modes[768] = "", buf[256], n[7][24];
    uint64_t spans = 0, pool = 0, refused = 0, capture = 0, incomplete = 0, no_call = 0, dropped = 0;
    int on = 0, partial = 0, without_info = 0;
    for (size_t i = 0; i < nin; i++) {
        const struct rp_sum_input *f = &in[i];
        const struct ct_gpu_info *gi = &f->gpu_info;
        spans += f->gpu_spans;
        if (!f->has_gpu_info) {
            without_info |= f->gpu_spans > 0;
            continue;
        }
        rp_list_add(modes, sizeof modes, rp_gpu_mode_text(gi, (uint64_t)f->start_mono_ns, buf, sizeof buf));
        on |= gi->mode != CT_GPU_OFF;
        partial |= !gi->final;
        pool += gi->untimed_pool;
        refused += gi->untimed_refused;
        capture += gi->untimed_capture;
        incomplete += gi->not_completed;
        no_call += gi->no_call;
        dropped += gi->dropped;
    }
    if (without_info)
        rp_list_add(modes, sizeof modes, "unknown (no gpu-info record)");
    const char *mode_row[] = {"GPU time", *modes ? modes : "no GPU spans"};
    rp_table_row(t, mode_row);
    if (!on && !spans)
        return;
    const char *rows[][2] = {
        {"GPU spans#", rp_u64s(n[0], spans)},
        {"GPU untimed: no free event#", rp_u64s(n[1], pool)},
        {"GPU untimed: event refused#", rp_u64s(n[2], refused)},
        {"GPU untimed: stream capture#", rp_u64s(n[3], capture)},
        {"GPU not completed#", rp_u64s(n[4], incomplete)},
        {"GPU spans without a call#", no_call ? rp_u64s(n[5], no_call) : NULL},
        {"GPU records CUPTI dropped#", dropped ? rp_u64s(n[6], dropped) : NULL},
        {"GPU counts", partial ? "partial: a process ended before its final gpu-info record" : NULL},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (rows[i][1])
            rp_table_row(t, rows[i]);
}

int rp_gpu_spread(const struct rp_gpu_agg *g, struct rp_spread *s, size_t group)
{
    for (size_t i = 0; i < g->nkern; i++)
        if (g->kern[i].r.ns.st.n &&
            rp_spread_add(s, "kernel (GPU, timed)", g->kern[i].r.ns.name, group, g->kern[i].r.ns.st.total) < 0)
            return -1;
    return 0;
}
