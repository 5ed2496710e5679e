/* The trace as a SQLite database (doc/exports.md lists the tables and the nsys export tables they match):
 * one row per process, thread, device, call, launch, copy or set, allocation, free, memory change, GPU
 * span, stack and frame, names in a table of strings.  Calls are numbered in time order (api_calls.id) and
 * the tables of a family are keyed by that number (call_id).
 *
 * Speed: everything goes in one transaction through prepared statements, with no journal and no syncs (a
 * failed export leaves no file: it is written under another name and renamed at the end), and the indexes
 * are built after the rows, which is cheaper than keeping them up to date row by row.  Memory: SQLite's
 * page cache (bounded below), the strings and the allocations live at once; nothing per call. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "format/enum_names.h"
#include "report/model/args.h"
#include "report/model/display_names.h"
#include "report/export/export.h"
#include "report/model/memory.h"
#include "report/model/frames.h"
#include "report/symbols/symbolize.h"

static const char schema[] =
    "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA locking_mode=EXCLUSIVE;"
    "PRAGMA cache_size=-65536;" /* KiB: the page cache, the export's memory */
    "BEGIN;"
    "CREATE TABLE processes (id INTEGER PRIMARY KEY, pid INT, ppid INT, host TEXT, command_line TEXT,"
    " rank INT, file TEXT, start_wall_ns INT, start INT, tracer_version TEXT, format_version INT,"
    " driver_version INT, calls INT, lost INT, untraced INT, complete INT);"
    "CREATE TABLE devices (process_id INT, ordinal INT, name TEXT, total_mem INT, uuid TEXT);"
    "CREATE TABLE threads (process_id INT, tid INT, name TEXT, calls INT, PRIMARY KEY (process_id, tid));"
    "CREATE TABLE strings (id INTEGER PRIMARY KEY, value TEXT NOT NULL);"
    "CREATE TABLE results (value INTEGER PRIMARY KEY, name TEXT);"
    "CREATE TABLE api_calls (id INTEGER PRIMARY KEY, process_id INT, tid INT, seq INT, start INT, end INT,"
    " duration INT, function_id INT, variant_id INT, result INT, stack_id INT);"
    "CREATE TABLE launches (call_id INTEGER PRIMARY KEY, kernel_id INT, kind TEXT, grid_x INT, grid_y INT,"
    " grid_z INT, block_x INT, block_y INT, block_z INT, cluster_x INT, cluster_y INT, cluster_z INT,"
    " shared_mem INT, stream INT, function INT);"
    "CREATE TABLE copies (call_id INTEGER PRIMARY KEY, operation_id INT, bytes INT, src INT, dst INT,"
    " src_kind TEXT, dst_kind TEXT, flags TEXT, stream INT, width INT, height INT, depth INT,"
    " src_device INT, dst_device INT);"
    "CREATE TABLE allocations (call_id INTEGER PRIMARY KEY, address INT, bytes INT, kind TEXT,"
    " device_memory INT, device INT, stream INT);"
    "CREATE TABLE frees (call_id INTEGER PRIMARY KEY, address INT, kind TEXT, stream INT,"
    " allocation_call_id INT);"
    "CREATE TABLE memory_usage (call_id INTEGER PRIMARY KEY, process_id INT, time INT, device_bytes INT);"
    "CREATE TABLE gpu_spans (call_id INT, start INT, end INT, duration INT, device INT,"
    " stream INT, kind TEXT, name_id INT, weight INT);"
    "CREATE INDEX gpu_spans_call ON gpu_spans (call_id);"
    "CREATE TABLE gpu_info (process_id INTEGER PRIMARY KEY, mode TEXT, sample_n INT, sample_k INT,"
    " final INT, timed INT, not_completed INT, untimed_pool INT, untimed_refused INT, untimed_capture INT,"
    " source TEXT, reason TEXT, requested TEXT, source_start INT, no_call INT, dropped INT);"
    "CREATE TABLE nvtx_events (process_id INT, tid INT, start INT, end INT, event_type INT, text_id INT,"
    " domain_id INT, category INT, category_id INT, color INT, depth INT);"
    "CREATE TABLE stacks (process_id INT, stack_id INT, frames INT, PRIMARY KEY (process_id, stack_id));"
    "CREATE TABLE frames (process_id INT, stack_id INT, level INT, address INT, function TEXT, offset INT,"
    " module TEXT, file TEXT, line INT, inlined INT, text TEXT, PRIMARY KEY (process_id, stack_id, level));"
    "CREATE VIEW calls AS SELECT c.id, c.process_id, p.pid, c.tid, c.seq, c.start, c.end, c.duration,"
    " f.value AS function, v.value AS variant, c.result, r.name AS result_name, c.stack_id"
    " FROM api_calls c JOIN processes p ON p.id = c.process_id JOIN strings f ON f.id = c.function_id"
    " JOIN strings v ON v.id = c.variant_id LEFT JOIN results r ON r.value = c.result;";

