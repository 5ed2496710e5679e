#include "config.h"

#include "report/model/trace.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format/grow.h"
#include "format/input.h"
#include "format/merge.h"
#include "report/model/parallel.h"

#define PROG "cudatrace-report"

/* A CT_REC_THREAD seen in pass 1: applied to the file's threads once they are known. */
struct named {
    uint32_t tid, name_id;
};

static char *joined_cmdline(const char *p, size_t len)
{
    char *s = malloc(len + 1);
    if (!s)
        return NULL;
    memcpy(s, p, len);
    while (len && s[len - 1] == '\0') /* the trailing NUL(s) of the last argument */
        len--;
    for (size_t i = 0; i < len; i++)
        if (s[i] == '\0')
            s[i] = ' ';
    s[len] = '\0';
    return s;
}

/* Growth state of pass 1's arrays. */
struct pass1 {
    size_t dcap, ucap, ccap;
    struct named *named;
    size_t nnamed, ncap;
};

/* The entry of `id` in a list of counts, appended with count 0 on first sight; NULL when out of memory. */
static struct rp_id_count *id_count(struct rp_id_count **v, size_t *n, size_t *cap, uint32_t id)
{
    for (size_t i = 0; i < *n; i++)
        if ((*v)[i].id == id)
            return &(*v)[i];
    struct rp_id_count *g = ct_grow(*v, cap, *n + 1, sizeof *g);
    if (!g)
        return NULL;
    *v = g;
    g[*n] = (struct rp_id_count){id, 0};
    return &g[(*n)++];
}

static int take_record(struct rp_file *f, const struct ct_reader *rd, const struct ct_rec_hdr *h, struct pass1 *p1)
{
    const unsigned file_type = ct_reader_file_type(rd);
    unsigned slot = file_type <= CT_REC_TYPE_LAST ? file_type : CT_REC_TYPE_LAST + 1;
    f->rec_count[slot]++;
    if (ct_names_add(f->names, h) < 0)
        return -1;

    switch (h->type) {
    case CT_REC_CALL: { /* decoded (format/decoder.h): times in ns */
        const struct ct_rec_call *c = (const void *)h;
        f->calls++;
        if (c->t0_ns < f->first_t0)
            f->first_t0 = c->t0_ns;
        if (c->t1_ns > f->last_t1 || f->last_t1 == 0)
            f->last_t1 = c->t1_ns;
        return 0;
    }
    case CT_REC_PROCESS: {
        const struct ct_process p = *ct_reader_process(rd);
        char *host = strndup(p.host, p.host_len), *cmd = joined_cmdline(p.cmdline, p.cmdline_len);
        free(f->host);
        free(f->cmdline);
        f->host = host;
        f->cmdline = cmd;
        f->argc = p.argc;
        return host && cmd ? 0 : -1;
    }
    case CT_REC_THREAD: {
        const struct ct_thread_name t = *ct_reader_thread(rd);
        struct named *n = ct_grow(p1->named, &p1->ncap, p1->nnamed + 1, sizeof *n);
        if (!n)
            return -1;
        p1->named = n;
        n[p1->nnamed++] = (struct named){t.tid, t.name_id};
        return 0;
    }
    case CT_REC_NVTX:
        return rp_nvtx_add(&f->nvtx, ct_reader_nvtx(rd));
    case CT_REC_NVTX_NAME:
        return rp_nvtx_add_name(&f->nvtx, ct_reader_nvtx_name(rd));
    case CT_REC_RANK:
        f->rank = *ct_reader_rank(rd);
        return 0;
    case CT_REC_LOST: {
        const struct ct_rec_lost *r = (const void *)h;
        f->lost += r->count;
        f->lost_by_reason[r->reason <= CT_LOST_NESTED ? r->reason : 0] += r->count;
        return 0;
    }
    case CT_REC_DRIVER: {
        const struct ct_rec_driver *r = (const void *)h;
        f->driver_version = r->driver_version;
        f->device_count = r->device_count;
        return 0;
    }
    case CT_REC_DEVICE: {
        const struct ct_rec_device *r = (const void *)h;
        struct rp_device *d = ct_grow(f->devices, &p1->dcap, f->ndevices + 1, sizeof *d);
        if (!d)
            return -1;
        f->devices = d;
        d = &f->devices[f->ndevices++];
        d->ordinal = r->ordinal;
        d->total_mem = r->total_mem;
        memcpy(d->uuid, r->uuid, sizeof d->uuid);
        memcpy(d->name, r->name, sizeof r->name);
        d->name[sizeof r->name] = '\0';
        return 0;
    }
    case CT_REC_UNTRACED: {
        const struct ct_rec_untraced *r = (const void *)h;
        f->untraced += r->count;
        struct rp_id_count *u = id_count(&f->untraced_syms, &f->nuntraced_syms, &p1->ucap, r->name_id);
        if (!u)
            return -1;
        u->count += r->count;
        return 0;
    }
    case CT_REC_COUNTED: {
        const struct ct_counted *k = ct_reader_counted(rd);
        struct rp_id_count *c = id_count(&f->counted, &f->ncounted, &p1->ccap, k->api_id);
        if (!c)
            return -1;
        if (k->count > c->count) /* totals: the last is the largest */
            c->count = k->count;
        return 0;
    }
    case CT_REC_STACK:
    case CT_REC_PYSTACK:
    case CT_REC_MODULE:
        return rp_stacktab_add(&f->stacks, h);
    case CT_REC_GPU:
        return rp_gpu_spans_add(&f->gpu, ct_reader_gpu_span(rd));
    case CT_REC_GPU_INFO:
        f->has_gpu_info = 1;
        f->gpu_info = *ct_reader_gpu_info(rd);
        return 0;
    case CT_REC_END:
        f->has_end = 1;
        memcpy(&f->end, h, sizeof f->end);
        return 0;
    default:
        return 0;
    }
}

