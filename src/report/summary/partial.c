#include "config.h"

#include "report/summary/partial.h"

#include <stdlib.h>
#include <string.h>

#include "format/grow.h"
#include "report/model/bytes.h"
#include "report/model/partial_file.h"
#include "report/summary/gpu_agg.h"
#include "report/summary/gpu_tables.h"

#define PROG "cudatrace-report"

/* ---- writing ---- */

static void put_stats(struct rp_bytes *b, const struct rp_stats *s)
{
    rp_put_var(b, s->n);
    rp_put_var(b, s->total);
    rp_put_var(b, s->min);
    rp_put_var(b, s->max);
    rp_put_u64le(b, (uint64_t)s->sq);
    rp_put_u64le(b, (uint64_t)(s->sq >> 64));
    rp_put_u8(b, (uint8_t)(s->histogrammed != 0));
    if (!s->histogrammed) {
        for (uint64_t i = 0; s->exact && i < s->n; i++)
            rp_put_var(b, s->exact[i]);
        return;
    }
    uint64_t nb = 0;
    for (unsigned o = 0; s->octave && o < RP_STATS_OCTAVES; o++)
        for (unsigned k = 0; s->octave[o] && k < (1u << RP_STATS_SUB_BITS); k++)
            nb += s->octave[o][k] != 0;
    rp_put_var(b, nb);
    for (unsigned o = 0; s->octave && o < RP_STATS_OCTAVES; o++)
        for (unsigned k = 0; s->octave[o] && k < (1u << RP_STATS_SUB_BITS); k++)
            if (s->octave[o][k]) {
                rp_put_var(b, o);
                rp_put_var(b, k);
                rp_put_var(b, s->octave[o][k]);
            }
}

static void put_named(struct rp_bytes *b, const struct rp_named_stats *ns)
{
    rp_put_str(b, ns->name);
    put_stats(b, &ns->st);
}

static void put_timed_count(struct rp_bytes *b, const struct rp_timed_count *c)
{
    rp_put_var(b, c->n);
    rp_put_var(b, c->timed);
    rp_put_var(b, c->timed_ns);
    rp_put_f64(b, c->weight);
    rp_put_f64(b, c->weighed_ns);
}

static void put_shape_key(struct rp_bytes *b, const struct rp_shape *s)
{
    for (int k = 0; k < 3; k++)
        rp_put_var(b, s->grid[k]);
    for (int k = 0; k < 3; k++)
        rp_put_var(b, s->block[k]);
}

static void put_timed_row(struct rp_bytes *b, const struct timed_row *r)
{
    put_named(b, &r->ns);
    rp_put_var(b, r->count);
    rp_put_f64(b, r->weight);
    rp_put_f64(b, r->weighed_ns);
}