static const char indexes[] =
    "CREATE INDEX api_calls_function ON api_calls (function_id);"
    "CREATE INDEX api_calls_thread ON api_calls (process_id, tid);"
    "CREATE INDEX launches_kernel ON launches (kernel_id);"
    "CREATE INDEX allocations_address ON allocations (address);"
    "CREATE INDEX frees_allocation ON frees (allocation_call_id);"
    "COMMIT;";

/* The prepared inserts, one per table that takes rows while streaming. */
enum { I_CALL, I_LAUNCH, I_COPY, I_ALLOC, I_FREE, I_MEM, I_GPU, I_STRING, I_RESULT, I_PROCESS, I_DEVICE,
       I_THREAD, I_GPU_INFO, I_NVTX, I_STACK, I_FRAME, NINSERTS };
static const char *const inserts[NINSERTS] = {
    [I_CALL] = "INSERT INTO api_calls VALUES (?,?,?,?,?,?,?,?,?,?,?)",
    [I_LAUNCH] = "INSERT INTO launches VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
    [I_COPY] = "INSERT INTO copies VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
    [I_ALLOC] = "INSERT INTO allocations VALUES (?,?,?,?,?,?,?)",
    [I_FREE] = "INSERT INTO frees VALUES (?,?,?,?,?)",
    [I_MEM] = "INSERT INTO memory_usage VALUES (?,?,?,?)",
    [I_GPU] = "INSERT INTO gpu_spans VALUES (?,?,?,?,?,?,?,?,?)",
    [I_STRING] = "INSERT INTO strings VALUES (?,?)",
    [I_RESULT] = "INSERT INTO results VALUES (?,?)",
    [I_PROCESS] = "INSERT INTO processes VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
    [I_DEVICE] = "INSERT INTO devices VALUES (?,?,?,?,?)",
    [I_THREAD] = "INSERT INTO threads VALUES (?,?,?,?)",
    [I_GPU_INFO] = "INSERT INTO gpu_info VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
    [I_NVTX] = "INSERT INTO nvtx_events VALUES (?,?,?,?,?,?,?,?,?,?,?)",
    [I_STACK] = "INSERT INTO stacks VALUES (?,?,?)",
    [I_FRAME] = "INSERT INTO frames VALUES (?,?,?,?,?,?,?,?,?,?,?)",
};

struct db {
    sqlite3 *db;
    sqlite3_stmt *st[NINSERTS];
    int failed;
    struct rp_strmap strings;   /* value -> id */
    struct rp_u64map apis;      /* (api id, file) -> (function id, variant id) */
    struct rp_u64map kernels;   /* (name id, file) -> string id */
    struct rp_u64map results;   /* results seen */
    struct rp_u64map live;      /* (address, file and name space) -> the allocating call's id */
    struct rp_kernel_names k;
};

/* Bind values to statement i in order, step it, reset it.  Each value: 'i' int64, 'z' int64 with 0 as SQL
 * NULL (unknown), 'N' int64 with a negative value as SQL NULL (not known: a rank), 'u' uint64 (stored as its
 * int64 bits: SQLite integers are signed), 't' text (NULL: SQL NULL), 'n' SQL NULL (takes no argument). */
static void row(struct db *d, int i, const char *types, ...)
{
    sqlite3_stmt *s = d->st[i];
    va_list ap;
    va_start(ap, types);
    for (int k = 0; types[k]; k++) {
        const char *txt;
        switch (types[k]) {
        case 'i': sqlite3_bind_int64(s, k + 1, va_arg(ap, int64_t)); break;
        case 'z':
        case 'N': {
            int64_t v = va_arg(ap, int64_t);
            if (types[k] == 'z' ? v != 0 : v >= 0)
                sqlite3_bind_int64(s, k + 1, v);
            else
                sqlite3_bind_null(s, k + 1);
            break;
        }
        case 'u': sqlite3_bind_int64(s, k + 1, (sqlite3_int64)va_arg(ap, uint64_t)); break;
        case 't':
            txt = va_arg(ap, const char *);
            if (txt)
                sqlite3_bind_text(s, k + 1, txt, -1, SQLITE_STATIC);
            else
                sqlite3_bind_null(s, k + 1);
            break;
        default: sqlite3_bind_null(s, k + 1);
        }
    }
    va_end(ap);
    if (sqlite3_step(s) != SQLITE_DONE && !d->failed) {
        fprintf(stderr, "cudatrace-report: sqlite: %s\n", sqlite3_errmsg(d->db));
        d->failed = 1;
    }
    sqlite3_reset(s);
}

