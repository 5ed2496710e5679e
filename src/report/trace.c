#include "config.h"

#include "report/trace.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format/record.h"
#include "format/shapes.h"
#include "report/grow.h"

#define PROG "cudatrace-report"

/* The thread entry of tid, created on first sight (pass 1 keeps them unsorted; `hint` caches the last). */
static struct rp_thread *thread_of(struct rp_file *f, size_t *cap, uint32_t tid, size_t *hint)
{
    if (*hint < f->nthreads && f->threads[*hint].tid == tid)
        return &f->threads[*hint];
    for (size_t i = 0; i < f->nthreads; i++)
        if (f->threads[i].tid == tid)
            return &f->threads[*hint = i];
    struct rp_thread *t = rp_grow(f->threads, cap, f->nthreads + 1, sizeof *t);
    if (!t)
        return NULL;
    f->threads = t;
    t = &f->threads[*hint = f->nthreads++];
    memset(t, 0, sizeof *t);
    t->tid = tid;
    return t;
}

/* Note that a record of thread `t` lies at [off, off + size): extends the thread's last run when nothing of
 * another thread came between. */
static int add_to_run(struct rp_thread *t, uint64_t off, uint64_t size, int contiguous, uint64_t clock)
{
    if (contiguous && t->nruns) {
        t->runs[t->nruns - 1].end = off + size;
        return 0;
    }
    struct rp_run *r = rp_grow(t->runs, &t->cap, t->nruns + 1, sizeof *r);
    if (!r)
        return -1;
    t->runs = r;
    t->runs[t->nruns++] = (struct rp_run){off, off + size, clock};
    return 0;
}

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

