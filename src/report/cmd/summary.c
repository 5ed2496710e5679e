/* cudatrace-report summary: the nsys-style tables (API, kernels, copies, memory, errors) of one or more
 * trace files, merged. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report/model/args.h"
#include "report/cmd/cli.h"
#include "format/grow.h"
#include "report/summary/gpu_tables.h"
#include "report/summary/by_group.h"
#include "report/model/map.h"
#include "report/model/memory.h"
#include "report/model/parallel.h"
#include "report/summary/nvtx_table.h"
#include "report/model/range_filter.h"
#include "report/model/display_names.h"
#include "report/summary/shape_set.h"
#include "report/model/sort.h"
#include "report/model/stats.h"
#include "report/summary/parts.h"
#include "report/model/table.h"
#include "report/model/trace.h"

/* Sections by bit; they print in the order of run(). */
static const char *const section_names[] = {"header",          "api",             "kernels", "copies",
                                            "gpu_kernels",     "gpu_copies_time", "gpu_copies_size",
                                            "memory",          "errors",          "nvtx"};
/* nsys stats report names, taken as the sections that show the same (--report). */
static const char *const nsys_names[][2] = {
    {"cuda_api_sum", "api"},         {"cuda_gpu_kern_sum", "gpu_kernels"}, {"cuda_gpu_mem_time_sum", "gpu_copies_time"},
    {"cuda_gpu_mem_size_sum", "gpu_copies_size"}, {"nvtx_sum", "nvtx"}, {"cuda_kern_exec_sum", "kernels"},
    {"cuda_api_gpu_sum", "api"},
};
enum {
    SEC_HEADER = 1, SEC_API = 2, SEC_KERNELS = 4, SEC_COPIES = 8, SEC_GPU_KERNELS = 16, SEC_GPU_COPIES_TIME = 32,
    SEC_GPU_COPIES_SIZE = 64, SEC_MEMORY = 128, SEC_ERRORS = 256, SEC_NVTX = 512
};
#define SECTION_LIST "header,nvtx,api,kernels,copies,gpu_kernels,gpu_copies_time,gpu_copies_size,memory,errors"
#define SEC_GPU (SEC_GPU_KERNELS | SEC_GPU_COPIES_TIME | SEC_GPU_COPIES_SIZE)

struct kernel_row {
    struct rp_named_stats ns;
    struct rp_shape_set shapes;
};

struct copy_row {
    struct rp_named_stats ns; /* name: the operation (rp_copy_operation); st: host time */
    struct rp_stats bytes;
};

struct error_row {
    const char *api; /* the api row's name (rows are sorted before errors print; names stay put) */
    int32_t result;
    uint64_t n;
};

/* A file's api_id -> row + 1 (0: not looked up yet), as large as its highest id seen: ids are the
 * tracer's few hundred variants, and a job may bring thousands of files. */
struct api_tab {
    int32_t *row;
    size_t cap;
};

struct agg {
    struct rp_named_stats *api;
    size_t napi, capi;
    struct rp_strmap api_by_name;
    struct api_tab *api_of_file;

    struct kernel_row *kern;
    size_t nkern, ckern;
    struct rp_strmap kern_by_name;
    struct rp_u64map kern_of_file; /* (name_id, file) -> row */
    struct rp_kernel_names knames;

    struct copy_row *copy;
    size_t ncopy, ccopy;
    struct rp_strmap copy_by_op;

    struct error_row *err;
    size_t nerr, cerr;
    struct rp_u64map err_of; /* (api row, result) -> row */

    struct rp_memtrack mem;
    struct rp_gpu_agg *gpu;
    unsigned need; /* the sections aggregated (SEC_*): a job of a million kernel names pays for their rows
                      only when a table shows them */
    int oom;
};

static size_t api_row(struct agg *a, const struct rp_call *c)
{
    struct api_tab *tab = &a->api_of_file[c->file_index];
    const uint16_t id = c->call->c.api_id;
    if (id >= tab->cap) {
        const size_t old = tab->cap;
        int32_t *row = ct_grow(tab->row, &tab->cap, (size_t)id + 1, sizeof *row);
        if (!row)
            return (size_t)-1;
        memset(row + old, 0, (tab->cap - old) * sizeof *row);
        tab->row = row;
    }
    int32_t *slot = &tab->row[id];
    if (*slot)
        return (size_t)(*slot - 1);
    char buf[256];
    size_t row = rp_named_row((void **)&a->api, &a->napi, &a->capi, sizeof *a->api, &a->api_by_name,
                              rp_file_api_name(c->file, id, buf, sizeof buf));
    if (row != (size_t)-1)
        *slot = (int32_t)row + 1;
    return row;
}

static size_t kernel_row(struct agg *a, const struct rp_call *c)
{
    uint32_t id = c->call->pl.launch.name_id;
    struct rp_u64map_entry *e = rp_u64map_get(&a->kern_of_file, id, c->file_index);
    if (e)
        return e->v1;
    const char *name = rp_kernel_name(&a->knames, c);
    if (!name)
        return (size_t)-1;
    size_t row = rp_named_row((void **)&a->kern, &a->nkern, &a->ckern, sizeof *a->kern, &a->kern_by_name, name);
    if (row != (size_t)-1 && !rp_u64map_put(&a->kern_of_file, id, c->file_index, row, 0))
        return (size_t)-1;
    return row;
}

static int add_shape(struct kernel_row *k, const struct ct_pl_launch *l)
{
    struct rp_shape *s = rp_shape_set_get(&k->shapes, l->grid, l->block);
    if (!s)
        return -1;
    s->c.n++;
    return 0;
}

static int add_copy(struct agg *a, const struct rp_call *c)
{
    const struct ct_pl_copy *p = &c->call->pl.copy;
    size_t i = rp_named_row((void **)&a->copy, &a->ncopy, &a->ccopy, sizeof *a->copy, &a->copy_by_op,
                            rp_copy_operation(p->flags, p->src_kind, p->dst_kind));
    if (i == (size_t)-1)
        return -1;
    return rp_stats_add(&a->copy[i].ns.st, (uint64_t)(c->t1 - c->t0)) | rp_stats_add(&a->copy[i].bytes, p->bytes);
}