/* The id of a string in the strings table, inserted the first time; 0 when out of memory. */
static int64_t string_id(struct db *d, const char *v)
{
    size_t id = rp_strmap_get(&d->strings, v);
    if (id != (size_t)-1)
        return (int64_t)id;
    id = d->strings.n + 1;
    if (rp_strmap_put(&d->strings, v, id) < 0)
        return 0;
    row(d, I_STRING, "it", (int64_t)id, v);
    return (int64_t)id;
}

static void process_rows(struct db *d, const struct rp_trace *t)
{
    for (size_t i = 0; i < t->nfiles; i++) {
        const struct rp_file *f = &t->files[i];
        const int64_t pid = (int64_t)i + 1;
        char tv[17];
        memcpy(tv, f->hdr.tracer_version, 16);
        tv[16] = '\0';
        row(d, I_PROCESS, "iiittNtiitiiiiii", pid, (int64_t)f->hdr.pid, (int64_t)f->hdr.ppid, f->host, f->cmdline,
            (int64_t)f->rank.rank, f->path, f->hdr.start_wall_ns, f->hdr.start_mono_ns + f->clock_offset - t->start_ns,
            tv, (int64_t)f->hdr.format_version, (int64_t)f->driver_version, (int64_t)f->calls, (int64_t)f->lost,
            (int64_t)f->untraced, (int64_t)(f->has_end && f->status == CT_READ_OK));
        for (size_t j = 0; j < f->ndevices; j++) {
            char uuid[33];
            for (int b = 0; b < 16; b++)
                snprintf(uuid + 2 * b, 3, "%02x", f->devices[j].uuid[b]);
            row(d, I_DEVICE, "iitut", pid, (int64_t)f->devices[j].ordinal, f->devices[j].name,
                f->devices[j].total_mem, uuid);
        }
        for (size_t j = 0; j < f->nthreads; j++)
            row(d, I_THREAD, "iitu", pid, (int64_t)f->threads[j].tid, rp_file_string(f, f->threads[j].name_id),
                f->threads[j].calls);
        if (f->has_gpu_info) {
            const struct ct_gpu_info *g = &f->gpu_info;
            row(d, I_GPU_INFO, "ituuiuuuuutttiuu", pid, ct_name_gpu_mode(g->mode), (uint64_t)g->sample_n,
                (uint64_t)g->sample_k, (int64_t)g->final, g->timed, g->not_completed, g->untimed_pool,
                g->untimed_refused, g->untimed_capture, ct_name_gpu_source(g->source), ct_name_gpu_why(g->why),
                ct_name_gpu_request(g->request),
                g->source_ns ? (int64_t)g->source_ns + f->clock_offset - t->start_ns : 0, g->no_call, g->dropped);
        }
    }
}

/* Every NVTX range and mark, a row each, shaped after nsys's NVTX_EVENTS: its eventType numbers (34 a mark,
 * 59 a push/pop range, 60 a start/end range), end NULL for a mark, the message, domain and category names
 * as string ids (NULL: none, the default domain), the color NULL when none was given. */