static int cmp_thread(const void *a, const void *b)
{
    uint32_t x = ((const struct rp_thread *)a)->tid, y = ((const struct rp_thread *)b)->tid;
    return (x > y) - (x < y);
}

/* The file's threads: those of the runs (each with its calls) and those that only have a name, by tid. */
static int make_threads(struct rp_file *f, const struct pass1 *p1)
{
    const struct ct_runs *x = f->runs;
    size_t n = x->nthreads;

    for (size_t i = 0; i < p1->nnamed; i++)
        n += !ct_runs_thread_of(x, p1->named[i].tid);
    if (!(f->threads = calloc(n ? n : 1, sizeof *f->threads)) ||
        !(f->thread_of_run = calloc(x->nthreads ? x->nthreads : 1, sizeof *f->thread_of_run)))
        return -1;
    for (size_t i = 0; i < x->nthreads; i++)
        f->threads[f->nthreads++] = (struct rp_thread){x->threads[i].tid, 0, x->threads[i].calls, x->threads[i].nruns};
    for (size_t i = 0; i < p1->nnamed; i++)
        if (!ct_runs_thread_of(x, p1->named[i].tid))
            f->threads[f->nthreads++] = (struct rp_thread){.tid = p1->named[i].tid};
    qsort(f->threads, f->nthreads, sizeof *f->threads, cmp_thread);
    size_t kept = 0; /* a thread named twice but without calls was added twice */
    for (size_t i = 0; i < f->nthreads; i++)
        if (kept == 0 || f->threads[kept - 1].tid != f->threads[i].tid)
            f->threads[kept++] = f->threads[i];
    f->nthreads = kept;
    for (size_t i = 0; i < p1->nnamed; i++) /* a later name replaces an earlier one */
        ((struct rp_thread *)rp_file_thread(f, p1->named[i].tid))->name_id = p1->named[i].name_id;
    for (size_t i = 0, j = 0; i < x->nthreads; i++) {
        while (f->threads[j].tid != x->threads[i].tid)
            j++;
        f->thread_of_run[i] = j;
    }
    return 0;
}

/* rp_file_string for rp_stacktab_add_python's name look-ups. */
static const char *string_of(const void *f, uint32_t id) { return rp_file_string(f, id); }

/* Pass 1 over one file, its messages to err. Returns RP_EXIT_*. */