static int add_error(struct agg *a, size_t api, int32_t result)
{
    struct rp_u64map_entry *e = rp_u64map_get(&a->err_of, api, (uint32_t)result);
    if (e) {
        a->err[e->v1].n++;
        return 0;
    }
    struct error_row *r = ct_grow(a->err, &a->cerr, a->nerr + 1, sizeof *r);
    if (!r)
        return -1;
    a->err = r;
    if (!rp_u64map_put(&a->err_of, api, (uint32_t)result, a->nerr, 0))
        return -1;
    a->err[a->nerr++] = (struct error_row){a->api[api].name, result, 1};
    return 0;
}

static int add_call(struct agg *a, const struct rp_call *c)
{
    uint64_t dur = c->t1 > c->t0 ? (uint64_t)(c->t1 - c->t0) : 0;
    size_t api = api_row(a, c);
    if (api == (size_t)-1 || rp_stats_add(&a->api[api].st, dur) < 0)
        return -1;
    if (c->call->c.result != 0)
        return a->need & SEC_ERRORS ? add_error(a, api, c->call->c.result) : 0;
    if ((a->need & SEC_GPU) && rp_gpu_agg_call(a->gpu, c) < 0)
        return -1;
    switch (c->call->family) {
    case CT_FAM_LAUNCH: {
        if (!(a->need & SEC_KERNELS))
            return 0;
        size_t k = kernel_row(a, c);
        if (k == (size_t)-1 || rp_stats_add(&a->kern[k].ns.st, dur) < 0)
            return -1;
        return add_shape(&a->kern[k], &c->call->pl.launch);
    }
    case CT_FAM_COPY:
        return a->need & SEC_COPIES ? add_copy(a, c) : 0;
    case CT_FAM_ALLOC:
    case CT_FAM_FREE:
        if (!(a->need & SEC_MEMORY))
            return 0;
        rp_memtrack_call(&a->mem, c);
        return a->mem.oom ? -1 : 0;
    default:
        return 0;
    }
}

/* ---- output ---- */

static int cmp_named(const void *x, const void *y)
{
    const struct rp_named_stats *a = x, *b = y;
    return rp_cmp_total_desc((double)a->st.total, (double)b->st.total, a->name, b->name);
}

static int cmp_kernel(const void *x, const void *y)
{
    const struct kernel_row *a = x, *b = y;
    return cmp_named(&a->ns, &b->ns);
}

static void print_api(struct rp_sum_out *o, struct agg *a)
{
    struct rp_table t;
    uint64_t all = 0;
    const struct rp_stats_columns cols = {"", "Num Calls#", NULL, NULL, "Name", 0};
    if (rp_stats_table(&t, "api", "CUDA API summary", &cols, o->unit) < 0)
        return;
    rp_sort(a->api, a->napi, sizeof *a->api, cmp_named);
    for (size_t i = 0; i < a->napi; i++)
        all += a->api[i].st.total;
    for (size_t i = 0; i < a->napi && (!o->top || i < o->top); i++)
        rp_stats_row(&t, &a->api[i].st, (double)all, o->unit, NULL, a->api[i].name);
    rp_sum_emit(o, &t);
}

struct counted_row {
    struct rp_named_stats ns; /* the name (rp_named_row); its stats stay empty */
    uint64_t n;
};

static int cmp_counted(const void *x, const void *y)
{
    const struct counted_row *a = x, *b = y;
    return rp_cmp_total_desc((double)a->n, (double)b->n, a->ns.name, b->ns.name);
}

static int any_counted(const struct rp_trace *tr)
{
    for (size_t i = 0; i < tr->nfiles; i++)
        if (tr->files[i].ncounted)
            return 1;
    return 0;
}

/* The functions counted, not timed (format 7): how often each was called, over all files.  Whole processes,
 * whatever --range says: counts have no times. */
static void print_counted(struct rp_sum_out *o, const struct rp_trace *tr)
{
    struct counted_row *rows = NULL;
    struct rp_strmap by_name = {0};
    size_t n = 0, cap = 0;
    for (size_t i = 0; i < tr->nfiles; i++)
        for (size_t k = 0; k < tr->files[i].ncounted; k++) {
            const struct rp_id_count *c = &tr->files[i].counted[k];
            char name[256];
            rp_file_api_name(&tr->files[i], (uint16_t)c->id, name, sizeof name);
            size_t r = rp_named_row((void **)&rows, &n, &cap, sizeof *rows, &by_name, name);
            if (r == (size_t)-1)
                goto out;
            rows[r].n += c->count;
        }
    if (!n)
        goto out;
    struct rp_table t;
    const char *titles[] = {"Num Calls#", "Name"};
    if (rp_table_init(&t, "api_counted", "CUDA API calls counted, not timed", 2, titles) < 0)
        goto out;
    rp_sort(rows, n, sizeof *rows, cmp_counted);
    for (size_t r = 0; r < n && (!o->top || r < o->top); r++) {
        char num[24];
        const char *row[] = {rp_u64s(num, rows[r].n), rows[r].ns.name};
        rp_table_row(&t, row);
    }
    rp_sum_emit(o, &t);
out:
    for (size_t r = 0; r < n; r++)
        rp_named_stats_free(&rows[r].ns);
    free(rows);
    rp_strmap_free(&by_name);
}

static int cmp_shape(const void *x, const void *y)
{
    const struct rp_shape *a = x, *b = y;
    if (a->c.n != b->c.n)
        return a->c.n < b->c.n ? 1 : -1;
    int c = memcmp(a->grid, b->grid, sizeof a->grid);
    return c ? c : memcmp(a->block, b->block, sizeof a->block);
}

static void print_kernels(struct rp_sum_out *o, struct agg *a)
{
    struct rp_table t, s;
    uint64_t all = 0;
    const char *stitles[] = {"Launches#", "GridXYZ", "BlockXYZ", "Name"};
    const struct rp_stats_columns cols = {"Host ", "Launches#", NULL, "Shapes#", "Name", 0};
    if (rp_stats_table(&t, "kernels", "Kernel launches (host time of the launch calls)", &cols, o->unit) < 0 ||
        rp_table_init(&s, "kernel_shapes", "Kernel launch shapes", 4, stitles) < 0)
        return;
    rp_sort(a->kern, a->nkern, sizeof *a->kern, cmp_kernel);
    for (size_t i = 0; i < a->nkern; i++)
        all += a->kern[i].ns.st.total;
    for (size_t i = 0; i < a->nkern && (!o->top || i < o->top); i++) {
        struct kernel_row *k = &a->kern[i];
        char nshapes[24];
        rp_stats_row(&t, &k->ns.st, (double)all, o->unit, rp_u64s(nshapes, k->shapes.n), k->ns.name);
        rp_sort(k->shapes.v, k->shapes.n, sizeof *k->shapes.v, cmp_shape);
        for (size_t j = 0; j < k->shapes.n; j++) {
            char n[24], g[48], b[48];
            const uint32_t *gr = k->shapes.v[j].grid, *bl = k->shapes.v[j].block;
            snprintf(g, sizeof g, "%u %u %u", gr[0], gr[1], gr[2]);
            snprintf(b, sizeof b, "%u %u %u", bl[0], bl[1], bl[2]);
            const char *srow[] = {rp_u64s(n, k->shapes.v[j].c.n), g, b, k->ns.name};
            rp_table_row(&s, srow);
        }
    }
    rp_sum_emit(o, &t);
    rp_sum_emit(o, &s);
}