static void nvtx_rows(struct db *d, const struct rp_trace *t)
{
    static const int64_t event_type[] = {[RP_NVTX_PUSHPOP] = 59, [RP_NVTX_STARTEND] = 60, [RP_NVTX_MARK] = 34};
    for (size_t i = 0; i < t->nfiles && !d->failed; i++) {
        const struct rp_file *f = &t->files[i];
        for (size_t j = 0; j < f->nvtx.n && !d->failed; j++) {
            const struct rp_nvtx_range *r = &f->nvtx.r[j];
            const char *text = rp_file_string(f, r->name_id);
            const char *domain = rp_file_string(f, rp_nvtx_domain_name(&f->nvtx, r->domain));
            const char *cat = rp_file_string(f, rp_nvtx_category_name(&f->nvtx, r->domain, r->category));
            const int64_t t0 = (int64_t)r->t0 + f->clock_offset - t->start_ns;
            const int64_t t1 = (int64_t)r->t1 + f->clock_offset - t->start_ns;
            row(d, I_NVTX, "iiizizzizzi", (int64_t)i + 1, (int64_t)r->tid,
                t0, (int64_t)(r->style == RP_NVTX_MARK ? 0 : t1), event_type[r->style],
                text ? string_id(d, text) : 0, domain && *domain ? string_id(d, domain) : 0, (int64_t)r->category,
                cat && *cat ? string_id(d, cat) : 0, (int64_t)(r->has_color ? r->color : 0), (int64_t)r->depth);
        }
    }
}

/* Every stack of every file, one row per frame level as the stacks report shows them (an inlined function
 * is a level of its own, before the frame it is in). */
static void stack_rows(struct db *d, const struct rp_trace *t)
{
    char text[1024];
    for (size_t i = 0; i < t->nfiles; i++) {
        const struct rp_stacktab *st = &t->files[i].stacks;
        for (size_t s = 0; s < st->n; s++) {
            const struct rp_stack *k = &st->stacks[s];
            int64_t level = 0;
            for (unsigned f = 0; f < k->nframes; f++) {
                const struct rp_frame *fr = &k->frames[f];
                for (unsigned l = 0; l <= fr->ninlined; l++, level++) {
                    const int inl = l < fr->ninlined;
                    const struct rp_inlined *in = inl ? &fr->inlined[l] : NULL;
                    row(d, I_FRAME, "iiiutzttzit", (int64_t)i + 1, (int64_t)k->id, level, fr->addr,
                        inl ? in->function : fr->function, inl ? 0 : (int64_t)fr->offset,
                        fr->module ? fr->module->path : NULL, inl ? in->srcfile : fr->srcfile,
                        (int64_t)(inl ? in->line : fr->line), (int64_t)inl, rp_frame_text(fr, l, text, sizeof text));
                }
            }
            row(d, I_STACK, "iii", (int64_t)i + 1, (int64_t)k->id, level);
        }
    }
}

/* A call's row; its function, variant and result names go in once each. */
static void call_row(struct db *d, const struct rp_call *c, int64_t id, int64_t start)
{
    const uint16_t api = c->call->c.api_id;
    struct rp_u64map_entry *e = rp_u64map_get(&d->apis, api, c->file_index);
    if (!e) {
        char name[256];
        int64_t fn = string_id(d, rp_call_api_name(c, name, sizeof name)), var = string_id(d, rp_call_variant(c));
        if (!fn || !var || !(e = rp_u64map_put(&d->apis, api, c->file_index, (uint64_t)fn, (uint64_t)var))) {
            d->failed = -1;
            return;
        }
    }
    const int32_t result = c->call->c.result;
    if (!rp_u64map_get(&d->results, (uint32_t)result, 0)) {
        char buf[48];
        if (!rp_u64map_put(&d->results, (uint32_t)result, 0, 0, 0)) {
            d->failed = -1;
            return;
        }
        row(d, I_RESULT, "it", (int64_t)result, rp_result_name(result, buf, sizeof buf));
    }
    row(d, I_CALL, "iiiuiiiuuii", id, (int64_t)c->file_index + 1, (int64_t)c->call->c.h.tid, c->call->c.seq,
        c->t0 - start, c->t1 - start, c->t1 - c->t0, e->v1, e->v2, (int64_t)result, (int64_t)c->call->c.stack_id);
}

static int64_t kernel_id(struct db *d, const struct rp_call *c)
{
    const uint32_t name = c->call->pl.launch.name_id;
    const uint64_t key = (uint64_t)c->file_index << 8 | (c->call->pl.launch.kind & 0xff); /* unnamed: by kind */
    struct rp_u64map_entry *e = rp_u64map_get(&d->kernels, name, key);
    if (e)
        return (int64_t)e->v1;
    const char *kn = rp_kernel_name(&d->k, c);
    int64_t id = kn ? string_id(d, kn) : 0;
    if (!id || !rp_u64map_put(&d->kernels, name, key, (uint64_t)id, 0))
        return 0;
    return id;
}