static int read_file(struct rp_file *f, const char *path, FILE *err_out)
{
    memset(f, 0, sizeof *f);
    f->rank = (struct ct_rank){-1, -1, -1, CT_RANK_NONE};
    f->path = ct_input_name(path);
    f->first_t0 = UINT64_MAX;
    FILE *err = err_out;
    char msg[512];
    if ((f->fd = ct_input_open(path, msg, sizeof msg)) < 0) {
        int e = errno;
        fprintf(err, PROG ": %s%s\n", msg,
                e == EMFILE ? " (each input file needs a descriptor: raise the limit with ulimit -n)" : "");
        return RP_EXIT_UNREADABLE;
    }
    struct ct_reader *r = ct_reader_open_fd(f->fd, f->path);
    if (!r || !(f->names = ct_names_new()) || ct_reader_build_runs(r) < 0) {
        fprintf(err, PROG ": %s: out of memory\n", f->path);
        ct_reader_close(r);
        return RP_EXIT_FAILED;
    }
    enum ct_read_status st0 = ct_reader_status(r);
    char magic[RP_PARTIAL_MAGIC_LEN];
    const int got = st0 != CT_READ_OK && st0 != CT_READ_NOMEM &&
                    pread(f->fd, magic, sizeof magic, 0) == (ssize_t)sizeof magic;
    if (got && (!memcmp(magic, RP_PARTIAL_MAGIC, sizeof magic) || !memcmp(magic, RP_AN_PARTIAL_MAGIC, sizeof magic))) {
        const int an = !memcmp(magic, RP_AN_PARTIAL_MAGIC, sizeof magic);
        const char *mine = an ? "analyze" : "summary", *other = an ? "summary" : "analyze";
        fprintf(err, PROG ": %s is %s partial (%s --partial)", f->path, an ? "an analyze" : "a summary", mine);
        struct stat st;
        /* partials are recognised in regular files only: stdin and pipes are only ever traces */
        if (strcmp(path, "-") == 0 || (stat(path, &st) == 0 && !S_ISREG(st.st_mode)))
            fputs(": a partial is read from a regular file named on the command line, not from standard input or "
                  "a pipe\n", err);
        else
            fprintf(err, ", not a trace: only %s reads it (%s reads partials made by %s --partial)\n", mine, other,
                    other);
        ct_reader_close(r);
        return RP_EXIT_UNREADABLE;
    }
    if (st0 != CT_READ_OK) {
        fprintf(err, PROG ": %s\n", ct_reader_message(r));
        ct_reader_close(r);
        return st0 == CT_READ_NOMEM ? RP_EXIT_FAILED : RP_EXIT_UNREADABLE;
    }
    f->hdr = *ct_reader_header(r);

    struct pass1 p1 = {0};
    const struct ct_rec_hdr *h;
    int rc = RP_EXIT_OK;
    while ((h = ct_reader_next(r))) {
        if (take_record(f, r, h, &p1) < 0) {
            fprintf(err, PROG ": %s: out of memory\n", f->path);
            rc = RP_EXIT_FAILED;
            break;
        }
    }
    f->status = ct_reader_status(r);
    f->unknown_shapes = ct_reader_unknown_shapes(r);
    if (rc == RP_EXIT_OK && f->status == CT_READ_IO) { /* no damage to report around: nothing is reported */
        fprintf(err, PROG ": %s\n", ct_reader_message(r));
        rc = RP_EXIT_UNREADABLE;
    } else if (rc == RP_EXIT_OK && f->status != CT_READ_OK) {
        f->message = strdup(ct_reader_message(r));
        rp_warn_file(err, f->path, ct_reader_message(r), (unsigned long long)f->calls, 1);
        rc = f->status == CT_READ_NOMEM ? RP_EXIT_FAILED : RP_EXIT_DAMAGED;
    }
    f->runs = ct_reader_take_runs(r);
    ct_reader_close(r);
    rp_gpu_spans_finish(&f->gpu);
    if (rp_nvtx_finish(&f->nvtx) < 0 || rp_stacktab_add_python(&f->stacks, string_of, f) < 0) {
        fprintf(err, PROG ": %s: out of memory\n", f->path);
        rc = RP_EXIT_FAILED;
    }
    if (!f->host)
        f->host = strdup("");
    if (!f->cmdline)
        f->cmdline = strdup("");
    if (!f->host || !f->cmdline || !f->runs || make_threads(f, &p1) < 0) {
        if (rc != RP_EXIT_FAILED)
            fprintf(err, PROG ": %s: out of memory\n", f->path);
        rc = RP_EXIT_FAILED;
    }
    free(p1.named);
    return rc;
}

static void free_file(struct rp_file *f)
{
    if (f->fd >= 0)
        close(f->fd);
    ct_names_free(f->names);
    free(f->message);
    free(f->host);
    free(f->cmdline);
    free(f->devices);
    free(f->untraced_syms);
    free(f->counted);
    rp_stacktab_free(&f->stacks);
    rp_gpu_spans_free(&f->gpu);
    rp_nvtx_free(&f->nvtx);
    ct_runs_free(f->runs);
    free(f->thread_of_run);
    free(f->threads);
}