static int cmp_copy(const void *x, const void *y)
{
    const struct copy_row *a = x, *b = y;
    return rp_cmp_total_desc((double)a->bytes.total, (double)b->bytes.total, a->ns.name, b->ns.name);
}

static void print_copies(struct rp_sum_out *o, struct agg *a)
{
    struct rp_table t;
    char b[3][48];
    const char *titles[] = {"Count#", "Total Bytes#", "Avg Bytes#", "Min Bytes#", "Max Bytes#",
                            rp_unit_title(b[0], 48, "Host Total Time", o->unit, 0),
                            rp_unit_title(b[1], 48, "Host Avg", o->unit, 0),
                            rp_unit_title(b[2], 48, "Host Med", o->unit, 0), "Operation"};
    if (rp_table_init(&t, "copies", "Copies and sets (bytes, host time)", 9, titles) < 0)
        return;
    rp_sort(a->copy, a->ncopy, sizeof *a->copy, cmp_copy);
    for (size_t i = 0; i < a->ncopy && (!o->top || i < o->top); i++) {
        struct copy_row *r = &a->copy[i];
        char c[8][48];
        rp_u64s(c[0], r->ns.st.n);
        rp_u64s(c[1], r->bytes.total);
        snprintf(c[2], 48, "%.1f", rp_stats_mean(&r->bytes));
        rp_u64s(c[3], r->bytes.min);
        rp_u64s(c[4], r->bytes.max);
        rp_fmt_time(c[5], 48, (double)r->ns.st.total, o->unit, 0);
        rp_fmt_time(c[6], 48, rp_stats_mean(&r->ns.st), o->unit, 1);
        rp_fmt_time(c[7], 48, rp_stats_median(&r->ns.st), o->unit, 1);
        const char *row[] = {c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], r->ns.name};
        rp_table_row(&t, row);
    }
    rp_sum_emit(o, &t);
}

static void memory_row(struct rp_sum_out *o, struct rp_table *t, const char *kind, const struct rp_mem_stats *m)
{
    char c[8][48];
    rp_u64s(c[0], m->allocs);
    rp_u64s(c[1], m->alloc_bytes);
    rp_u64s(c[2], m->frees);
    rp_u64s(c[3], m->freed_bytes);
    rp_u64s(c[4], m->peak_bytes);
    if (m->peak_bytes)
        rp_fmt_time(c[5], 48, (double)(m->peak_t - o->start), o->unit, 0);
    else
        c[5][0] = '\0';
    rp_u64s(c[6], m->live);
    rp_u64s(c[7], m->live_bytes);
    const char *row[] = {c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], kind};
    rp_table_row(t, row);
}

static void print_memory(struct rp_sum_out *o, struct agg *a)
{
    struct rp_table t;
    char b[48];
    const char *titles[] = {"Allocs#", "Alloc Bytes#", "Frees#", "Freed Bytes#", "Peak Bytes#",
                            rp_unit_title(b, sizeof b, "Peak At", o->unit, 0), "Live At Exit#", "Live Bytes At Exit#",
                            "Kind"};
    if (rp_table_init(&t, "memory", "Memory (allocations by kind; peak at: time since trace start)", 9, titles) < 0)
        return;
    for (unsigned k = 0; k < RP_MEM_KINDS; k++)
        if (a->mem.kind[k].allocs)
            memory_row(o, &t, rp_mem_kind_name(k), &a->mem.kind[k]);
    memory_row(o, &t, "total on device", &a->mem.device);
    if (a->mem.unmatched_frees) {
        char n[24];
        rp_u64s(n, a->mem.unmatched_frees);
        const char *row[] = {"0", "0", n, "", "", "", "", "", "frees of memory allocated before tracing"};
        rp_table_row(&t, row);
    }
    rp_sum_emit(o, &t);
}

static int cmp_error(const void *x, const void *y)
{
    const struct error_row *a = x, *b = y;
    if (a->n != b->n)
        return a->n < b->n ? 1 : -1;
    int c = strcmp(a->api, b->api);
    if (c)
        return c;
    return (a->result > b->result) - (a->result < b->result);
}

static void print_errors(struct rp_sum_out *o, struct agg *a)
{
    struct rp_table t;
    const char *titles[] = {"Count#", "Result!", "Result Name", "Name"};
    if (rp_table_init(&t, "errors", "Calls that did not return CUDA_SUCCESS", 4, titles) < 0)
        return;
    rp_sort(a->err, a->nerr, sizeof *a->err, cmp_error);
    for (size_t i = 0; i < a->nerr && (!o->top || i < o->top); i++) {
        char n[24], r[24], buf[48];
        snprintf(r, sizeof r, "%d", (int)a->err[i].result);
        const char *row[] = {rp_u64s(n, a->err[i].n), r, rp_result_name(a->err[i].result, buf, sizeof buf),
                             a->err[i].api};
        rp_table_row(&t, row);
    }
    rp_sum_emit(o, &t);
}

static int by_value(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* The files' ranks, each once, in order (the files come in whatever order the shell or the launcher found
 * them). */
static void list_ranks(char *list, size_t size, const struct rp_trace *tr)
{
    int32_t *r = malloc(tr->nfiles * sizeof *r);
    size_t n = 0;
    char buf[24];
    if (!r)
        return;
    for (size_t i = 0; i < tr->nfiles; i++)
        if (tr->files[i].rank.rank >= 0)
            r[n++] = tr->files[i].rank.rank;
    qsort(r, n, sizeof *r, by_value);
    for (size_t i = 0; i < n; i++)
        rp_list_add(list, size, rp_u64s(buf, (uint64_t)r[i]));
    free(r);
}