static void payload_row(struct db *d, const struct rp_call *c, int64_t id)
{
    const union ct_payload *p = &c->call->pl;
    const int ok = c->call->c.result == 0;
    switch (c->call->family) {
    case CT_FAM_LAUNCH: {
        const struct ct_pl_launch *l = &p->launch;
        row(d, I_LAUNCH, "iitiiiiiiiiiiuu", id, kernel_id(d, c), rp_launch_kind_name(l->kind), (int64_t)l->grid[0],
            (int64_t)l->grid[1], (int64_t)l->grid[2], (int64_t)l->block[0], (int64_t)l->block[1],
            (int64_t)l->block[2], (int64_t)l->cluster[0], (int64_t)l->cluster[1], (int64_t)l->cluster[2],
            (int64_t)l->shared_mem, l->stream, l->function);
        break;
    }
    case CT_FAM_COPY: {
        const struct ct_pl_copy *k = &p->copy;
        char fl[64];
        row(d, I_COPY, "iiuuutttuuuuii", id, string_id(d, rp_copy_operation(k->flags, k->src_kind, k->dst_kind)),
            k->bytes, k->src, k->dst, rp_mem_kind_name(k->src_kind), rp_mem_kind_name(k->dst_kind),
            rp_copy_flags(k->flags, fl, sizeof fl), k->stream, k->width, k->height, k->depth,
            (int64_t)k->src_device, (int64_t)k->dst_device);
        break;
    }
    case CT_FAM_ALLOC: {
        const struct ct_pl_alloc *a = &p->alloc;
        row(d, I_ALLOC, "iuutiiu", id, a->address, a->bytes, rp_mem_kind_name(a->kind),
            (int64_t)rp_mem_kind_on_device(a->kind), (int64_t)a->device, a->stream);
        const uint64_t key = (uint64_t)c->file_index << 2 | rp_mem_space(a->kind);
        if (ok && !rp_u64map_put(&d->live, a->address, key, (uint64_t)id, 0))
            d->failed = -1;
        break;
    }
    case CT_FAM_FREE: {
        const struct ct_pl_free *f = &p->free;
        struct rp_u64map_entry *e =
            ok && f->address ? rp_u64map_get(&d->live, f->address, (uint64_t)c->file_index << 2 | rp_mem_space(f->kind))
                             : NULL;
        if (e) {
            row(d, I_FREE, "iutui", id, f->address, rp_mem_kind_name(f->kind), f->stream, (int64_t)e->v1);
            rp_u64map_remove(&d->live, e);
        } else {
            row(d, I_FREE, "iutun", id, f->address, rp_mem_kind_name(f->kind), f->stream);
        }
        break;
    }
    }
}

/* Span i of call id: a row each (a graph timed by CUPTI has one per kernel, copy and set); weight: the calls
 * it stands for (a sampled one, CT_GPU_SPAN_SAMPLED: the file's sample_n; else 1). */
static void gpu_row(struct db *d, const struct rp_call *c, size_t i, int64_t id, int64_t start)
{
    char buf[64];
    const struct rp_gpu_span *sp = &c->gpu[i];
    const char *name = rp_gpu_span_name(&d->k, c, i, buf, sizeof buf);
    const int64_t t0 = (int64_t)sp->start_ns + c->file->clock_offset, t1 = (int64_t)sp->end_ns + c->file->clock_offset;
    const uint64_t weight = sp->flags & CT_GPU_SPAN_SAMPLED && c->file->has_gpu_info ? c->file->gpu_info.sample_n : 1;
    row(d, I_GPU, "iiiiiutiu", id, t0 - start, t1 - start, t1 - t0, (int64_t)sp->device, sp->stream,
        rp_gpu_work_kinds[rp_gpu_span_kind(c, i)], name ? string_id(d, name) : 0, weight);
}

static int exec(struct db *d, const char *sql)
{
    char *err = NULL;
    if (sqlite3_exec(d->db, sql, NULL, NULL, &err) != SQLITE_OK) {
        fprintf(stderr, "cudatrace-report: sqlite: %s\n", err ? err : sqlite3_errmsg(d->db));
        sqlite3_free(err);
        return -1;
    }
    return 0;
}