static void put_input(struct rp_bytes *b, const struct rp_sum_input *in)
{
    rp_put_str(b, in->path);
    rp_put_str(b, in->host);
    rp_put_str(b, in->cmdline);
    rp_put_var(b, in->pid);
    rp_put_var(b, in->features);
    rp_put_var(b, in->format_version);
    rp_put_raw(b, in->tracer_version, 16);
    rp_put_svar(b, in->start_wall_ns);
    rp_put_svar(b, in->start_mono_ns);
    rp_put_svar(b, in->driver_version);
    rp_put_var(b, in->ndevices);
    for (size_t i = 0; i < in->ndevices; i++) {
        rp_put_svar(b, in->devices[i].ordinal);
        rp_put_var(b, in->devices[i].total_mem);
        rp_put_raw(b, in->devices[i].uuid, 16);
        rp_put_str(b, in->devices[i].name);
    }
    rp_put_var(b, in->calls);
    rp_put_var(b, in->lost);
    rp_put_var(b, in->untraced);
    rp_put_var(b, in->records);
    rp_put_var(b, in->ncounted);
    for (size_t i = 0; i < in->ncounted; i++) {
        rp_put_str(b, in->counted[i].name);
        rp_put_var(b, in->counted[i].count);
    }
    rp_put_u8(b, (uint8_t)(in->has_end != 0));
    rp_put_svar(b, in->end_mono_ns);
    rp_put_var(b, in->first_t0);
    rp_put_var(b, in->last_t1);
    rp_put_svar(b, in->rank.rank);
    rp_put_svar(b, in->rank.local_rank);
    rp_put_svar(b, in->rank.world_size);
    rp_put_var(b, in->rank.source);
    rp_put_u8(b, (uint8_t)(in->has_gpu_info != 0));
    const struct ct_gpu_info *g = &in->gpu_info;
    const uint64_t gv[] = {g->mode, g->sample_n, g->sample_k, (uint64_t)(g->final != 0), g->timed, g->not_completed,
                           g->untimed_pool, g->untimed_refused, g->untimed_capture, g->source, g->why, g->request,
                           g->source_ns, g->no_call, g->dropped};
    for (size_t i = 0; i < sizeof gv / sizeof gv[0]; i++)
        rp_put_var(b, gv[i]);
    rp_put_var(b, in->gpu_spans);
    rp_put_var(b, in->nspan_devices);
    for (size_t i = 0; i < in->nspan_devices; i++)
        rp_put_svar(b, in->span_devices[i]);
    rp_put_u8(b, (uint8_t)(in->damage != NULL));
    if (in->damage)
        rp_put_str(b, in->damage);
    rp_put_var(b, in->nvtx.n);
    for (size_t i = 0; i < in->nvtx.n; i++)
        put_named(b, &in->nvtx.v[i]);
}

static void put_mem_stats(struct rp_bytes *b, const struct rp_mem_stats *m)
{
    rp_put_var(b, m->allocs);
    rp_put_var(b, m->alloc_bytes);
    rp_put_var(b, m->frees);
    rp_put_var(b, m->freed_bytes);
}

static void put_agg(struct rp_bytes *b, const struct rp_agg *a)
{
    rp_put_var(b, a->napi);
    for (size_t i = 0; i < a->napi; i++)
        put_named(b, &a->api[i]);
    rp_put_var(b, a->nkern);
    for (size_t i = 0; i < a->nkern; i++) {
        put_named(b, &a->kern[i].ns);
        rp_put_var(b, a->kern[i].shapes.n);
        for (size_t j = 0; j < a->kern[i].shapes.n; j++) {
            put_shape_key(b, &a->kern[i].shapes.v[j]);
            rp_put_var(b, a->kern[i].shapes.v[j].c.n);
        }
    }
    rp_put_var(b, a->ncopy);
    for (size_t i = 0; i < a->ncopy; i++) {
        put_named(b, &a->copy[i].ns);
        put_stats(b, &a->copy[i].bytes);
    }
    rp_put_var(b, a->nerr);
    for (size_t i = 0; i < a->nerr; i++) {
        rp_put_str(b, a->err[i].api);
        rp_put_svar(b, a->err[i].result);
        rp_put_var(b, a->err[i].n);
    }
    rp_put_var(b, RP_MEM_KINDS);
    for (unsigned k = 0; k < RP_MEM_KINDS; k++)
        put_mem_stats(b, &a->mem.kind[k]);
    put_mem_stats(b, &a->mem.device);
    rp_put_var(b, a->mem.unmatched_frees);
    rp_put_var(b, a->mem.nchanges);
    rp_put_var(b, a->mem.changes.n);
    rp_put_raw(b, a->mem.changes.p, a->mem.changes.n);
    const struct rp_gpu_agg *g = a->gpu;
    rp_put_var(b, g->nkern);
    for (size_t i = 0; i < g->nkern; i++) {
        put_timed_row(b, &g->kern[i].r);
        rp_put_var(b, g->kern[i].shapes.n);
        for (size_t j = 0; j < g->kern[i].shapes.n; j++) {
            put_shape_key(b, &g->kern[i].shapes.v[j]);
            put_timed_count(b, &g->kern[i].shapes.v[j].c);
        }
    }
    rp_put_var(b, g->ncopy);
    for (size_t i = 0; i < g->ncopy; i++) {
        put_timed_row(b, &g->copy[i].r);
        put_stats(b, &g->copy[i].bytes);
        for (unsigned j = 0; j < SIZE_CLASSES; j++)
            put_timed_count(b, &g->copy[i].size_class[j]);
    }
}