static int take_record(struct rp_file *f, const struct ct_rec_hdr *h, unsigned file_type, uint64_t off,
                       uint64_t end, size_t *tcap, size_t *dcap, size_t *ucap, size_t *hint, uint32_t *last_tid)
{
    unsigned slot = file_type <= CT_REC_TYPE_LAST ? file_type : CT_REC_TYPE_LAST + 1;
    f->rec_count[slot]++;
    if (ct_names_add(f->names, h) < 0)
        return -1;

    switch (h->type) {
    case CT_REC_CALL: {
        const struct ct_rec_call *c = (const void *)h;
        struct rp_thread *t = thread_of(f, tcap, h->tid, hint);
        if (!t || add_to_run(t, off, end - off, *last_tid == h->tid, f->nclocks) < 0)
            return -1;
        *last_tid = h->tid;
        t->calls++;
        f->calls++;
        if (c->t0_ns < f->first_t0)
            f->first_t0 = c->t0_ns;
        if (c->t1_ns > f->last_t1 || f->last_t1 == 0)
            f->last_t1 = c->t1_ns;
        return 0;
    }
    case CT_REC_PROCESS: {
        const struct ct_rec_process *p = (const void *)h;
        const char *data = (const char *)(p + 1);
        char *host = strndup(data, p->host_len), *cmd = joined_cmdline(data + p->host_len, p->cmdline_len);
        free(f->host);
        free(f->cmdline);
        f->host = host;
        f->cmdline = cmd;
        f->argc = p->argc;
        return host && cmd ? 0 : -1;
    }
    case CT_REC_THREAD: {
        const struct ct_rec_thread *r = (const void *)h;
        struct rp_thread *t = thread_of(f, tcap, h->tid, hint);
        if (!t)
            return -1;
        t->name_id = r->name_id;
        return 0;
    }
    case CT_REC_LOST: {
        const struct ct_rec_lost *r = (const void *)h;
        f->lost += r->count;
        f->lost_by_reason[r->reason < 4 ? r->reason : 0] += r->count;
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
        struct rp_device *d = rp_grow(f->devices, dcap, f->ndevices + 1, sizeof *d);
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
        for (size_t i = 0; i < f->nuntraced_syms; i++)
            if (f->untraced_syms[i].name_id == r->name_id) {
                f->untraced_syms[i].count += r->count;
                return 0;
            }
        struct rp_untraced *u = rp_grow(f->untraced_syms, ucap, f->nuntraced_syms + 1, sizeof *u);
        if (!u)
            return -1;
        f->untraced_syms = u;
        u[f->nuntraced_syms++] = (struct rp_untraced){r->name_id, r->count};
        return 0;
    }
    case CT_REC_STACK:
    case CT_REC_MODULE:
        return rp_stacktab_add(&f->stacks, h);
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

/* Pass 1 over one file. Returns RP_EXIT_*. */
static int read_file(struct rp_file *f, const char *path)
{
    memset(f, 0, sizeof *f);
    f->path = path;
    f->first_t0 = UINT64_MAX;
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) { /* say so plainly rather than "read error" */
        fprintf(stderr, PROG ": %s: is a directory, not a trace file\n", path);
        return RP_EXIT_UNREADABLE;
    }
    struct ct_reader *r = ct_reader_open(path);
    if (!r || !(f->names = ct_names_new())) {
        fprintf(stderr, PROG ": %s: out of memory\n", path);
        ct_reader_close(r);
        return RP_EXIT_FAILED;
    }
    enum ct_read_status st0 = ct_reader_status(r);
    if (st0 != CT_READ_OK) {
        fprintf(stderr, PROG ": %s\n", ct_reader_message(r));
        ct_reader_close(r);
        return st0 == CT_READ_NOMEM ? RP_EXIT_FAILED : RP_EXIT_UNREADABLE;
    }
    f->hdr = *ct_reader_header(r);

    size_t tcap = 0, dcap = 0, ucap = 0, hint = 0;
    uint32_t last_tid = 0;
    uint64_t clocks_seen = 0; /* the reader's count: several clocks in a row take effect as one */
    const struct ct_rec_hdr *h;
    int rc = RP_EXIT_OK;
    while ((h = ct_reader_next(r))) {
        uint64_t off = ct_reader_offset(r), end = ct_reader_end(r);
        if (h->type != CT_REC_CALL && h->tid != 0 && h->tid != last_tid)
            last_tid = 0; /* a record of another thread ends the current run */
        if (ct_reader_clocks_read(r) != clocks_seen) { /* and so does a new clock: a run has one */
            clocks_seen = ct_reader_clocks_read(r);
            struct ct_rec_clock *c = rp_grow(f->clocks, &f->clocks_cap, f->nclocks + 1, sizeof *c);
            if (!c) {
                fprintf(stderr, PROG ": %s: out of memory\n", path);
                rc = RP_EXIT_FAILED;
                break;
            }
            f->clocks = c;
            f->clocks[f->nclocks++] = *ct_reader_clock(r);
            last_tid = 0;
        }
        if (take_record(f, h, ct_reader_file_type(r), off, end, &tcap, &dcap, &ucap, &hint, &last_tid) < 0) {
            fprintf(stderr, PROG ": %s: out of memory\n", path);
            rc = RP_EXIT_FAILED;
            break;
        }
        f->data_end = end;
    }
    f->status = ct_reader_status(r);
    f->unknown_shapes = ct_reader_unknown_shapes(r);
    if (rc == RP_EXIT_OK && f->status != CT_READ_OK) {
        f->message = strdup(ct_reader_message(r));
        fprintf(stderr, PROG ": warning: %s; the report covers the %llu calls before it\n",
                ct_reader_message(r), (unsigned long long)f->calls);
        rc = f->status == CT_READ_NOMEM ? RP_EXIT_FAILED : RP_EXIT_DAMAGED;
    }
    ct_reader_close(r);
    if (f->data_end == 0)
        f->data_end = f->hdr.header_size;
    if (!f->host)
        f->host = strdup("");
    if (!f->cmdline)
        f->cmdline = strdup("");
    if (!f->host || !f->cmdline)
        rc = RP_EXIT_FAILED;
    qsort(f->threads, f->nthreads, sizeof *f->threads, cmp_thread);
    return rc;
}

static void free_file(struct rp_file *f)
{
    ct_names_free(f->names);
    free(f->message);
    free(f->host);
    free(f->cmdline);
    free(f->devices);
    free(f->untraced_syms);
    free(f->clocks);
    rp_stacktab_free(&f->stacks);
    for (size_t i = 0; i < f->nthreads; i++)
        free(f->threads[i].runs);
    free(f->threads);
}

/* Files of one host share their monotonic clock: give them one offset (the first's wall - mono), so their
 * calls merge exactly; files of other hosts are aligned by their wall clocks. */
static void align_clocks(struct rp_trace *t)
{
    t->start_ns = INT64_MAX;
    t->end_ns = INT64_MIN;
    for (size_t i = 0; i < t->nfiles; i++) {
        struct rp_file *f = &t->files[i];
        f->clock_offset = f->hdr.start_wall_ns - f->hdr.start_mono_ns;
        for (size_t j = 0; j < i; j++)
            if (*f->host && !strcmp(t->files[j].host, f->host)) {
                f->clock_offset = t->files[j].clock_offset;
                break;
            }
        int64_t start = f->hdr.start_mono_ns + f->clock_offset;
        int64_t end = start;
        if (f->calls && (int64_t)f->last_t1 + f->clock_offset > end)
            end = (int64_t)f->last_t1 + f->clock_offset;
        if (f->has_end && f->end.end_mono_ns + f->clock_offset > end)
            end = f->end.end_mono_ns + f->clock_offset;
        if (f->calls && (int64_t)f->first_t0 + f->clock_offset < start) /* a clock that went odd */
            start = (int64_t)f->first_t0 + f->clock_offset;
        if (start < t->start_ns)
            t->start_ns = start;
        if (end > t->end_ns)
            t->end_ns = end;
    }
}

int rp_trace_open(struct rp_trace *t, char *const *paths, size_t n)
{
    memset(t, 0, sizeof *t);
    if (!(t->files = calloc(n ? n : 1, sizeof *t->files))) {
        fprintf(stderr, PROG ": out of memory\n");
        return RP_EXIT_FAILED;
    }
    int worst = RP_EXIT_OK;
    for (size_t i = 0; i < n; i++) {
        int rc = read_file(&t->files[i], paths[i]);
        t->nfiles = i + 1;
        if (rc == RP_EXIT_DAMAGED)
            t->damaged = 1;
        if (rc == RP_EXIT_FAILED || (rc == RP_EXIT_UNREADABLE && worst != RP_EXIT_FAILED))
            worst = rc;
        else if (rc == RP_EXIT_DAMAGED && worst == RP_EXIT_OK)
            worst = rc;
    }
    if (worst == RP_EXIT_UNREADABLE || worst == RP_EXIT_FAILED) {
        rp_trace_close(t);
        return worst;
    }
    align_clocks(t);
    return worst;
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

/* ---- pass 2: the time-ordered merge ---- */

/* Each cursor reads its thread's runs through a buffer of its own (pread), so memory is one buffer per
 * thread whatever the file size; a record (at most CT_REC_MAX_SIZE bytes) always fits in one. */
#define CURSOR_BUF 65536

struct cursor {
    struct rp_file *file;
    size_t file_index;
    const struct rp_thread *thread;
    size_t run;       /* current run */
    uint64_t off;     /* next record to look at */
    unsigned char *buf;
    uint64_t buf_off; /* file offset of buf[0] */
    size_t buf_len;
    struct rp_call call; /* the cursor's head */
    struct ct_shapes *shapes; /* the thread's launch shapes (shapes.h), made at its first call */
};

struct rp_merge {
    struct cursor *cursors;
    size_t ncursors;
    struct cursor **heap;
    size_t nheap;
    const struct rp_call *last;
    int *fds;
    size_t nfds;
};

/* Make [off, off + len) of the run readable in the buffer; NULL if the file is shorter than pass 1 saw. */
static const unsigned char *cursor_bytes(struct cursor *k, int fd, uint64_t off, size_t len, uint64_t run_end)
{
    if (off < k->buf_off || off + len > k->buf_off + k->buf_len) {
        size_t want = run_end - off < CURSOR_BUF ? (size_t)(run_end - off) : CURSOR_BUF;
        ssize_t got = pread(fd, k->buf, want, (off_t)off);
        k->buf_off = off;
        k->buf_len = got > 0 ? (size_t)got : 0;
        if (len > k->buf_len)
            return NULL;
    }
    return k->buf + (off - k->buf_off);
}

/* Advance a cursor to its thread's next call; 0 when there is none. */
static int cursor_next(struct cursor *k, int fd)
{
    const struct rp_thread *t = k->thread;
    while (k->run < t->nruns) {
        const struct rp_run *run = &t->runs[k->run];
        if (k->off < run->begin)
            k->off = run->begin;
        const unsigned char *p = k->off + sizeof(struct ct_rec_hdr) <= run->end
                                     ? cursor_bytes(k, fd, k->off, sizeof(struct ct_rec_hdr), run->end)
                                     : NULL;
        if (!p) {
            k->run++;
            continue;
        }
        struct ct_rec_hdr h;
        memcpy(&h, p, sizeof h);
        uint64_t off = k->off;
        k->off += h.size ? h.size : 8; /* validated in pass 1; never loop on a zero size */
        if (h.tid != t->tid || off + h.size > run->end)
            continue;
        struct rp_call *c = &k->call;
        /* The thread's launch shapes and what short repeats leave out (shapes.h), kept in the file's units:
         * noted and expanded before the run's clock converts them. */
        if (!k->shapes)
            k->shapes = ct_shapes_new(); /* out of memory: repeats read as launches of unknown kind */
        if (h.type == CT_REC_LAUNCH_REPEAT || h.type == CT_REC_LAUNCH_SHORT) {
            struct ct_launch_call full;
            if (h.size < ct_rec_min_size(h.type) || !(p = cursor_bytes(k, fd, off, h.size, run->end)))
                continue;
            const uint64_t base = run->clock ? k->file->clocks[run->clock - 1].base_ticks
                                             : (uint64_t)k->file->hdr.start_mono_ns;
            ct_shapes_expand(k->shapes, (const struct ct_rec_hdr *)p, base, &full); /* checked in pass 1 */
            c->c = full.c;
            c->pl.launch = full.pl;
            c->family = CT_FAM_LAUNCH;
        } else {
            if (h.type != CT_REC_CALL || h.size < sizeof(struct ct_rec_call) ||
                !(p = cursor_bytes(k, fd, off, h.size, run->end)))
                continue;
            memcpy(&c->c, p, sizeof c->c);
            size_t plsize = ct_payload_size(c->c.payload);
            c->family = plsize && sizeof c->c + plsize <= h.size ? c->c.payload : CT_FAM_NONE;
            if (c->family)
                memcpy(&c->pl, p + sizeof c->c, plsize);
            ct_shapes_note(k->shapes, (const struct ct_rec_call *)p); /* records are 8-aligned in buf */
        }
        if (run->clock)
            ct_rec_times_to_ns(&c->c.h, &k->file->clocks[run->clock - 1]);
        c->t0 = (int64_t)c->c.t0_ns + k->file->clock_offset;
        c->t1 = (int64_t)c->c.t1_ns + k->file->clock_offset;
        return 1;
    }
    return 0;
}

static int before(const struct cursor *a, const struct cursor *b)
{
    if (a->call.t0 != b->call.t0)
        return a->call.t0 < b->call.t0;
    if (a->file_index != b->file_index)
        return a->file_index < b->file_index;
    return a->call.c.seq < b->call.c.seq;
}

static void sift_down(struct rp_merge *m, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, min = i;
        if (l < m->nheap && before(m->heap[l], m->heap[min]))
            min = l;
        if (r < m->nheap && before(m->heap[r], m->heap[min]))
            min = r;
        if (min == i)
            return;
        struct cursor *tmp = m->heap[i];
        m->heap[i] = m->heap[min];
        m->heap[min] = tmp;
        i = min;
    }
}

struct rp_merge *rp_merge_begin(struct rp_trace *t)
{
    size_t n = 0;
    for (size_t i = 0; i < t->nfiles; i++)
        n += t->files[i].nthreads;
    struct rp_merge *m = calloc(1, sizeof *m);
    if (!m || !(m->cursors = calloc(n ? n : 1, sizeof *m->cursors)) ||
        !(m->heap = calloc(n ? n : 1, sizeof *m->heap)) || !(m->fds = calloc(t->nfiles + 1, sizeof *m->fds))) {
        fprintf(stderr, PROG ": out of memory\n");
        rp_merge_end(m);
        return NULL;
    }
    m->ncursors = n;
    for (size_t i = 0; i < t->nfiles; i++) {
        if ((m->fds[i] = open(t->files[i].path, O_RDONLY)) < 0) {
            fprintf(stderr, PROG ": %s: %s\n", t->files[i].path, strerror(errno));
            rp_merge_end(m);
            return NULL;
        }
        m->nfds = i + 1;
    }
    size_t k = 0;
    for (size_t i = 0; i < t->nfiles; i++)
        for (size_t j = 0; j < t->files[i].nthreads; j++) {
            struct cursor *c = &m->cursors[k++];
            c->file = &t->files[i];
            c->file_index = i;
            c->thread = &t->files[i].threads[j];
            c->call.file_index = i;
            c->call.file = c->file;
            c->call.thread = c->thread;
            if (!(c->buf = malloc(CURSOR_BUF))) {
                fprintf(stderr, PROG ": out of memory\n");
                rp_merge_end(m);
                return NULL;
            }
            if (cursor_next(c, m->fds[i]))
                m->heap[m->nheap++] = c;
        }
    for (size_t i = m->nheap / 2; i-- > 0;)
        sift_down(m, i);
    return m;
}

const struct rp_call *rp_merge_next(struct rp_merge *m)
{
    /* The call handed out last is replaced by its cursor's next only now, so the caller could use it. */
    if (m->last) {
        struct cursor *top = m->heap[0];
        if (!cursor_next(top, m->fds[top->file_index]))
            m->heap[0] = m->heap[--m->nheap];
        if (m->nheap)
            sift_down(m, 0);
        m->last = NULL;
    }
    if (!m->nheap)
        return NULL;
    return m->last = &m->heap[0]->call;
}

void rp_merge_end(struct rp_merge *m)
{
    if (!m)
        return;
    for (size_t i = 0; m->cursors && i < m->ncursors; i++) {
        free(m->cursors[i].buf);
        ct_shapes_free(m->cursors[i].shapes);
    }
    for (size_t i = 0; i < m->nfds; i++)
        close(m->fds[i]);
    free(m->fds);
    free(m->cursors);
    free(m->heap);
    free(m);
}