static void print_header(struct rp_sum_out *o, const struct rp_trace *tr)
{
    struct rp_table t;
    if (rp_table_init_kv(&t, "header", "Trace") < 0)
        return;
    char files[1024] = "", pids[512] = "", hosts[512] = "", devices[1024] = "", buf[128], dur[48], title[48];
    char ranks[512] = "", incomplete[1024] = "", counted_sets[256] = "";
    uint64_t calls = 0, lost = 0, untraced = 0, counted = 0;
    int32_t driver = 0, ranges = 0, nvtx_only = 0;
    for (size_t i = 0; i < tr->nfiles; i++) {
        const struct rp_file *f = &tr->files[i];
        rp_list_add(files, sizeof files, f->path);
        rp_list_add(pids, sizeof pids, rp_u64s(buf, f->hdr.pid));
        if (*f->host)
            rp_list_add(hosts, sizeof hosts, f->host);
        for (size_t d = 0; d < f->ndevices; d++) {
            snprintf(buf, sizeof buf, "%d: %s (%.1f GiB)", f->devices[d].ordinal, f->devices[d].name,
                     (double)f->devices[d].total_mem / (1024.0 * 1024 * 1024));
            rp_list_add(devices, sizeof devices, buf);
        }
        if (f->driver_version && !driver)
            driver = f->driver_version;
        calls += f->calls;
        lost += f->lost;
        untraced += f->untraced;
        for (size_t k = 0; k < f->ncounted; k++)
            counted += f->counted[k].count;
        rp_list_add(counted_sets, sizeof counted_sets, rp_file_counted_set(f));
        ranges |= rp_file_ranges_only(f);
        nvtx_only |= rp_file_nvtx_only(f);
        if (rp_file_incomplete(f))
            rp_list_add(incomplete, sizeof incomplete, f->path);
    }
    list_ranks(ranks, sizeof ranks, tr);
    const struct rp_file *f0 = &tr->files[0];
    time_t start = (time_t)((tr->start_ns) / 1000000000);
    char when[64] = "";
    struct tm tm;
    if (localtime_r(&start, &tm))
        strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S %z", &tm);
    char drv[48] = "unknown", n1[24], n2[24], n3[24], n4[24], fv[24];
    if (driver)
        snprintf(drv, sizeof drv, "%d.%d (%d)", driver / 1000, driver % 1000 / 10, driver);
    snprintf(title, sizeof title, "Duration (%s)#", o->unit->name);
    rp_fmt_time(dur, sizeof dur, (double)(tr->end_ns - tr->start_ns), o->unit, 0);
    snprintf(fv, sizeof fv, "%u", f0->hdr.format_version);
    char tv[17];
    memcpy(tv, f0->hdr.tracer_version, 16);
    tv[16] = '\0';
    const char *rows[][2] = {
        {"Files", files},
        {"Command line", f0->cmdline},
        {"Pids", pids},
        {"Ranks", *ranks ? ranks : NULL},
        {"Hosts", hosts},
        {"Incomplete (no END record: killed, crashed or _exit)", *incomplete ? incomplete : NULL},
        {"Start", when},
        {title, dur},
        {"Driver version", drv},
        {"Devices", devices},
        {"Calls recorded#", rp_u64s(n1, calls)},
        {"Calls recorded from", ranges ? (nvtx_only ? RP_NVTX_ONLY : RP_RANGES_ONLY) : NULL}, /* said only of a partial trace */
        {"Calls counted, not timed#", counted ? rp_u64s(n4, counted) : NULL}, /* table api_counted */
        {"Functions counted, not timed", counted_sets},
        {"Calls lost#", rp_u64s(n2, lost)},
        {"Untraced pointers#", rp_u64s(n3, untraced)},
        {NULL, NULL}, /* the GPU rows go here */
        {"Format version#", fv},
        {"Tracer version", tv},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (!rows[i][0])
            rp_gpu_header_rows(&t, tr);
        else if (rows[i][1])
            rp_table_row(&t, rows[i]);
    rp_sum_emit(o, &t);
}

static void agg_free(struct agg *a, size_t nfiles)
{
    for (size_t i = 0; i < a->napi; i++) {
        rp_named_stats_free(&a->api[i]);
    }
    for (size_t i = 0; i < a->nkern; i++) {
        rp_named_stats_free(&a->kern[i].ns);
        rp_shape_set_free(&a->kern[i].shapes);
    }
    for (size_t i = 0; i < a->ncopy; i++) {
        rp_named_stats_free(&a->copy[i].ns);
        rp_stats_free(&a->copy[i].bytes);
    }
    for (size_t i = 0; a->api_of_file && i < nfiles; i++)
        free(a->api_of_file[i].row);
    free(a->api_of_file);
    free(a->api);
    free(a->kern);
    free(a->copy);
    free(a->err);
    rp_strmap_free(&a->api_by_name);
    rp_strmap_free(&a->kern_by_name);
    rp_strmap_free(&a->copy_by_op);
    rp_u64map_free(&a->kern_of_file);
    rp_kernel_names_free(&a->knames);
    rp_u64map_free(&a->err_of);
    rp_memtrack_free(&a->mem);
    rp_gpu_agg_free(a->gpu);
}

static int parse_sections(const char *arg, unsigned *mask)
{
    char *copy = strdup(arg), *save = NULL;
    int rc = copy ? 0 : -1;
    *mask = 0;
    for (char *tok = copy ? strtok_r(copy, ",", &save) : NULL; tok; tok = strtok_r(NULL, ",", &save)) {
        for (size_t k = 0; k < sizeof nsys_names / sizeof nsys_names[0]; k++)
            if (strcmp(tok, nsys_names[k][0]) == 0)
                tok = (char *)nsys_names[k][1];
        unsigned i = 0;
        while (i < sizeof section_names / sizeof section_names[0] && strcmp(tok, section_names[i]))
            i++;
        if (i == sizeof section_names / sizeof section_names[0])
            rc = -1;
        else
            *mask |= 1u << i;
    }
    free(copy);
    return rc < 0 || !*mask ? -1 : 0;
}

/* Pass 2 over the calls of `tr` in time order, those inside --range's ranges only, for the tables of `need`
 * (SEC_*; the api table's rows are always made); the GPU tables of device `device` only (RP_GPU_ALL_DEVICES:
 * all), whether GPU time was taken as in `whole` (the files of the report, or of the group).  The GPU spans
 * no call made count too, but under --range, which they cannot be placed in.  With `record`, the memory
 * tracker keeps its changes for a replay across files (aggregate). */
static int aggregate_merged(struct rp_trace *tr, const struct rp_trace *whole, struct agg *a,
                            const struct rp_range_filter *rf, unsigned need, int device, int record)
{
    struct rp_merge *m = NULL;
    memset(a, 0, sizeof *a);
    a->need = need;
    a->mem.record = record;
    if (!(a->api_of_file = calloc(tr->nfiles, sizeof *a->api_of_file)) || !(a->gpu = rp_gpu_agg_new(whole, device)) ||
        !(m = rp_merge_begin(tr)))
        return RP_EXIT_FAILED;
    int rc = RP_EXIT_OK;
    for (const struct rp_call *c; (c = rp_merge_next(m));)
        if ((!rf || rp_range_filter_keep(rf, c)) && add_call(a, c) < 0) {
            rc = RP_EXIT_FAILED;
            break;
        }
    if (rc == RP_EXIT_OK && !rf && rp_gpu_agg_no_call(a->gpu, tr) < 0)
        rc = RP_EXIT_FAILED;
    if (rc == RP_EXIT_FAILED)
        fprintf(stderr, RP_PROG ": out of memory\n");
    if (rc == RP_EXIT_OK && rp_merge_failed(m))
        rc = RP_EXIT_UNREADABLE;
    rp_merge_end(m);
    return rc;
}

static void add_mem_counts(struct rp_mem_stats *d, const struct rp_mem_stats *s)
{
    d->allocs += s->allocs;
    d->alloc_bytes += s->alloc_bytes;
    d->frees += s->frees;
    d->freed_bytes += s->freed_bytes;
}

/* Add src's rows to dst's by name (src unchanged), as if dst had been fed src's calls too; the memory
 * table's live bytes and peaks come after, from the replay of the files' changes.  0 or -1. */
static int agg_merge(struct agg *dst, const struct agg *src)
{
    int rc = 0;
    for (size_t i = 0; i < src->napi && !rc; i++) {
        size_t r = rp_named_row((void **)&dst->api, &dst->napi, &dst->capi, sizeof *dst->api, &dst->api_by_name,
                                src->api[i].name);
        rc = r == (size_t)-1 ? -1 : rp_stats_merge(&dst->api[r].st, &src->api[i].st);
    }
    for (size_t i = 0; i < src->nkern && !rc; i++) {
        const struct kernel_row *k = &src->kern[i];
        size_t r = rp_named_row((void **)&dst->kern, &dst->nkern, &dst->ckern, sizeof *dst->kern, &dst->kern_by_name,
                                k->ns.name);
        rc = r == (size_t)-1 ? -1 : rp_stats_merge(&dst->kern[r].ns.st, &k->ns.st);
        for (size_t j = 0; j < k->shapes.n && !rc; j++) {
            struct rp_shape *s = rp_shape_set_get(&dst->kern[r].shapes, k->shapes.v[j].grid, k->shapes.v[j].block);
            if (!s)
                rc = -1;
            else
                s->c.n += k->shapes.v[j].c.n;
        }
    }
    for (size_t i = 0; i < src->ncopy && !rc; i++) {
        const struct copy_row *c = &src->copy[i];
        size_t r = rp_named_row((void **)&dst->copy, &dst->ncopy, &dst->ccopy, sizeof *dst->copy, &dst->copy_by_op,
                                c->ns.name);
        rc = r == (size_t)-1 ? -1 : rp_stats_merge(&dst->copy[r].ns.st, &c->ns.st) | rp_stats_merge(&dst->copy[r].bytes, &c->bytes);
    }
    for (size_t i = 0; i < src->nerr && !rc; i++) {
        size_t api = rp_named_row((void **)&dst->api, &dst->napi, &dst->capi, sizeof *dst->api, &dst->api_by_name,
                                  src->err[i].api);
        rc = api == (size_t)-1 || add_error(dst, api, src->err[i].result) < 0 ? -1 : 0;
        if (!rc) /* add_error counted one */
            dst->err[rp_u64map_get(&dst->err_of, api, (uint32_t)src->err[i].result)->v1].n += src->err[i].n - 1;
    }
    for (unsigned k = 0; k < RP_MEM_KINDS; k++)
        add_mem_counts(&dst->mem.kind[k], &src->mem.kind[k]);
    add_mem_counts(&dst->mem.device, &src->mem.device);
    dst->mem.unmatched_frees += src->mem.unmatched_frees;
    if (!rc && dst->gpu && src->gpu)
        rc = rp_gpu_agg_merge(dst->gpu, src->gpu);
    return rc;
}

/* -j: each file aggregated on a worker thread, merged into the whole in the order of the files. */
struct split {
    struct rp_trace *tr;
    struct agg *out, *part;
    int *rc;
    struct rp_mem_changes *changes; /* each file's, kept for the replay */
    unsigned char **change_bytes;
    unsigned need;
    int device, worst;
};

static void aggregate_file(void *ctx, size_t i)
{
    struct split *s = ctx;
    struct rp_trace one = *s->tr;
    one.files = &s->tr->files[i];
    one.nfiles = 1;
    s->rc[i] = aggregate_merged(&one, s->tr, &s->part[i], NULL, s->need, s->device, (s->need & SEC_MEMORY) != 0);
}

static int merge_file(void *ctx, size_t i)
{
    struct split *s = ctx;
    struct agg *p = &s->part[i];
    if (s->rc[i] != RP_EXIT_OK && s->worst == RP_EXIT_OK)
        s->worst = s->rc[i];
    if (s->worst == RP_EXIT_OK && agg_merge(s->out, p) < 0) {
        fprintf(stderr, RP_PROG ": out of memory\n");
        s->worst = RP_EXIT_FAILED;
    }
    s->changes[i] = (struct rp_mem_changes){p->mem.changes.p, p->mem.changes.n, p->mem.nchanges,
                                            s->tr->files[i].clock_offset};
    s->change_bytes[i] = p->mem.changes.p; /* kept past agg_free */
    p->mem.changes = (struct rp_bytes){0};
    agg_free(p, 1);
    return 0;
}

/* Pass 2 over the calls of `tr` (all files, or one group's with --by), as aggregate_merged.  With jobs > 1
 * and several files (and no --range), each file is aggregated apart, on up to `jobs` threads, and the
 * results merged in file order: the same tables, since every statistic merges exactly (stats.h) and the
 * memory table's peaks come from the files' changes replayed in the merge's order. */
static int aggregate(struct rp_trace *tr, struct agg *a, const struct rp_range_filter *rf, unsigned need, int device,
                     unsigned jobs)
{
    if (jobs <= 1 || rf || tr->nfiles < 2)
        return aggregate_merged(tr, tr, a, rf, need, device, 0);
    memset(a, 0, sizeof *a);
    a->need = need;
    struct split s = {tr, a, calloc(tr->nfiles, sizeof *s.part), calloc(tr->nfiles, sizeof *s.rc),
                      calloc(tr->nfiles, sizeof *s.changes), calloc(tr->nfiles, sizeof *s.change_bytes), need, device,
                      RP_EXIT_OK};
    if (!s.part || !s.rc || !s.changes || !s.change_bytes || !(a->api_of_file = calloc(tr->nfiles, sizeof *a->api_of_file)) ||
        !(a->gpu = rp_gpu_agg_new(tr, device))) {
        fprintf(stderr, RP_PROG ": out of memory\n");
        s.worst = RP_EXIT_FAILED;
    } else {
        rp_parallel_ordered(tr->nfiles, jobs, &s, aggregate_file, merge_file);
    }
    if (s.worst == RP_EXIT_OK && (need & SEC_MEMORY) && rp_mem_replay(&a->mem, s.changes, tr->nfiles) < 0) {
        fprintf(stderr, RP_PROG ": out of memory\n");
        s.worst = RP_EXIT_FAILED;
    }
    for (size_t i = 0; s.change_bytes && i < tr->nfiles; i++)
        free(s.change_bytes[i]);
    free(s.part);
    free(s.rc);
    free(s.changes);
    free(s.change_bytes);
    return s.worst;
}

static void print_tables(struct rp_sum_out *o, struct agg *a, unsigned sections)
{
    if (sections & SEC_API)
        print_api(o, a);
    if (sections & SEC_KERNELS)
        print_kernels(o, a);
    if (sections & SEC_COPIES)
        print_copies(o, a);
    if (sections & SEC_GPU_KERNELS)
        rp_gpu_print_kernels(o, a->gpu);
    if (sections & SEC_GPU_COPIES_TIME)
        rp_gpu_print_copies_time(o, a->gpu);
    if (sections & SEC_GPU_COPIES_SIZE)
        rp_gpu_print_copies_size(o, a->gpu);
    if (sections & SEC_MEMORY)
        print_memory(o, a);
    if (sections & SEC_ERRORS)
        print_errors(o, a);
}

/* --by: the api and kernel tables of each group, each group's totals kept for the spread table.  Groups are
 * aggregated on up to rp_jobs() threads and printed in order as each is done. */
struct by_group {
    struct rp_sum_out *o;
    struct rp_trace *tr;
    struct rp_groups g;
    struct rp_spread sp;
    unsigned sections;
    struct agg *a;
    int *rc;
};

static void aggregate_group(void *ctx, size_t i)
{
    struct by_group *b = ctx;
    struct rp_trace sub = *b->tr;
    sub.files = b->g.v[i].files;
    sub.nfiles = b->g.v[i].nfiles;
    b->rc[i] = aggregate(&sub, &b->a[i], NULL, SEC_API | SEC_KERNELS | SEC_GPU_KERNELS, RP_GPU_ALL_DEVICES,
                         1); /* the spread takes all three */
}

static int print_group(void *ctx, size_t i)
{
    struct by_group *b = ctx;
    struct agg *a = &b->a[i];
    int rc = b->rc[i];
    if (rc == RP_EXIT_OK) {
        for (size_t k = 0; k < a->napi; k++)
            rc |= rp_spread_add(&b->sp, "api", a->api[k].name, i, a->api[k].st.total);
        for (size_t k = 0; k < a->nkern; k++)
            rc |= rp_spread_add(&b->sp, "kernel (host)", a->kern[k].ns.name, i, a->kern[k].ns.st.total);
        rc |= rp_gpu_spread(a->gpu, &b->sp, i);
        rc = rc ? RP_EXIT_FAILED : RP_EXIT_OK;
        b->o->group = b->g.v[i].label;
        print_tables(b->o, a, b->sections & (SEC_API | SEC_KERNELS | SEC_GPU_KERNELS));
        b->o->group = NULL;
    }
    agg_free(a, b->g.v[i].nfiles);
    return rc;
}

static int print_by_group(struct rp_sum_out *o, struct rp_trace *tr, enum rp_group_by by, unsigned sections)
{
    struct by_group b = {o, tr, {0}, {0}, sections, NULL, NULL};
    int rc = RP_EXIT_OK;
    if (rp_groups_make(&b.g, tr, by) < 0 || rp_spread_init(&b.sp, b.g.n) < 0 ||
        !(b.a = calloc(b.g.n ? b.g.n : 1, sizeof *b.a)) || !(b.rc = calloc(b.g.n ? b.g.n : 1, sizeof *b.rc))) {
        fprintf(stderr, RP_PROG ": out of memory\n");
        free(b.a);
        rp_groups_free(&b.g);
        return RP_EXIT_FAILED;
    }
    rc = rp_parallel_ordered(b.g.n, rp_jobs(), &b, aggregate_group, print_group);
    if (rc == RP_EXIT_OK)
        rp_spread_print(o, &b.sp, &b.g);
    free(b.a);
    free(b.rc);
    rp_spread_free(&b.sp);
    rp_groups_free(&b.g);
    return rc;
}

/* --by device: the GPU tables of each device's spans, and the spread of their kernels' GPU time. */
static int print_by_device(struct rp_sum_out *o, struct rp_trace *tr, unsigned sections)
{
    size_t n = 0;
    int *dev = rp_gpu_devices(tr, &n), rc = RP_EXIT_OK;
    struct rp_groups g = {calloc(n ? n : 1, sizeof *g.v), n};
    struct rp_spread sp;
    if (!g.v || rp_spread_init(&sp, n) < 0) {
        fprintf(stderr, RP_PROG ": out of memory\n");
        free(dev);
        free(g.v);
        return RP_EXIT_FAILED;
    }
    for (size_t i = 0; i < n && rc == RP_EXIT_OK; i++) {
        struct agg a;
        rp_gpu_device_label(dev[i], g.v[i].label, sizeof g.v[i].label);
        rc = aggregate(tr, &a, NULL, SEC_API | SEC_GPU_KERNELS | SEC_GPU_COPIES_TIME | SEC_GPU_COPIES_SIZE, dev[i], rp_jobs());
        if (rc == RP_EXIT_OK) {
            rc = rp_gpu_spread(a.gpu, &sp, i) < 0 ? RP_EXIT_FAILED : RP_EXIT_OK;
            o->group = g.v[i].label;
            print_tables(o, &a, sections & (SEC_GPU_KERNELS | SEC_GPU_COPIES_TIME | SEC_GPU_COPIES_SIZE));
            o->group = NULL;
        }
        agg_free(&a, tr->nfiles);
    }
    if (rc == RP_EXIT_OK && n > 1)
        rp_spread_print(o, &sp, &g);
    rp_spread_free(&sp);
    free(g.v);
    free(dev);
    return rc;
}

static int run(int argc, char **argv)
{
    static const struct option longopts[] = {
        RP_COMMON_LONGOPTS, {"top", required_argument, NULL, 't'}, {"section", required_argument, NULL, 's'},
        {"report", required_argument, NULL, 's'}, {"range", required_argument, NULL, 'r'},
        {"by", required_argument, NULL, 'b'}, {NULL, 0, NULL, 0}};
    struct rp_common co;
    unsigned long long top = 0;
    unsigned sections = ~0u;
    const char *range = NULL;
    int by = -1, opt;
    rp_common_init(&co);
    while ((opt = getopt_long(argc, argv, RP_COMMON_SHORTOPTS "t:s:r:", longopts, NULL)) != -1) {
        int h = rp_common_option(&co, &rp_cmd_summary, opt, optarg, "table,csv,tsv,json,column");
        if (h < 0)
            return RP_EXIT_USAGE;
        if (h)
            continue;
        switch (opt) {
        case 'h': rp_help(&rp_cmd_summary); return RP_EXIT_OK;
        case 't':
            if (rp_parse_u64(&rp_cmd_summary, "--top", optarg, &top) < 0)
                return RP_EXIT_USAGE;
            break;
        case 's':
            if (parse_sections(optarg, &sections) < 0)
                return rp_usage_error(&rp_cmd_summary, "--section (--report) takes a comma-separated list of "
                                      SECTION_LIST " or nsys report names (cuda_api_sum, nvtx_sum, ...)");
            break;
        case 'r': range = optarg; break;
        case 'b':
            if ((by = rp_group_by_parse(optarg)) < 0)
                return rp_usage_error(&rp_cmd_summary, "--by takes rank, pid, host or device, not '%s'", optarg);
            break;
        default: return rp_usage_hint(&rp_cmd_summary);
        }
    }
    if (by >= 0 && range)
        return rp_usage_error(&rp_cmd_summary, "--by and --range cannot be combined");
    struct rp_trace tr;
    int rc = rp_open_files(&tr, &rp_cmd_summary, argc, argv, optind, 0);
    if (rc != RP_EXIT_OK && rc != RP_EXIT_DAMAGED)
        return rc;
    struct agg a;
    memset(&a, 0, sizeof a);
    struct rp_range_filter rf = {0};
    FILE *f = NULL;
    if (range && rp_range_filter_init(&rf, &tr, range) < 0) {
        rc = RP_EXIT_FAILED;
        goto out;
    }
    if (range && rf.ranges == 0)
        fprintf(stderr, RP_PROG ": warning: no NVTX range '%s' in the trace: no call is summarized\n", range);
    int arc = by >= 0 ? RP_EXIT_OK : aggregate(&tr, &a, range ? &rf : NULL, sections, RP_GPU_ALL_DEVICES, rp_jobs());
    if (arc != RP_EXIT_OK) {
        rc = arc;
        goto out;
    }
    if (!(f = rp_output_open(&co))) {
        rc = RP_EXIT_FAILED;
        goto out;
    }
    struct rp_sum_out o = {f, co.format >= 0 ? (enum rp_format)co.format : rp_format_default(f), &co.unit, top, 1, 0,
                           tr.start_ns, NULL};
    o.labelled = (sections & (sections - 1)) != 0 || (sections & SEC_KERNELS) || by >= 0 ||
                 ((sections & SEC_API) && any_counted(&tr)); /* the api section then has two tables */
    if (sections & SEC_HEADER)
        print_header(&o, &tr);
    if (sections & SEC_NVTX)
        rp_nvtx_print(&o, &tr);
    if (by == RP_BY_DEVICE)
        arc = print_by_device(&o, &tr, sections);
    else if (by >= 0)
        arc = print_by_group(&o, &tr, (enum rp_group_by)by, sections);
    else
        print_tables(&o, &a, sections);
    if (sections & SEC_API)
        print_counted(&o, &tr);
    if (o.fmt == RP_FMT_JSON)
        fputs(o.first ? "{}\n" : "}\n", f);
    rc = rp_output_close(f, &co, arc != RP_EXIT_OK ? arc : rc);
out:
    rp_range_filter_free(&rf);
    agg_free(&a, tr.nfiles);
    rp_trace_close(&tr);
    return rc;
}

const struct rp_command rp_cmd_summary = {
    "summary", "tables of API calls, kernels, copies, GPU time, memory and errors (as nsys stats)",
    "Usage: " RP_PROG " summary [OPTION]... FILE...\n"
    "Summarize one or more trace files, merged (a parent and its children, several ranks).  A file\n"
    "without an END record (a process killed, crashed, or ended by _exit) is reported with a\n"
    "warning on stderr and named in the header's Incomplete row.\n"
    "\n"
    "Sections (all by default):\n"
    "  header   files, command line, pids, ranks, hosts, start, duration, driver, devices,\n"
    "           calls recorded, calls counted, not timed and which functions were (by default\n"
    "           trivial queries; CUDATRACE_APIS), calls lost, pointers handed back untraced,\n"
    "           how GPU time was taken (CUPTI activity records: every kernel, copy and set;\n"
    "           timing events: every call, or the first K calls of each kind, then 1 in N;\n"
    "           off; and why, when CUPTI could not serve), GPU spans, calls left untimed by\n"
    "           cause, spans not completed, spans without a call, records CUPTI dropped\n"
    "  nvtx     NVTX ranges, as nsys nvtx_sum: Time (%), Total Time, Instances, Avg, Med, Min,\n"
    "           Max, StdDev, Style (PushPop, StartEnd), Range (DOMAIN:MESSAGE; :MESSAGE in the\n"
    "           default domain)\n"
    "  api      per API function, as nsys cuda_api_sum: Time (%), Total Time, Num Calls, Avg,\n"
    "           Med, Min, Max, StdDev, Name; by total time, descending.  Name is the function\n"
    "           as written in source (cuMemAlloc, not cuMemAlloc_v2), with _ptsz/_ptds for the\n"
    "           per-thread default stream variants.  Functions counted, not timed (by\n"
    "           default trivial queries such as cuCtxGetDevice; CUDATRACE_APIS) follow in table\n"
    "           api_counted: Num Calls, Name (their successful calls, whole processes, whatever\n"
    "           --range says; a failed call is recorded, in the api and errors tables)\n"
    "  kernels  per kernel (demangled): launches, statistics of the host time of the launch\n"
    "           calls (Host Total Time, Host Avg, ...), and the distinct grid/block shapes\n"
    "           (table kernel_shapes)\n"
    "  copies   per operation ([CUDA memcpy Host-to-Device], [CUDA memset], ...): count,\n"
    "           bytes, host time of the calls\n"
    "  gpu_kernels      GPU time per kernel, as nsys cuda_gpu_kern_sum: Time (%), Total Time,\n"
    "           Instances, Avg, Med, Min, Max, StdDev, Name; a graph launch timed by events\n"
    "           counts as one row per graph, [CUDA graph 0xHANDLE]; timed by CUPTI, each of\n"
    "           its kernels in its kernel's row\n"
    "  gpu_copies_time  GPU time per copy operation, as cuda_gpu_mem_time_sum: Time (%),\n"
    "           Total Time, Count, Avg, Med, Min, Max, StdDev, Operation\n"
    "  gpu_copies_size  bytes per copy operation, as cuda_gpu_mem_size_sum: Total, Count, Avg,\n"
    "           Med, Min, Max, StdDev (MB = 10^6 bytes), Operation\n"
    "  memory   allocations and frees by kind, peak live bytes and when, still allocated at exit\n"
    "  errors   calls that returned other than CUDA_SUCCESS, by API and result\n"
    "Kernels, copies, the GPU tables and memory count successful calls; the api table counts\n"
    "every call.  The GPU tables need a trace with GPU time (CUDATRACE_GPU_TIME, format 5);\n"
    "without one they are empty.  When not every launch or copy was timed (sampling, or calls\n"
    "left untimed), Instances and Count still count every call, a Timed column after them\n"
    "counts the timed ones, and the total becomes \"Total Time (ns, est.)\": per group (a\n"
    "kernel's grid and block; an operation's power-of-two size class) the mean GPU time of\n"
    "its timed calls times its calls, a group with none timed taking its row's mean, where a\n"
    "call timed as one of N sampled calls weighs N (the first timings of each kind, which\n"
    "pay for warm-up, do not outweigh the rest); Time (%) is of these estimates, Avg is the\n"
    "estimate over the calls, Med to StdDev are over the timed calls.  A row with no timed\n"
    "call leaves its times empty.  Work that CUPTI timed but no recorded call made counts\n"
    "too (not under --range).\n"
    "\n"
    "Options:\n"
    "  -f, --format=FMT     table, csv, tsv or json (default: table on a terminal, else csv);\n"
    "                       csv and tsv print a '# SECTION' line before each table when there are\n"
    "                       several\n"
    "  -u, --timeunit=UNIT  ns, us, ms or s, or as nsys spells them (nsec, usec, msec, sec,\n"
    "                       seconds ...) (default ns); column titles name the unit.  Averages,\n"
    "                       medians and deviations have one decimal in ns, times are exact to the ns\n"
    "                       in the other units\n"
    "  -t, --top=N          at most N rows per table (Time (%) is still of all rows)\n"
    "  -s, --section=LIST   comma-separated sections: header,nvtx,api,kernels,copies,gpu_kernels,\n"
    "                       gpu_copies_time,gpu_copies_size,memory,errors; nsys report names stand\n"
    "                       for theirs: cuda_api_sum (api), cuda_gpu_kern_sum (gpu_kernels),\n"
    "                       cuda_gpu_mem_time_sum, cuda_gpu_mem_size_sum (gpu_copies_*),\n"
    "                       cuda_kern_exec_sum (kernels), nvtx_sum (nvtx)\n"
    "      --report=LIST    the same as --section, nsys's name for it\n"
    "      --range=NAME[@DOMAIN]  only the calls made inside an NVTX range of that message (and\n"
    "                       domain), on the thread that opened it: which kernels does 'forward'\n"
    "                       launch (the nvtx table still shows every range)\n"
    "      --by=rank|pid|host  the api, kernels and gpu_kernels tables of each rank, process or\n"
    "                       host (keys and titles name it: api[rank 0 (HOST, PID)]), then the\n"
    "                       table spread: per API function and kernel, the least, median and most\n"
    "                       total time of a group, Max/Min and the slowest group, by Max - Min\n"
    "      --by=device      the GPU tables of each device (gpu_kernels[GPU 0]), from the spans on\n"
    "                       it (calls not timed, whose device is unknown, are left out), then the\n"
    "                       spread of the kernels' GPU time across devices\n"
    "  -o, --output=FILE    write to FILE instead of standard output\n"
    "  -j, --jobs=N         read and aggregate up to N files (with --by, N groups) at once, on N\n"
    "                       threads (default: the CPUs this process may run on), each file's\n"
    "                       tables merged in the order the files were given; the output is the\n"
    "                       same for every N.  --range reads the calls on one thread\n"
    "  -h, --help           this help\n"
    "\n"
    "Medians are exact for rows of up to 1024 calls; above that they come from a log-bucketed\n"
    "histogram and are within 0.39% (1/256) of the exact median.  StdDev is the sample standard\n"
    "deviation.  Memory use is bounded by the distinct names and shapes of the sections asked\n"
    "for, plus the allocations live at one time and the GPU spans (48 bytes each, joined to\n"
    "their calls by sequence number; 56 more for each kernel of a graph timed by CUPTI, and\n"
    "for each span of work no recorded call made).\n"
    "\n"
    "Exit status: 0 ok, 1 usage, 2 a file is missing, unreadable, not a trace or of an\n"
    "unsupported format version (nothing printed), 3 a file is truncated or corrupt (the records\n"
    "before the damage are reported, with a warning), 4 out of memory or output error.\n",
    run,
};