static const struct rp_partial_kind kind = {RP_PARTIAL_MAGIC, RP_PARTIAL_VERSION, "summary"};

int rp_partial_write(FILE *f, const struct rp_sum_input *in, const struct rp_agg *parts, size_t n)
{
    struct rp_bytes body = {0};
    rp_put_var(&body, n);
    for (size_t i = 0; i < n; i++) {
        put_input(&body, &in[i]);
        put_agg(&body, &parts[i]);
    }
    const int rc = rp_partial_file_write(f, &kind, &body);
    rp_bytes_free(&body);
    return rc;
}

/* ---- reading ---- */

/* A count of things each at least `min_bytes` long: more than the bytes left is corruption. */
static uint64_t get_count(struct rp_rd *r, size_t min_bytes) { return rp_get_count(r, min_bytes, UINT64_MAX); }

/* -1: corrupt or out of memory (r->bad says which: set for corruption). */
static int get_stats(struct rp_rd *r, struct rp_stats *s)
{
    const uint64_t n = rp_get_var(r), total = rp_get_var(r), min = rp_get_var(r), max = rp_get_var(r);
    const uint64_t lo = rp_get_u64le(r), hi = rp_get_u64le(r);
    const uint8_t hist = rp_get_u8(r);
    const unsigned __int128 sq = (unsigned __int128)hi << 64 | lo;
    if (r->bad || hist > 1 || (!hist && n > RP_STATS_EXACT))
        return r->bad = 1, -1;
    if (!hist) {
        for (uint64_t i = 0; i < n; i++)
            if (rp_stats_add(s, rp_get_var(r)) < 0 && !r->bad)
                return -1;
    } else {
        uint64_t nb = get_count(r, 3), seen = 0;
        for (uint64_t i = 0; i < nb && !r->bad; i++) {
            const uint64_t o = rp_get_var(r), k = rp_get_var(r), c = rp_get_var(r);
            if (r->bad || o >= RP_STATS_OCTAVES || k >= (1u << RP_STATS_SUB_BITS) || !c)
                return r->bad = 1, -1;
            if (rp_stats_put_bucket(s, (unsigned)o, (unsigned)k, c) < 0)
                return -1;
            seen += c;
        }
        if (seen != n || !n)
            r->bad = 1;
        s->n = n;
        s->total = total;
        s->min = min;
        s->max = max;
        s->sq = sq;
    }
    if (r->bad || s->n != n || s->total != total || s->min != min || s->max != max || s->sq != sq || min > max)
        return r->bad = 1, -1;
    return 0;
}

/* A row's name and statistics into the row of that name in a vector of rows (rp_named_row); its index, or -1.
 * A name seen twice is corruption: a writer has one row per name. */
static size_t get_named_row(struct rp_rd *r, void **rows, size_t *n, size_t *cap, size_t elem, struct rp_strmap *map)
{
    char *name = rp_get_str(r);
    if (!name)
        return (size_t)-1;
    const size_t had = *n;
    size_t i = rp_strmap_get(map, name) != (size_t)-1 ? (r->bad = 1, (size_t)-1)
                                                      : rp_named_row(rows, n, cap, elem, map, name);
    free(name);
    if (i == (size_t)-1 || *n == had)
        return (size_t)-1;
    struct rp_named_stats *ns = (struct rp_named_stats *)((char *)*rows + i * elem);
    return get_stats(r, &ns->st) < 0 ? (size_t)-1 : i;
}

