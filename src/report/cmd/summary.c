/* cudatrace-report summary: the nsys-style tables (API, kernels, copies, memory, errors) of one or more
 * trace files, merged. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "report/model/args.h"
#include "report/cmd/cli.h"
#include "report/cmd/summary.h"
#include "format/grow.h"
#include "report/summary/agg.h"
#include "report/summary/gpu_tables.h"
#include "report/summary/inputs.h"
#include "report/summary/partial.h"
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

static size_t api_row(struct rp_agg *a, const struct rp_call *c)
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

static size_t kernel_row(struct rp_agg *a, const struct rp_call *c)
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

static int add_copy(struct rp_agg *a, const struct rp_call *c)
{
    const struct ct_pl_copy *p = &c->call->pl.copy;
    size_t i = rp_named_row((void **)&a->copy, &a->ncopy, &a->ccopy, sizeof *a->copy, &a->copy_by_op,
                            rp_copy_operation(p->flags, p->src_kind, p->dst_kind));
    if (i == (size_t)-1)
        return -1;
    return rp_stats_add(&a->copy[i].ns.st, (uint64_t)(c->t1 - c->t0)) | rp_stats_add(&a->copy[i].bytes, p->bytes);
}

static int add_error(struct rp_agg *a, size_t api, int32_t result)
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

static int add_call(struct rp_agg *a, const struct rp_call *c)
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

static void print_api(struct rp_sum_out *o, struct rp_agg *a)
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

static int any_counted(const struct rp_sum_input *in, size_t nin)
{
    for (size_t i = 0; i < nin; i++)
        if (in[i].ncounted)
            return 1;
    return 0;
}

/* The functions counted, not timed (format 7): how often each was called, over all files.  Whole processes,
 * whatever --range says: counts have no times. */