void rp_clocks_align(struct rp_clock *c, size_t n, int64_t *start_ns, int64_t *end_ns)
{
    *start_ns = INT64_MAX;
    *end_ns = INT64_MIN;
    for (size_t i = 0; i < n; i++) {
        struct rp_clock *f = &c[i];
        f->offset = f->start_wall_ns - f->start_mono_ns;
        for (size_t j = 0; j < i; j++)
            if (*f->host && !strcmp(c[j].host, f->host)) {
                f->offset = c[j].offset;
                break;
            }
        int64_t start = f->start_mono_ns + f->offset;
        int64_t end = start;
        if (f->calls && (int64_t)f->last_t1 + f->offset > end)
            end = (int64_t)f->last_t1 + f->offset;
        if (f->has_end && f->end_mono_ns + f->offset > end)
            end = f->end_mono_ns + f->offset;
        if (f->calls && (int64_t)f->first_t0 + f->offset < start) /* a clock that went odd */
            start = (int64_t)f->first_t0 + f->offset;
        if (start < *start_ns)
            *start_ns = start;
        if (end > *end_ns)
            *end_ns = end;
    }
}

static void align_clocks(struct rp_trace *t)
{
    struct rp_clock *c = calloc(t->nfiles ? t->nfiles : 1, sizeof *c);
    if (!c) { /* each file on its own wall clock */
        for (size_t i = 0; i < t->nfiles; i++)
            t->files[i].clock_offset = t->files[i].hdr.start_wall_ns - t->files[i].hdr.start_mono_ns;
        t->start_ns = t->nfiles ? t->files[0].hdr.start_wall_ns : 0;
        t->end_ns = t->start_ns;
        return;
    }
    for (size_t i = 0; i < t->nfiles; i++) {
        const struct rp_file *f = &t->files[i];
        c[i] = (struct rp_clock){f->host, f->hdr.start_wall_ns, f->hdr.start_mono_ns, f->calls != 0, f->first_t0,
                                 f->last_t1, f->has_end, f->end.end_mono_ns, 0};
    }
    rp_clocks_align(c, t->nfiles, &t->start_ns, &t->end_ns);
    for (size_t i = 0; i < t->nfiles; i++)
        t->files[i].clock_offset = c[i].offset;
    free(c);
}

/* Every file stays open for both passes: let the descriptors reach the hard limit when the soft one is
 * too low for them (a job of thousands of ranks). */
static void enough_descriptors(size_t n)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < n + 32) {
        rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max > n + 32 ? n + 32 : rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
}

/* Records read from a file: of two traces of one process, the one that holds more is the more complete. */
uint64_t rp_file_records(const struct rp_file *f)
{
    uint64_t n = 0;
    for (size_t i = 0; i < sizeof f->rec_count / sizeof f->rec_count[0]; i++)
        n += f->rec_count[i];
    return n;
}