static int get_timed_count(struct rp_rd *r, struct rp_timed_count *c)
{
    c->n += rp_get_var(r);
    c->timed += rp_get_var(r);
    c->timed_ns += rp_get_var(r);
    c->weight += rp_get_f64(r);
    c->weighed_ns += rp_get_f64(r);
    return r->bad ? -1 : 0;
}

static struct rp_shape *get_shape(struct rp_rd *r, struct rp_shape_set *set)
{
    uint32_t grid[3], block[3];
    for (int k = 0; k < 3; k++)
        grid[k] = (uint32_t)rp_get_var(r);
    for (int k = 0; k < 3; k++)
        block[k] = (uint32_t)rp_get_var(r);
    return r->bad ? NULL : rp_shape_set_get(set, grid, block);
}

static int get_timed_row(struct rp_rd *r, void **rows, size_t *n, size_t *cap, size_t elem, struct rp_strmap *map,
                         size_t *row)
{
    *row = get_named_row(r, rows, n, cap, elem, map);
    if (*row == (size_t)-1)
        return -1;
    struct timed_row *t = (struct timed_row *)((char *)*rows + *row * elem);
    t->count = rp_get_var(r);
    t->weight = rp_get_f64(r);
    t->weighed_ns = rp_get_f64(r);
    return r->bad ? -1 : 0;
}

static int get_input(struct rp_rd *r, struct rp_sum_input *in)
{
    if (!(in->path = rp_get_str(r)) || !(in->host = rp_get_str(r)) || !(in->cmdline = rp_get_str(r)))
        return -1;
    in->pid = (uint32_t)rp_get_var(r);
    in->features = (uint32_t)rp_get_var(r);
    in->format_version = (uint32_t)rp_get_var(r);
    const char *tv = rp_get_raw(r, 16);
    if (tv)
        memcpy(in->tracer_version, tv, 16);
    in->start_wall_ns = rp_get_svar(r);
    in->start_mono_ns = rp_get_svar(r);
    in->driver_version = (int32_t)rp_get_svar(r);
    in->ndevices = get_count(r, 19);
    if (in->ndevices && !(in->devices = calloc(in->ndevices, sizeof *in->devices)))
        return -1;
    for (size_t i = 0; i < in->ndevices && !r->bad; i++) {
        struct rp_device *d = &in->devices[i];
        d->ordinal = (int32_t)rp_get_svar(r);
        d->total_mem = rp_get_var(r);
        const void *u = rp_get_raw(r, 16);
        if (u)
            memcpy(d->uuid, u, 16);
        char *name = rp_get_str(r);
        if (!name)
            return -1;
        snprintf(d->name, sizeof d->name, "%s", name);
        free(name);
    }
    in->calls = rp_get_var(r);
    in->lost = rp_get_var(r);
    in->untraced = rp_get_var(r);
    in->records = rp_get_var(r);
    const uint64_t nc = get_count(r, 2);
    if (nc && !(in->counted = calloc(nc, sizeof *in->counted)))
        return -1;
    for (; in->ncounted < nc && !r->bad; in->ncounted++) {
        if (!(in->counted[in->ncounted].name = rp_get_str(r)))
            return -1;
        in->counted[in->ncounted].count = rp_get_var(r);
    }
    in->has_end = rp_get_u8(r);
    in->end_mono_ns = rp_get_svar(r);
    in->first_t0 = rp_get_var(r);
    in->last_t1 = rp_get_var(r);
    in->rank.rank = (int32_t)rp_get_svar(r);
    in->rank.local_rank = (int32_t)rp_get_svar(r);
    in->rank.world_size = (int32_t)rp_get_svar(r);
    in->rank.source = (uint32_t)rp_get_var(r);
    in->has_gpu_info = rp_get_u8(r);
    struct ct_gpu_info *g = &in->gpu_info;
    g->mode = (uint32_t)rp_get_var(r);
    g->sample_n = (uint32_t)rp_get_var(r);
    g->sample_k = (uint32_t)rp_get_var(r);
    g->final = (int)rp_get_var(r);
    g->timed = rp_get_var(r);
    g->not_completed = rp_get_var(r);
    g->untimed_pool = rp_get_var(r);
    g->untimed_refused = rp_get_var(r);
    g->untimed_capture = rp_get_var(r);
    g->source = (uint32_t)rp_get_var(r);
    g->why = (uint32_t)rp_get_var(r);
    g->request = (uint32_t)rp_get_var(r);
    g->source_ns = rp_get_var(r);
    g->no_call = rp_get_var(r);
    g->dropped = rp_get_var(r);
    in->gpu_spans = rp_get_var(r);
    in->nspan_devices = get_count(r, 1);
    if (in->nspan_devices && !(in->span_devices = calloc(in->nspan_devices, sizeof *in->span_devices)))
        return -1;
    for (size_t i = 0; i < in->nspan_devices; i++)
        in->span_devices[i] = (int32_t)rp_get_svar(r);
    if (rp_get_u8(r) && !(in->damage = rp_get_str(r)))
        return -1;
    const uint64_t nn = get_count(r, 2);
    for (uint64_t i = 0; i < nn && !r->bad; i++)
        if (get_named_row(r, (void **)&in->nvtx.v, &in->nvtx.n, &in->nvtx.cap, sizeof *in->nvtx.v,
                          &in->nvtx.by_name) == (size_t)-1)
            return -1;
    return r->bad ? -1 : 0;
}