static int fill(struct db *d, struct rp_trace *t)
{
    if (exec(d, schema) < 0)
        return -1;
    for (int i = 0; i < NINSERTS; i++)
        if (sqlite3_prepare_v2(d->db, inserts[i], -1, &d->st[i], NULL) != SQLITE_OK) {
            fprintf(stderr, "cudatrace-report: sqlite: %s\n", sqlite3_errmsg(d->db));
            return -1;
        }
    if (rp_symbolize(t) < 0)
        return -1;
    process_rows(d, t);
    nvtx_rows(d, t);
    stack_rows(d, t);
    struct rp_merge *m = rp_merge_begin(t);
    struct rp_memtrack *mem = calloc(t->nfiles, sizeof *mem);
    int rc = m && mem ? 0 : -1;
    int64_t id = 0;
    for (const struct rp_call *c; rc == 0 && !d->failed && (c = rp_merge_next(m));) {
        call_row(d, c, ++id, t->start_ns);
        payload_row(d, c, id);
        for (size_t i = 0; c->gpu && i < c->ngpu; i++)
            gpu_row(d, c, i, id, t->start_ns);
        struct rp_memtrack *mt = &mem[c->file_index];
        if (rp_memtrack_call(mt, c))
            row(d, I_MEM, "iiiu", id, (int64_t)c->file_index + 1, c->t1 - t->start_ns, mt->device.live_bytes);
        if (mt->oom)
            rc = -1;
    }
    if (rc == 0 && m && rp_merge_failed(m))
        rc = RP_EXIT_UNREADABLE;
    rp_memtracks_free(mem, t->nfiles);
    rp_merge_end(m);
    if (d->failed < 0 || rc < 0)
        fprintf(stderr, "cudatrace-report: out of memory\n");
    if (rc == 0 && d->failed)
        rc = d->failed < 0 ? -1 : RP_EXIT_FAILED;
    return rc == 0 ? exec(d, indexes) : rc;
}

/* The database is written as PATH.partial-PID-N, a name made here and created exclusively (so never through
 * a symlink, and never over a file that is there), then renamed to PATH.  NULL, with a message, when it
 * cannot be made. */
static char *create_partial(const char *path)
{
    for (unsigned n = 0;; n++) {
        char *tmp;
        if (asprintf(&tmp, "%s.partial-%ld-%u", path, (long)getpid(), n) < 0) {
            fprintf(stderr, "cudatrace-report: out of memory\n");
            return NULL;
        }
        int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644); /* SQLite's own mode */
        if (fd >= 0) {
            close(fd);
            return tmp;
        }
        if (errno != EEXIST || n == 99) { /* 100 names taken: something is wrong there */
            fprintf(stderr, "cudatrace-report: cannot create %s for the database: %s\n", tmp, strerror(errno));
            free(tmp);
            return NULL;
        }
        free(tmp);
    }
}

/* PATH may be replaced: absent, or a regular file (not a device, a directory or a symlink, which rename
 * would replace by the database). */
static int replaceable(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0 || S_ISREG(st.st_mode))
        return 1;
    fprintf(stderr, "cudatrace-report: %s is not a regular file: the database is written to a new file or over a "
                    "regular one\n", path);
    return 0;
}

#ifndef SQLITE_OPEN_NOFOLLOW
#define SQLITE_OPEN_NOFOLLOW 0 /* before SQLite 3.31: create_partial's file is trusted alone */
#endif

int rp_export_sqlite(const char *path, struct rp_trace *t)
{
    if (!replaceable(path))
        return RP_EXIT_FAILED;
    char *tmp = create_partial(path);
    if (!tmp)
        return RP_EXIT_FAILED;
    struct db d = {0};
    int rc;
    if (sqlite3_open_v2(tmp, &d.db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOFOLLOW, NULL) != SQLITE_OK) {
        fprintf(stderr, "cudatrace-report: %s: %s\n", tmp, d.db ? sqlite3_errmsg(d.db) : "cannot open");
        rc = RP_EXIT_FAILED;
    } else {
        rc = fill(&d, t);
    }
    for (int i = 0; i < NINSERTS; i++)
        sqlite3_finalize(d.st[i]);
    if (sqlite3_close(d.db) != SQLITE_OK && rc == 0)
        rc = RP_EXIT_FAILED;
    if (rc == 0 && rename(tmp, path) != 0) {
        fprintf(stderr, "cudatrace-report: %s: %s\n", path, strerror(errno));
        rc = RP_EXIT_FAILED;
    }
    if (rc != 0)
        unlink(tmp);
    free(tmp);
    rp_strmap_free(&d.strings);
    rp_u64map_free(&d.apis);
    rp_u64map_free(&d.kernels);
    rp_u64map_free(&d.results);
    rp_u64map_free(&d.live);
    rp_kernel_names_free(&d.k);
    return rc;
}