static void print_counted(struct rp_sum_out *o, const struct rp_sum_input *in, size_t nin)
{
    struct counted_row *rows = NULL;
    struct rp_strmap by_name = {0};
    size_t n = 0, cap = 0;
    for (size_t i = 0; i < nin; i++)
        for (size_t k = 0; k < in[i].ncounted; k++) {
            size_t r = rp_named_row((void **)&rows, &n, &cap, sizeof *rows, &by_name, in[i].counted[k].name);
            if (r == (size_t)-1)
                goto out;
            rows[r].n += in[i].counted[k].count;
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

static void print_kernels(struct rp_sum_out *o, struct rp_agg *a)
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

static void print_copies(struct rp_sum_out *o, struct rp_agg *a)
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

static void print_memory(struct rp_sum_out *o, struct rp_agg *a)
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

static void print_errors(struct rp_sum_out *o, struct rp_agg *a)
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
static void list_ranks(char *list, size_t size, const struct rp_sum_input *in, size_t nin)
{
    int32_t *r = malloc((nin ? nin : 1) * sizeof *r);
    size_t n = 0;
    char buf[24];
    if (!r)
        return;
    for (size_t i = 0; i < nin; i++)
        if (in[i].rank.rank >= 0)
            r[n++] = in[i].rank.rank;
    qsort(r, n, sizeof *r, by_value);
    for (size_t i = 0; i < n; i++)
        rp_list_add(list, size, rp_u64s(buf, (uint64_t)r[i]));
    free(r);
}

static void print_header(struct rp_sum_out *o, const struct rp_sum_input *in, size_t nin, int64_t start_ns,
                         int64_t end_ns)
{
    struct rp_table t;
    if (rp_table_init_kv(&t, "header", "Trace") < 0)
        return;
    char files[1024] = "", pids[512] = "", hosts[512] = "", devices[1024] = "", buf[128], dur[48], title[48];
    char ranks[512] = "", incomplete[1024] = "", counted_sets[256] = "";
    uint64_t calls = 0, lost = 0, untraced = 0, counted = 0;
    int32_t driver = 0, ranges = 0, nvtx_only = 0;
    for (size_t i = 0; i < nin; i++) {
        const struct rp_sum_input *f = &in[i];
        rp_list_add(files, sizeof files, f->path);
        rp_list_add(pids, sizeof pids, rp_u64s(buf, f->pid));
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
        rp_list_add(counted_sets, sizeof counted_sets, rp_counted_set(f->features, f->ncounted));
        ranges |= (f->features & CT_FEAT_CAPTURE_RANGES) != 0;
        nvtx_only |= (f->features & CT_FEAT_CAPTURE_NVTX) != 0;
        if (!f->has_end)
            rp_list_add(incomplete, sizeof incomplete, f->path);
    }
    list_ranks(ranks, sizeof ranks, in, nin);
    const struct rp_sum_input *f0 = &in[0];
    time_t start = (time_t)(start_ns / 1000000000);
    char when[64] = "";
    struct tm tm;
    if (localtime_r(&start, &tm))
        strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S %z", &tm);
    char drv[48] = "unknown", n1[24], n2[24], n3[24], n4[24], fv[24];
    if (driver)
        snprintf(drv, sizeof drv, "%d.%d (%d)", driver / 1000, driver % 1000 / 10, driver);
    snprintf(title, sizeof title, "Duration (%s)#", o->unit->name);
    rp_fmt_time(dur, sizeof dur, (double)(end_ns - start_ns), o->unit, 0);
    snprintf(fv, sizeof fv, "%u", f0->format_version);
    const char *tv = f0->tracer_version;
    /* Processes of other commands (a shell's children, a launcher and its workers): said, not hidden. */
    size_t others = 0;
    for (size_t i = 1; i < nin; i++)
        others += strcmp(in[i].cmdline, f0->cmdline) != 0;
    char cmdline[1024];
    if (others) /* the first command line cut so that what follows it is said */
        snprintf(cmdline, sizeof cmdline, "%.900s%s (and %zu process%s of other command lines: info shows each)",
                 f0->cmdline, strlen(f0->cmdline) > 900 ? "..." : "", others, others == 1 ? "" : "es");
    const char *rows[][2] = {
        {"Files", files},
        {"Command line", others ? cmdline : f0->cmdline},
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
            rp_gpu_header_rows(&t, in, nin);
        else if (rows[i][1])
            rp_table_row(&t, rows[i]);
    rp_sum_emit(o, &t);
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
 * all) with the modes of rp_gpu_agg_new.  The GPU spans no call made count too, but under --range, which
 * they cannot be placed in.  With `record`, the memory tracker keeps its changes for a replay across files. */
static int aggregate(struct rp_trace *tr, struct rp_agg *a, const struct rp_range_filter *rf, unsigned need,
                     int device, int gpu_on, int gpu_sample, int record)
{
    struct rp_merge *m = NULL;
    memset(a, 0, sizeof *a);
    a->need = need;
    a->mem.record = record;
    a->nfiles = tr->nfiles;
    if (!(a->api_of_file = calloc(tr->nfiles, sizeof *a->api_of_file)) ||
        !(a->gpu = rp_gpu_agg_new(gpu_on, gpu_sample, device)) || !(m = rp_merge_begin(tr))) {
        fprintf(stderr, RP_PROG ": out of memory\n");
        return RP_EXIT_FAILED;
    }
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
static int agg_merge(struct rp_agg *dst, const struct rp_agg *src)
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

/* What a summary reads: its inputs in the order given (a trace file, or each file of a partial), and for the
 * merge of separate aggregates (-j > 1, partials) each input's tables. */
struct sum {
    struct rp_trace tr;           /* the trace files read */
    struct rp_sum_input *in;
    size_t nin, cin;
    struct rp_file **file;        /* per input: its trace file, NULL for a partial's */
    struct rp_agg *part;          /* per input (apart only) */
    int *part_rc;
    int64_t start_ns, end_ns;
    unsigned need;
    int apart;                    /* the inputs are aggregated apart and merged */
    struct rp_agg *stream;        /* apart, without --by: each input's aggregate merged into it as soon as it is
                                   * done, in order, then freed but for its memory changes */
    struct rp_mem_changes *spilled; /* per input, streaming: where its memory changes went (fd < 0: in memory) */
    int spill_fd;                 /* an unlinked temporary file in $TMPDIR holding them; -1 none yet, -2 none made */
    uint64_t spill_size;
    enum { CHANGES_KEEP, CHANGES_SPILL, CHANGES_DROP } changes; /* a partial's memory changes, once read:
                                   * written again (--partial), replayed (the memory table), or not needed */
    int damaged;                  /* some partial was truncated or corrupt (exit 3) */
};

/* Room for one more input (and its aggregate).  0 or -1. */
static int sum_grow(struct sum *s)
{
    if (s->nin < s->cin)
        return 0;
    size_t cap = s->cin ? 2 * s->cin : 16;
    struct rp_sum_input *in = realloc(s->in, cap * sizeof *in);
    if (in)
        s->in = in;
    struct rp_file **f = realloc(s->file, cap * sizeof *f);
    if (f)
        s->file = f;
    struct rp_agg *p = realloc(s->part, cap * sizeof *p);
    if (p)
        s->part = p;
    int *rc = realloc(s->part_rc, cap * sizeof *rc);
    if (rc)
        s->part_rc = rc;
    struct rp_mem_changes *sp = realloc(s->spilled, cap * sizeof *sp);
    if (sp)
        s->spilled = sp;
    if (!in || !f || !p || !rc || !sp)
        return -1;
    s->cin = cap;
    return 0;
}

static void placed(struct sum *s, size_t i);

/* An input (a partial's, or a trace's) of the same process as an earlier one (a copy of a file also given,
 * or in two partials): the one rp_same_process_take_later picks is kept, as rp_trace_open does with traces
 * (traces of one process never meet here).  Returns SAME_NONE (append `in`), SAME_DROP (`in` is not read), or
 * the index whose input `in` now is (the earlier one's input, and its aggregate or file, let go: the caller
 * gives it `in`'s). */
#define SAME_NONE (-1)
#define SAME_DROP (-2)
static long same_process(struct sum *s, struct rp_sum_input *in)
{
    for (size_t j = 0; j < s->nin; j++) {
        struct rp_sum_input *e = &s->in[j];
        if (e->pid != in->pid || e->start_wall_ns != in->start_wall_ns || e->start_mono_ns != in->start_mono_ns)
            continue;
        if (!rp_same_process_take_later(e->path, e->records, in->path, in->records, in->pid, 0))
            return SAME_DROP;
        if (s->file[j] || s->part_rc[j] != RP_EXIT_OK) /* a trace's aggregate is made later: just drop the file */
            s->file[j] = NULL;
        else
            rp_agg_free(&s->part[j]);
        rp_sum_input_free(e);
        *e = *in;
        return (long)j;
    }
    return SAME_NONE;
}

/* One input file's aggregate, on a worker thread (-j): every section asked for, GPU rows as if GPU time
 * were on (the report's modes are applied after the merge), the memory changes kept for the replay. */
static void aggregate_one(void *ctx, size_t i)
{
    struct sum *s = ctx;
    if (!s->file[i])
        return;
    struct rp_trace one = s->tr;
    one.files = s->file[i];
    one.nfiles = 1;
    s->part_rc[i] = aggregate(&one, &s->part[i], NULL, s->need, RP_GPU_ALL_DEVICES, 1, 0, (s->need & SEC_MEMORY) != 0);
    rp_agg_compact(&s->part[i]);
}

/* Append a file's memory changes to the spill file (made on first use): a job's files may bring millions of
 * allocations and frees, kept out of memory until the replay reads them back through small buffers.  0, or -1
 * when they stay in memory (no temporary file, disk full). */
static int spill(struct sum *s, const unsigned char *p, size_t n)
{
    if (s->spill_fd == -1) {
        const char *dir = getenv("TMPDIR");
        char path[4096];
        snprintf(path, sizeof path, "%s/cudatrace-report.XXXXXX", dir && *dir ? dir : "/tmp");
        if ((s->spill_fd = mkstemp(path)) < 0) {
            s->spill_fd = -2; /* do not try again */
            return -1;
        }
        unlink(path);
    }
    if (s->spill_fd < 0)
        return -1;
    for (size_t done = 0; done < n;) {
        ssize_t w = pwrite(s->spill_fd, p + done, n - done, (off_t)(s->spill_size + done));
        if (w <= 0)
            return -1; /* what was written is overwritten by the next file's */
        done += (size_t)w;
    }
    s->spill_size += n;
    return 0;
}

/* Input i's memory changes to the spill file, out of memory (kept there when it cannot be written). */
static void spill_changes(struct sum *s, size_t i)
{
    struct rp_memtrack *m = &s->part[i].mem;
    if (!m->changes.n || spill(s, m->changes.p, m->changes.n) < 0)
        return;
    s->spilled[i] = (struct rp_mem_changes){NULL, m->changes.n, m->nchanges, 0, s->spill_fd, s->spill_size - m->changes.n};
    rp_bytes_free(&m->changes);
}

/* A partial's input just placed at i: its memory changes as the command needs them. */
static void placed(struct sum *s, size_t i)
{
    s->spilled[i] = (struct rp_mem_changes){NULL, 0, 0, 0, -1, 0};
    if (s->changes == CHANGES_SPILL)
        spill_changes(s, i);
    else if (s->changes == CHANGES_DROP) {
        rp_bytes_free(&s->part[i].mem.changes);
        s->part[i].mem.nchanges = 0;
    }
}

static int aggregated(void *ctx, size_t i)
{
    struct sum *s = ctx;
    struct rp_agg *p = &s->part[i];
    if (!s->stream || s->part_rc[i] != RP_EXIT_OK)
        return 0;
    if (agg_merge(s->stream, p) < 0)
        s->part_rc[i] = RP_EXIT_FAILED;
    struct rp_bytes changes = p->mem.changes;
    const uint64_t n = p->mem.nchanges;
    p->mem.changes = (struct rp_bytes){0};
    rp_agg_free(p);
    p->mem.changes = changes;
    p->mem.nchanges = n;
    spill_changes(s, i);
    return 0;
}

/* An empty aggregate to merge into.  RP_EXIT_OK or RP_EXIT_FAILED. */
static int agg_start(struct rp_agg *a, unsigned need)
{
    memset(a, 0, sizeof *a);
    a->need = need;
    a->nfiles = 1;
    if (!(a->api_of_file = calloc(1, sizeof *a->api_of_file)) || !(a->gpu = rp_gpu_agg_new(1, 0, RP_GPU_ALL_DEVICES)))
        return RP_EXIT_FAILED;
    return RP_EXIT_OK;
}

/* The merge of the aggregates of inputs idx[0..n) (all inputs when idx is NULL) into a, in that order, with
 * the GPU modes of those inputs; with `memory`, the memory table's live bytes and peaks replayed across
 * them. */
static int merge_inputs(struct sum *s, const size_t *idx, size_t n, struct rp_agg *a, unsigned need, int memory)
{
    const int merged = a == s->stream; /* merged already, as the inputs were done */
    struct rp_mem_changes *ch = calloc(n ? n : 1, sizeof *ch);
    struct rp_sum_input *gin = calloc(n ? n : 1, sizeof *gin);
    int rc = ch && gin ? RP_EXIT_OK : RP_EXIT_FAILED;
    if (!merged && (rc = agg_start(a, need)) != RP_EXIT_OK) {
        free(ch);
        free(gin);
        return rc;
    }
    for (size_t k = 0; k < n && rc == RP_EXIT_OK; k++) {
        const size_t i = idx ? idx[k] : k;
        if (s->part_rc[i] != RP_EXIT_OK) {
            rc = s->part_rc[i];
            break;
        }
        if (!merged && agg_merge(a, &s->part[i]) < 0)
            rc = RP_EXIT_FAILED;
        const struct rp_memtrack *m = &s->part[i].mem;
        ch[k] = (struct rp_mem_changes){m->changes.p, m->changes.n, m->nchanges, s->in[i].clock_offset, -1, 0};
        if (merged && s->spilled[i].fd >= 0) {
            ch[k] = s->spilled[i];
            ch[k].offset = s->in[i].clock_offset;
        }
        gin[k] = s->in[i]; /* shallow: for the modes */
    }
    if (rc == RP_EXIT_OK && memory && rp_mem_replay(&a->mem, ch, n) < 0)
        rc = RP_EXIT_FAILED;
    if (rc == RP_EXIT_OK) {
        int on, sample;
        rp_gpu_modes(gin, n, &on, &sample);
        rp_gpu_agg_set_modes(a->gpu, on, sample);
    }
    if (rc == RP_EXIT_FAILED)
        fprintf(stderr, RP_PROG ": out of memory\n");
    free(ch);
    free(gin);
    return rc;
}

static void print_tables(struct rp_sum_out *o, struct rp_agg *a, unsigned sections)
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
 * aggregated on up to rp_jobs() threads and printed in order as each is done (inputs aggregated apart: their
 * aggregates merged). */
struct by_group {
    struct rp_sum_out *o;
    struct sum *s;
    struct rp_groups g;
    struct rp_spread sp;
    unsigned sections;
    struct rp_agg *a;
    int *rc;
};

static void aggregate_group(void *ctx, size_t i)
{
    struct by_group *b = ctx;
    const unsigned need = SEC_API | SEC_KERNELS | SEC_GPU_KERNELS; /* the spread takes all three */
    const struct rp_group *gr = &b->g.v[i];
    if (b->s->apart) {
        b->rc[i] = merge_inputs(b->s, gr->files, gr->nfiles, &b->a[i], need, 0);
        return;
    }
    struct rp_trace sub = b->s->tr;
    struct rp_sum_input *gin = calloc(gr->nfiles, sizeof *gin);
    if (!(sub.files = calloc(gr->nfiles, sizeof *sub.files)) || !gin) {
        free(sub.files);
        free(gin);
        fprintf(stderr, RP_PROG ": out of memory\n");
        b->rc[i] = RP_EXIT_FAILED;
        return;
    }
    for (size_t k = 0; k < gr->nfiles; k++) {
        sub.files[k] = *b->s->file[gr->files[k]]; /* shallow: a sub-trace for the merge */
        gin[k] = b->s->in[gr->files[k]];
    }
    sub.nfiles = gr->nfiles;
    int on, sample;
    rp_gpu_modes(gin, gr->nfiles, &on, &sample);
    b->rc[i] = aggregate(&sub, &b->a[i], NULL, need, RP_GPU_ALL_DEVICES, on, sample, 0);
    free(sub.files);
    free(gin);
}

static int print_group(void *ctx, size_t i)
{
    struct by_group *b = ctx;
    struct rp_agg *a = &b->a[i];
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
    rp_agg_free(a);
    return rc;
}

static int print_by_group(struct rp_sum_out *o, struct sum *s, enum rp_group_by by, unsigned sections)
{
    struct by_group b = {o, s, {0}, {0}, sections, NULL, NULL};
    int rc = RP_EXIT_OK;
    if (rp_groups_make(&b.g, s->in, s->nin, by) < 0 || rp_spread_init(&b.sp, b.g.n) < 0 ||
        !(b.a = calloc(b.g.n ? b.g.n : 1, sizeof *b.a)) || !(b.rc = calloc(b.g.n ? b.g.n : 1, sizeof *b.rc))) {
        fprintf(stderr, RP_PROG ": out of memory\n");
        free(b.a);
        rp_groups_free(&b.g);
        return RP_EXIT_FAILED;
    }
    rc = rp_parallel_ordered(b.g.n, s->apart ? 1 : rp_jobs(), &b, aggregate_group, print_group);
    if (rc == RP_EXIT_OK)
        rp_spread_print(o, &b.sp, &b.g);
    free(b.a);
    free(b.rc);
    rp_spread_free(&b.sp);
    rp_groups_free(&b.g);
    return rc;
}

/* --by device (trace files only): the GPU tables of each device's spans, and the spread of their kernels' GPU
 * time. */
static int print_by_device(struct rp_sum_out *o, struct sum *s, unsigned sections)
{
    size_t n = 0;
    int *dev = rp_gpu_devices(s->in, s->nin, &n), rc = RP_EXIT_OK, on, sample;
    struct rp_groups g = {calloc(n ? n : 1, sizeof *g.v), n};
    struct rp_spread sp;
    if (!g.v || rp_spread_init(&sp, n) < 0) {
        fprintf(stderr, RP_PROG ": out of memory\n");
        free(dev);
        free(g.v);
        return RP_EXIT_FAILED;
    }
    rp_gpu_modes(s->in, s->nin, &on, &sample);
    for (size_t i = 0; i < n && rc == RP_EXIT_OK; i++) {
        struct rp_agg a;
        rp_gpu_device_label(dev[i], g.v[i].label, sizeof g.v[i].label);
        rc = aggregate(&s->tr, &a, NULL, SEC_API | SEC_GPU_KERNELS | SEC_GPU_COPIES_TIME | SEC_GPU_COPIES_SIZE, dev[i],
                       on, sample, 0);
        if (rc == RP_EXIT_OK) {
            rc = rp_gpu_spread(a.gpu, &sp, i) < 0 ? RP_EXIT_FAILED : RP_EXIT_OK;
            o->group = g.v[i].label;
            print_tables(o, &a, sections & (SEC_GPU_KERNELS | SEC_GPU_COPIES_TIME | SEC_GPU_COPIES_SIZE));
            o->group = NULL;
        }
        rp_agg_free(&a);
    }
    if (rc == RP_EXIT_OK && n > 1)
        rp_spread_print(o, &sp, &g);
    rp_spread_free(&sp);
    free(g.v);
    free(dev);
    return rc;
}

/* All but the trace files, which sum_free closes too. */
static void sum_release(struct sum *s)
{
    for (size_t i = 0; i < s->nin; i++) {
        if ((s->apart || !s->file[i]) && s->part_rc[i] == RP_EXIT_OK) /* aggregated, or read from a partial */
            rp_agg_free(&s->part[i]);
        rp_sum_input_free(&s->in[i]);
    }
    free(s->in);
    free(s->file);
    free(s->part);
    free(s->part_rc);
    free(s->spilled);
    if (s->spill_fd >= 0)
        close(s->spill_fd);
}

static void sum_free(struct sum *s)
{
    sum_release(s);
    rp_trace_close(&s->tr);
}

/* A trace file as the next input, or in the place of a partial's input of its process given before it
 * (same_process).  0, or -1 out of memory. */
static int add_file(struct sum *s, struct rp_file *f)
{
    if (sum_grow(s) < 0 || rp_sum_input_of_file(&s->in[s->nin], f) < 0)
        return -1;
    const long same = same_process(s, &s->in[s->nin]);
    if (same == SAME_DROP) {
        rp_sum_input_free(&s->in[s->nin]);
        return 0;
    }
    const size_t at = same == SAME_NONE ? s->nin : (size_t)same;
    s->file[at] = f;
    s->part_rc[at] = RP_EXIT_OK;
    memset(&s->part[at], 0, sizeof s->part[at]);
    s->spilled[at] = (struct rp_mem_changes){NULL, 0, 0, 0, -1, 0}; /* a partial's changes spilled: not read */
    s->nin += at == s->nin;
    return 0;
}

/* The nvtx table of the inputs' ranges. */
static void print_nvtx(struct rp_sum_out *o, const struct sum *s)
{
    struct rp_named_rows rows = {0};
    int nrc = 0;
    for (size_t i = 0; i < s->nin && !nrc; i++)
        nrc = rp_named_rows_merge(&rows, &s->in[i].nvtx);
    if (nrc)
        fprintf(stderr, RP_PROG ": out of memory\n");
    else
        rp_nvtx_print(o, &rows);
    rp_named_rows_free(&rows);
}

/* Read the inputs: the trace files (pass 1, rp_trace_open), then each in the order given, a partial's files
 * in its place.  Returns RP_EXIT_OK, RP_EXIT_DAMAGED (usable), or the status to leave with. */
static int sum_open(struct sum *s, int argc, char **argv, int first)
{
    if (first >= argc)
        return rp_usage_error(&rp_cmd_summary, "no trace file given");
    if (rp_output_clash(&rp_cmd_summary, argc - first, argv + first))
        return RP_EXIT_USAGE;
    char **traces = calloc((size_t)(argc - first), sizeof *traces);
    char *is_partial = calloc((size_t)(argc - first), 1);
    size_t ntraces = 0;
    int rc = RP_EXIT_OK;
    if (!traces || !is_partial) {
        free(traces);
        free(is_partial);
        fprintf(stderr, RP_PROG ": out of memory\n");
        return RP_EXIT_FAILED;
    }
    for (int a = first; a < argc; a++)
        if (!(is_partial[a - first] = (char)rp_partial_is(argv[a])))
            traces[ntraces++] = argv[a];
    if (ntraces) {
        rc = rp_trace_open(&s->tr, traces, ntraces);
        if (rc == RP_EXIT_OK || rc == RP_EXIT_DAMAGED)
            rp_warn_incomplete(&s->tr);
    }
    free(traces);
    if (rc != RP_EXIT_OK && rc != RP_EXIT_DAMAGED) {
        free(is_partial);
        return rc;
    }
    char *used = calloc(s->tr.nfiles ? s->tr.nfiles : 1, 1);
    for (int a = first; a < argc && used && (rc == RP_EXIT_OK || rc == RP_EXIT_DAMAGED); a++) {
        if (is_partial[a - first]) {
            struct rp_sum_input *in = NULL;
            struct rp_agg *parts = NULL;
            size_t n = 0;
            int prc = rp_partial_read(argv[a], &in, &parts, &n);
            if (prc == RP_EXIT_DAMAGED)
                s->damaged = 1;
            else if (prc != RP_EXIT_OK)
                rc = prc;
            for (size_t k = 0; k < n; k++) {
                /* as the trace itself would say (and exit 3 when damaged) */
                if (rp_warn_file(stderr, in[k].path, in[k].damage, (unsigned long long)in[k].calls, in[k].has_end))
                    s->damaged = 1;
                const long same = rc == RP_EXIT_FAILED ? SAME_DROP : same_process(s, &in[k]);
                if (same == SAME_DROP) {
                    rp_sum_input_free(&in[k]);
                    rp_agg_free(&parts[k]);
                } else if (same != SAME_NONE) {
                    s->part[same] = parts[k];
                    s->part_rc[same] = RP_EXIT_OK;
                    placed(s, (size_t)same);
                } else {
                    if (sum_grow(s) < 0) {
                        fprintf(stderr, RP_PROG ": out of memory\n");
                        rp_sum_input_free(&in[k]);
                        rp_agg_free(&parts[k]);
                        rc = RP_EXIT_FAILED;
                        continue;
                    }
                    s->in[s->nin] = in[k];
                    s->file[s->nin] = NULL;
                    s->part[s->nin] = parts[k];
                    s->part_rc[s->nin] = RP_EXIT_OK;
                    placed(s, s->nin++);
                }
            }
            free(in);
            free(parts);
            continue;
        }
        /* the trace file read for this argument, unless it was left out as a copy of another */
        const char *name = strcmp(argv[a], "-") ? argv[a] : "standard input";
        for (size_t f = 0; f < s->tr.nfiles; f++)
            if (!used[f] && !strcmp(s->tr.files[f].path, name)) {
                used[f] = 1;
                if (add_file(s, &s->tr.files[f]) < 0) {
                    fprintf(stderr, RP_PROG ": out of memory\n");
                    rc = RP_EXIT_FAILED;
                }
                break;
            }
    }
    if (!used) {
        fprintf(stderr, RP_PROG ": out of memory\n");
        rc = RP_EXIT_FAILED;
    }
    free(used);
    free(is_partial);
    if (rc != RP_EXIT_OK && rc != RP_EXIT_DAMAGED)
        return rc;
    if (!s->nin) { /* every input a damaged partial */
        fprintf(stderr, RP_PROG ": no file to summarize\n");
        return s->damaged ? RP_EXIT_DAMAGED : RP_EXIT_UNREADABLE;
    }
    if (rp_sum_inputs_align(s->in, s->nin, &s->start_ns, &s->end_ns) < 0) {
        fprintf(stderr, RP_PROG ": out of memory\n");
        return RP_EXIT_FAILED;
    }
    return s->damaged ? RP_EXIT_DAMAGED : rc;
}

/* Aggregate each trace input apart (on up to rp_jobs() threads). */
static int sum_apart(struct sum *s)
{
    s->apart = 1;
    for (size_t i = 0; i < s->nin; i++)
        if (s->file[i])
            s->part_rc[i] = RP_EXIT_FAILED; /* until aggregated */
    rp_parallel_ordered(s->nin, rp_jobs(), s, aggregate_one, aggregated);
    for (size_t i = 0; i < s->nin; i++)
        if (s->part_rc[i] != RP_EXIT_OK)
            return s->part_rc[i];
    return RP_EXIT_OK;
}

/* summary --partial: every section of every input, written as a partial (doc/partials.md). */
static int write_partial(struct sum *s, const struct rp_common *co)
{
    FILE *f = rp_output_open(co);
    if (!f)
        return RP_EXIT_FAILED;
    if (rp_partial_write(f, s->in, s->part, s->nin) < 0 && !ferror(f)) {
        fprintf(stderr, RP_PROG ": out of memory\n");
        if (f != stdout)
            fclose(f);
        return RP_EXIT_FAILED;
    }
    return rp_output_close(f, co, RP_EXIT_OK);
}

int rp_summary_html(FILE *out, struct rp_trace *tr, enum rp_summary_part part, unsigned long long top)
{
    struct sum s;
    memset(&s, 0, sizeof s);
    s.spill_fd = -1;
    s.tr = *tr; /* shallow: the caller closes it */
    for (size_t f = 0; f < tr->nfiles; f++)
        if (add_file(&s, &tr->files[f]) < 0)
            goto oom;
    if (rp_sum_inputs_align(s.in, s.nin, &s.start_ns, &s.end_ns) < 0)
        goto oom;
    struct rp_sum_out o = {out, RP_FMT_HTML, &rp_timeunit_ns, top, 1, 1, s.start_ns, NULL};
    struct rp_agg a;
    int rc = RP_EXIT_OK, on, sample;
    memset(&a, 0, sizeof a);
    rp_gpu_modes(s.in, s.nin, &on, &sample);
    switch (part) {
    case RP_SUMMARY_HEADER: print_header(&o, s.in, s.nin, s.start_ns, s.end_ns); break;
    case RP_SUMMARY_BY_RANK: rc = print_by_group(&o, &s, RP_BY_RANK, 0); break; /* the spread table alone */
    case RP_SUMMARY_GPU:
        if ((rc = aggregate(&s.tr, &a, NULL, SEC_GPU, RP_GPU_ALL_DEVICES, on, sample, 0)) == RP_EXIT_OK)
            print_tables(&o, &a, SEC_GPU);
        break;
    case RP_SUMMARY_HOST:
        print_nvtx(&o, &s);
        if ((rc = aggregate(&s.tr, &a, NULL, ~0u & ~SEC_GPU, RP_GPU_ALL_DEVICES, on, sample, 0)) == RP_EXIT_OK) {
            print_tables(&o, &a, SEC_API);
            print_counted(&o, s.in, s.nin);
            print_tables(&o, &a, ~0u & ~(SEC_GPU | SEC_API));
        }
        break;
    }
    rp_agg_free(&a);
    sum_release(&s);
    return rc;
oom:
    fprintf(stderr, RP_PROG ": out of memory\n");
    sum_release(&s);
    return RP_EXIT_FAILED;
}

static int run(int argc, char **argv)
{
    static const struct option longopts[] = {
        RP_COMMON_LONGOPTS, {"top", required_argument, NULL, 't'}, {"section", required_argument, NULL, 's'},
        {"report", required_argument, NULL, 's'}, {"range", required_argument, NULL, 'r'},
        {"by", required_argument, NULL, 'b'}, {"partial", no_argument, NULL, 'P'}, {NULL, 0, NULL, 0}};
    struct rp_common co;
    unsigned long long top = 0;
    unsigned sections = ~0u;
    const char *range = NULL;
    int by = -1, opt, partial = 0;
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
        case 'P': partial = 1; break;
        default: return rp_usage_hint(&rp_cmd_summary);
        }
    }
    if (by >= 0 && range)
        return rp_usage_error(&rp_cmd_summary, "--by and --range cannot be combined");
    if (partial && (by >= 0 || range || sections != ~0u || top || co.format >= 0))
        return rp_usage_error(&rp_cmd_summary, "--partial keeps every section of every file: it takes no --by, "
                              "--range, --section, --top or --format");
    struct sum s;
    memset(&s, 0, sizeof s);
    s.spill_fd = -1;
    s.need = partial ? ~0u : sections;
    s.changes = partial ? CHANGES_KEEP : by < 0 && (sections & SEC_MEMORY) ? CHANGES_SPILL : CHANGES_DROP;
    int rc = sum_open(&s, argc, argv, optind);
    if ((rc != RP_EXIT_OK && rc != RP_EXIT_DAMAGED) || !s.nin) {
        sum_free(&s);
        return rc;
    }
    int partials = 0; /* some input is a partial's (one may have taken a trace's place: the fuller copy) */
    for (size_t i = 0; i < s.nin; i++)
        partials |= !s.file[i];
    if (partials && (range || by == RP_BY_DEVICE)) {
        sum_free(&s);
        return rp_usage_error(&rp_cmd_summary, "%s needs the calls: it reads trace files, not partials",
                              range ? "--range" : "--by device");
    }
    struct rp_agg a;
    memset(&a, 0, sizeof a);
    struct rp_range_filter rf = {0};
    FILE *f = NULL;
    int arc = RP_EXIT_OK;
    /* Apart: for partials, and with -j for a plain summary (--by aggregates its groups on the threads
     * instead, each in time order, and needs no file's memory changes). */
    if (partial || partials || (rp_jobs() > 1 && !range && by < 0 && s.nin > 1)) {
        if (!partial && by >= 0)
            s.need = SEC_API | SEC_KERNELS | SEC_GPU_KERNELS; /* what the groups' tables and spread take */
        if (!partial && by < 0 && (arc = agg_start(&a, sections)) == RP_EXIT_OK)
            s.stream = &a; /* memory bounded by one aggregate and the inputs being read */
        if (arc == RP_EXIT_OK)
            arc = sum_apart(&s);
    }
    if (arc == RP_EXIT_OK && partial) {
        arc = write_partial(&s, &co);
        sum_free(&s);
        return arc != RP_EXIT_OK ? arc : rc;
    }
    if (arc != RP_EXIT_OK) {
        rc = arc;
        goto out;
    }
    if (range && rp_range_filter_init(&rf, &s.tr, range) < 0) {
        rc = RP_EXIT_FAILED;
        goto out;
    }
    if (range && rf.ranges == 0)
        fprintf(stderr, RP_PROG ": warning: no NVTX range '%s' in the trace: no call is summarized\n", range);
    if (by < 0) {
        int on, sample;
        rp_gpu_modes(s.in, s.nin, &on, &sample);
        arc = s.apart ? merge_inputs(&s, NULL, s.nin, &a, sections, (sections & SEC_MEMORY) != 0)
                      : aggregate(&s.tr, &a, range ? &rf : NULL, sections, RP_GPU_ALL_DEVICES, on, sample, 0);
    }
    if (arc != RP_EXIT_OK) {
        rc = arc;
        goto out;
    }
    if (!(f = rp_output_open(&co))) {
        rc = RP_EXIT_FAILED;
        goto out;
    }
    struct rp_sum_out o = {f, co.format >= 0 ? (enum rp_format)co.format : rp_format_default(f), &co.unit, top, 1, 0,
                           s.start_ns, NULL};
    o.labelled = (sections & (sections - 1)) != 0 || (sections & SEC_KERNELS) || by >= 0 ||
                 ((sections & SEC_API) && any_counted(s.in, s.nin)); /* the api section then has two tables */
    if (sections & SEC_HEADER)
        print_header(&o, s.in, s.nin, s.start_ns, s.end_ns);
    if (sections & SEC_NVTX)
        print_nvtx(&o, &s);
    if (by == RP_BY_DEVICE)
        arc = print_by_device(&o, &s, sections);
    else if (by >= 0)
        arc = print_by_group(&o, &s, (enum rp_group_by)by, sections);
    else
        print_tables(&o, &a, sections);
    if (sections & SEC_API)
        print_counted(&o, s.in, s.nin);
    if (o.fmt == RP_FMT_JSON)
        fputs(o.first ? "{}\n" : "}\n", f);
    rc = rp_output_close(f, &co, arc != RP_EXIT_OK ? arc : rc);
out:
    rp_range_filter_free(&rf);
    rp_agg_free(&a);
    sum_free(&s);
    return rc;
}

const struct rp_command rp_cmd_summary = {
    "summary", "tables of API calls, kernels, copies, GPU time, memory and errors (as nsys stats)",
    "Usage: " RP_PROG " summary [OPTION]... FILE...\n"
    "Summarize one or more trace files or summary partials (--partial), merged (a parent and its\n"
    "children, several ranks).  A file without an END record (a process killed, crashed, or\n"
    "ended by _exit) is reported with a warning on stderr and named in the header's Incomplete\n"
    "row.\n"
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
    "  -t, --top=N          at most N rows per table (Time (%) is still of all rows; 0: all)\n"
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
    "      --partial        write, instead of tables, the summary's state of the files: a partial\n"
    "                       (doc/partials.md) that summary reads again in place of the files,\n"
    "                       alone or with other partials and traces, printing what the traces\n"
    "                       would; every section, no --by, --range, --section, --top or\n"
    "                       --format.  Other commands refuse a partial (exit 2); so do --range\n"
    "                       and --by device (exit 1), which need the calls\n"
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
    "Exit status: 0 ok, 1 usage, 2 a file is missing, unreadable, not a trace or partial or of\n"
    "an unsupported format version (nothing printed), 3 a file is truncated or corrupt (the\n"
    "records before the damage are reported, with a warning; a damaged partial is left out\n"
    "whole), 4 out of memory or output error.\n",
    run,
};