static void get_mem_stats(struct rp_rd *r, struct rp_mem_stats *m)
{
    m->allocs = rp_get_var(r);
    m->alloc_bytes = rp_get_var(r);
    m->frees = rp_get_var(r);
    m->freed_bytes = rp_get_var(r);
}

static int get_agg(struct rp_rd *r, struct rp_agg *a)
{
    a->need = ~0u;
    a->nfiles = 1;
    if (!(a->api_of_file = calloc(1, sizeof *a->api_of_file)) || !(a->gpu = rp_gpu_agg_new(1, 0, RP_GPU_ALL_DEVICES)))
        return -1;
    uint64_t n = get_count(r, 2);
    for (uint64_t i = 0; i < n; i++)
        if (get_named_row(r, (void **)&a->api, &a->napi, &a->capi, sizeof *a->api, &a->api_by_name) == (size_t)-1)
            return -1;
    n = get_count(r, 2);
    for (uint64_t i = 0; i < n; i++) {
        size_t k = get_named_row(r, (void **)&a->kern, &a->nkern, &a->ckern, sizeof *a->kern, &a->kern_by_name);
        if (k == (size_t)-1)
            return -1;
        const uint64_t ns = get_count(r, 7);
        for (uint64_t j = 0; j < ns; j++) {
            struct rp_shape *s = get_shape(r, &a->kern[k].shapes);
            if (!s)
                return -1;
            s->c.n += rp_get_var(r);
        }
    }
    n = get_count(r, 2);
    for (uint64_t i = 0; i < n; i++) {
        size_t k = get_named_row(r, (void **)&a->copy, &a->ncopy, &a->ccopy, sizeof *a->copy, &a->copy_by_op);
        if (k == (size_t)-1 || get_stats(r, &a->copy[k].bytes) < 0)
            return -1;
    }
    n = get_count(r, 3);
    for (uint64_t i = 0; i < n; i++) {
        char *api = rp_get_str(r);
        const size_t row = api ? rp_strmap_get(&a->api_by_name, api) : (size_t)-1;
        free(api);
        const int32_t result = (int32_t)rp_get_svar(r);
        const uint64_t count = rp_get_var(r);
        if (row == (size_t)-1 || rp_u64map_get(&a->err_of, row, (uint32_t)result) || !count)
            return r->bad = 1, -1; /* an error row of an api without a row, or twice */
        struct error_row *e = ct_grow(a->err, &a->cerr, a->nerr + 1, sizeof *e);
        if (!e)
            return -1;
        a->err = e;
        if (!rp_u64map_put(&a->err_of, row, (uint32_t)result, a->nerr, 0))
            return -1;
        a->err[a->nerr++] = (struct error_row){a->api[row].name, result, count};
    }
    if (rp_get_var(r) != RP_MEM_KINDS)
        return r->bad = 1, -1;
    for (unsigned k = 0; k < RP_MEM_KINDS; k++)
        get_mem_stats(r, &a->mem.kind[k]);
    get_mem_stats(r, &a->mem.device);
    a->mem.unmatched_frees = rp_get_var(r);
    a->mem.nchanges = rp_get_var(r);
    const uint64_t len = get_count(r, 1);
    const void *ch = rp_get_raw(r, (size_t)len);
    if (r->bad || a->mem.nchanges > len || !rp_mem_changes_ok(ch, (size_t)len, a->mem.nchanges))
        return r->bad = 1, -1;
    rp_put_raw(&a->mem.changes, ch, (size_t)len);
    if (a->mem.changes.oom)
        return -1;
    struct rp_gpu_agg *g = a->gpu;
    n = get_count(r, 2);
    for (uint64_t i = 0; i < n; i++) {
        size_t k;
        if (get_timed_row(r, (void **)&g->kern, &g->nkern, &g->ckern, sizeof *g->kern, &g->kern_by_name, &k) < 0)
            return -1;
        const uint64_t ns = get_count(r, 7);
        for (uint64_t j = 0; j < ns; j++) {
            struct rp_shape *s = get_shape(r, &g->kern[k].shapes);
            if (!s || get_timed_count(r, &s->c) < 0)
                return -1;
        }
    }
    n = get_count(r, 2);
    for (uint64_t i = 0; i < n; i++) {
        size_t k;
        if (get_timed_row(r, (void **)&g->copy, &g->ncopy, &g->ccopy, sizeof *g->copy, &g->copy_by_op, &k) < 0 ||
            get_stats(r, &g->copy[k].bytes) < 0)
            return -1;
        for (unsigned j = 0; j < SIZE_CLASSES; j++)
            if (get_timed_count(r, &g->copy[k].size_class[j]) < 0)
                return -1;
    }
    return r->bad ? -1 : 0;
}