static int same_file(const struct rp_file *a, const struct rp_file *b)
{
    struct stat x, y;
    return fstat(a->fd, &x) == 0 && fstat(b->fd, &y) == 0 && x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

int rp_same_process_take_later(const char *earlier, uint64_t earlier_records, const char *later,
                               uint64_t later_records, unsigned pid, int one_file)
{
    const int later_kept = later_records > earlier_records;
    if (strcmp(earlier, later) == 0)
        fprintf(stderr, PROG ": warning: %s is given twice: it is read once\n", later);
    else if (one_file)
        fprintf(stderr, PROG ": warning: %s is %s again (the same file): it is read once\n", later, earlier);
    else
        fprintf(stderr, PROG ": warning: %s and %s are traces of the same process (pid %u, same start): %s is "
                        "read, %s left out%s\n", earlier, later, pid, later_kept ? later : earlier,
                later_kept ? earlier : later, later_kept ? " (it holds fewer records)" : "");
    return later_kept;
}

/* A process writes one trace file, named by its pid and start in the header: the same file given twice
 * (by another path, a link) or a copy of it would count every call twice.  Returns the index of an earlier
 * file of the same process as `f`, or -1. */
static long earlier_copy(const struct rp_trace *t, const struct rp_file *f)
{
    for (size_t j = 0; j < t->nfiles; j++) {
        const struct rp_file *e = &t->files[j];
        if (e->hdr.pid == f->hdr.pid && e->hdr.start_wall_ns == f->hdr.start_wall_ns &&
            e->hdr.start_mono_ns == f->hdr.start_mono_ns)
            return (long)j;
    }
    return -1;
}

/* `f` (just read) and files[j] are one process's trace: the one rp_same_process_take_later picks stays in
 * place j, the other is freed. */
static void take_once(struct rp_trace *t, size_t j, struct rp_file *f)
{
    struct rp_file *e = &t->files[j];
    if (!rp_same_process_take_later(e->path, rp_file_records(e), f->path, rp_file_records(f), f->hdr.pid,
                                    same_file(e, f))) {
        free_file(f);
        return;
    }
    const size_t given = e->given;
    free_file(e);
    *e = *f;
    e->given = given;
}

/* Pass 1 of several files at once: each read on a worker thread into its own rp_file, its messages kept
 * until the file's turn, then taken into the trace in the order given, as one thread would. */
struct opening {
    struct rp_trace *t;
    char *const *paths;
    struct read {
        struct rp_file f;
        int rc;
        char *msg; /* what read_file said (NULL: it wrote to stderr itself) */
        size_t len;
    } *r;
    int worst;
};

static void open_one(void *ctx, size_t i)
{
    struct opening *o = ctx;
    struct read *r = &o->r[i];
    FILE *m = open_memstream(&r->msg, &r->len);
    r->rc = read_file(&r->f, o->paths[i], m ? m : stderr);
    if (m)
        fclose(m);
}

static int take_one(void *ctx, size_t i)
{
    struct opening *o = ctx;
    struct rp_trace *t = o->t;
    struct read *r = &o->r[i];
    if (r->msg) {
        fwrite(r->msg, 1, r->len, stderr);
        free(r->msg);
        r->msg = NULL;
    }
    struct rp_file *f = &t->files[t->nfiles];
    *f = r->f;
    f->given = i;
    int rc = r->rc;
    /* A damaged file stays damaged (exit 3) even where a whole copy of it is read instead. */
    if (rc == RP_EXIT_DAMAGED)
        t->damaged = 1;
    if (rc == RP_EXIT_FAILED || (rc == RP_EXIT_UNREADABLE && o->worst != RP_EXIT_FAILED))
        o->worst = rc;
    else if (rc == RP_EXIT_DAMAGED && o->worst == RP_EXIT_OK)
        o->worst = rc;
    long j = rc == RP_EXIT_OK || rc == RP_EXIT_DAMAGED ? earlier_copy(t, f) : -1;
    if (j >= 0)
        take_once(t, (size_t)j, f);
    else
        t->nfiles++;
    return 0;
}

int rp_trace_open(struct rp_trace *t, char *const *paths, size_t n)
{
    memset(t, 0, sizeof *t);
    enough_descriptors(n);
    struct opening o = {t, paths, calloc(n ? n : 1, sizeof *o.r), RP_EXIT_OK};
    if (!o.r || !(t->files = calloc(n ? n : 1, sizeof *t->files))) {
        free(o.r);
        fprintf(stderr, PROG ": out of memory\n");
        return RP_EXIT_FAILED;
    }
    rp_parallel_ordered(n, rp_jobs(), &o, open_one, take_one);
    free(o.r);
    if (o.worst == RP_EXIT_UNREADABLE || o.worst == RP_EXIT_FAILED) {
        rp_trace_close(t);
        return o.worst;
    }
    align_clocks(t);
    return o.worst;
}

void rp_trace_close(struct rp_trace *t)
{
    for (size_t i = 0; i < t->nfiles; i++)
        free_file(&t->files[i]);
    free(t->files);
    memset(t, 0, sizeof *t);
}

const struct ct_api_info *rp_file_api(const struct rp_file *f, uint16_t api_id)
{
    return ct_names_api(f->names, api_id);
}

const char *rp_file_string(const struct rp_file *f, uint32_t id)
{
    return id ? ct_names_string(f->names, id, NULL) : NULL;
}

const struct rp_thread *rp_file_thread(const struct rp_file *f, uint32_t tid)
{
    struct rp_thread key = {.tid = tid};
    return bsearch(&key, f->threads, f->nthreads, sizeof key, cmp_thread);
}

const char *rp_thread_name(const struct rp_file *f, uint32_t tid)
{
    const struct rp_thread *t = rp_file_thread(f, tid);
    const char *s = t ? rp_file_string(f, t->name_id) : NULL;
    return s ? s : "";
}

const char *rp_process_label(int32_t rank, const char *host, uint32_t pid, char *buf, size_t size)
{
    if (rank >= 0)
        snprintf(buf, size, "rank %d (%s, %u)", (int)rank, *host ? host : "?", pid);
    else
        snprintf(buf, size, "%s, %u", *host ? host : "?", pid);
    return buf;
}

const char *rp_file_label(const struct rp_file *f, char *buf, size_t size)
{
    return rp_process_label(f->rank.rank, f->host, f->hdr.pid, buf, size);
}

int rp_warn_file(FILE *err, const char *path, const char *damage, unsigned long long calls, int has_end)
{
    if (damage)
        fprintf(err, PROG ": warning: %s; the report covers the %llu calls before it\n", damage, calls);
    else if (!has_end)
        fprintf(err, PROG ": warning: %s is incomplete (no END record: the process was killed, crashed or "
                     "called _exit); what it recorded before is reported\n", path);
    return damage != NULL;
}

size_t rp_warn_incomplete(const struct rp_trace *t)
{
    size_t n = 0;
    for (size_t i = 0; i < t->nfiles; i++)
        if (rp_file_incomplete(&t->files[i]) && t->files[i].status == CT_READ_OK) {
            rp_warn_file(stderr, t->files[i].path, NULL, 0, 0);
            n++;
        }
    return n;
}

/* ---- pass 2: the format's time-ordered merge ---- */

struct rp_merge {
    struct rp_trace *trace;
    struct ct_merge *m;
    struct rp_call out;
    size_t *gpu_hint; /* per file: where its next span likely is (gpu_spans.h) */
    int failed;
};

struct rp_merge *rp_merge_begin(struct rp_trace *t)
{
    struct rp_merge *m = calloc(1, sizeof *m);
    struct ct_merge_input *in = calloc(t->nfiles ? t->nfiles : 1, sizeof *in);
    char err[512];

    if (!m || !in || !(m->gpu_hint = calloc(t->nfiles ? t->nfiles : 1, sizeof *m->gpu_hint))) {
        fprintf(stderr, PROG ": out of memory\n");
        if (m)
            free(m->gpu_hint);
        free(m);
        free(in);
        return NULL;
    }
    for (size_t i = 0; i < t->nfiles; i++)
        in[i] = (struct ct_merge_input){t->files[i].fd, t->files[i].path, t->files[i].runs, t->files[i].clock_offset};
    m->trace = t;
    m->m = ct_merge_open(in, t->nfiles, err, sizeof err);
    free(in);
    if (!m->m) {
        fprintf(stderr, PROG ": %s\n", err);
        free(m->gpu_hint);
        free(m);
        return NULL;
    }
    return m;
}

const struct rp_call *rp_merge_next(struct rp_merge *m)
{
    const struct ct_merged *c = ct_merge_next(m->m);

    if (!c) {
        if (!m->failed && ct_merge_error(m->m)) {
            fprintf(stderr, PROG ": %s\n", ct_merge_error(m->m));
            m->failed = 1;
        }
        return NULL;
    }
    const struct rp_file *f = &m->trace->files[c->file];
    m->out = (struct rp_call){&c->call, c->t0, c->t1, c->file, f, &f->threads[f->thread_of_run[c->thread]], NULL, 0, 0, 0};
    /* Only launches and copies are timed: the others need no look-up. */
    if (f->gpu.n && (c->call.family == CT_FAM_LAUNCH || c->call.family == CT_FAM_COPY) &&
        (m->out.gpu = rp_gpu_spans_find(&f->gpu, c->call.c.seq, &m->gpu_hint[c->file], &m->out.ngpu))) {
        uint64_t start = m->out.gpu->start_ns, end = m->out.gpu->end_ns;
        for (size_t i = 1; i < m->out.ngpu; i++) { /* a graph's: from its first work's start to its last's end */
            if (m->out.gpu[i].start_ns < start)
                start = m->out.gpu[i].start_ns;
            if (m->out.gpu[i].end_ns > end)
                end = m->out.gpu[i].end_ns;
        }
        m->out.gpu_t0 = (int64_t)start + f->clock_offset;
        m->out.gpu_t1 = (int64_t)end + f->clock_offset;
    }
    return &m->out;
}

int rp_merge_failed(const struct rp_merge *m) { return m->failed; }

void rp_merge_end(struct rp_merge *m)
{
    if (!m)
        return;
    ct_merge_close(m->m);
    free(m->gpu_hint);
    free(m);
}