int rp_partial_is(const char *path) { return rp_partial_file_is(path, &kind); }

int rp_partial_read(const char *path, struct rp_sum_input **inp, struct rp_agg **partsp, size_t *np)
{
    *inp = NULL;
    *partsp = NULL;
    *np = 0;
    unsigned char *p;
    struct rp_rd r;
    int rc = rp_partial_file_read(path, &kind, &p, &r);
    if (rc != RP_EXIT_OK)
        return rc;
    const uint64_t n = get_count(&r, 16);
    struct rp_sum_input *in = calloc(n ? n : 1, sizeof *in);
    struct rp_agg *parts = calloc(n ? n : 1, sizeof *parts);
    rc = in && parts ? RP_EXIT_OK : RP_EXIT_FAILED;
    size_t got = 0;
    for (; got < n && rc == RP_EXIT_OK; got++)
        if (get_input(&r, &in[got]) < 0 || get_agg(&r, &parts[got]) < 0)
            rc = r.bad ? RP_EXIT_DAMAGED : RP_EXIT_FAILED;
        else
            rp_agg_compact(&parts[got]);
    if (rc == RP_EXIT_OK && (r.bad || r.p != r.end))
        rc = RP_EXIT_DAMAGED;
    free(p);
    if (rc != RP_EXIT_OK) {
        if (rc == RP_EXIT_DAMAGED)
            rp_partial_file_faulty(path, &kind);
        else
            fprintf(stderr, PROG ": out of memory\n");
        for (size_t i = 0; i < got && in && parts; i++) {
            rp_sum_input_free(&in[i]);
            rp_agg_free(&parts[i]);
        }
        free(in);
        free(parts);
        return rc;
    }
    *inp = in;
    *partsp = parts;
    *np = (size_t)n;
    return RP_EXIT_OK;
}
