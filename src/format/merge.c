#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format/decoder.h"
#include "format/input.h"
#include "format/merge.h"
#include "format/reader.h"
#include "format/record.h"

/* The read buffers of all cursors share BUF_BUDGET, each between BUF_MIN and BUF_MAX bytes and no larger
 * than what is left of its run: a few threads read in large preads, many threads in small ones, and a
 * thread with a short run (most, where there are many) holds only that.  A record larger than its
 * cursor's buffer makes the buffer grow to fit it. */
#define BUF_BUDGET (16u << 20)
#define BUF_MIN 1024u
#define BUF_MAX 65536u

struct file {
    const struct ct_merge_input *in;
    struct ct_decoder *dec;           /* one per file: it keeps each thread's launch shapes apart */
    const struct ct_rec_clock *clock; /* the one dec converts with now */
    int clock_set;
};

struct cursor {
    const struct ct_runs_thread *thread;
    struct file *file;
    const struct ct_rec_clock *clock; /* of the current run; NULL: its times are ns */
    size_t run;         /* current run */
    uint64_t off;       /* next record to look at */
    unsigned char *buf; /* malloc'd: records in it are 8-aligned, as file offsets are */
    size_t buf_cap, buf_len;
    uint64_t buf_off;   /* file offset of buf[0] */
    struct ct_merged head;
};

struct ct_merge {
    struct ct_merge_input *in; /* a copy of the caller's */
    struct file *files;
    size_t nfiles;
    struct cursor *cursors;
    size_t ncursors;
    struct cursor **heap;
    size_t nheap;
    int handed_out;  /* heap[0]'s head was returned and must be advanced first */
    size_t buf_size; /* a cursor's buffer, from the budget */
    char err[512];   /* set at the first read error */
    struct ct_runs **owned; /* ct_merge_open_paths' indexes and descriptors */
    int *owned_fds;
    size_t nowned;
};

/* Make [off, off + len) of the run readable in the buffer; NULL after a read error (m->err set). */
static const unsigned char *cursor_bytes(struct ct_merge *m, struct cursor *k, uint64_t off, size_t len,
                                         uint64_t run_end)
{
    if (off >= k->buf_off && off + len <= k->buf_off + k->buf_len)
        return k->buf + (off - k->buf_off);
    size_t want = run_end - off < m->buf_size ? (size_t)(run_end - off) : m->buf_size;
    if (want < len)
        want = len;
    if (want > k->buf_cap) {
        unsigned char *b = realloc(k->buf, want);
        if (!b) {
            snprintf(m->err, sizeof m->err, "%s: out of memory", k->file->in->name);
            return NULL;
        }
        k->buf = b;
        k->buf_cap = want;
    }
    k->buf_off = off;
    k->buf_len = 0;
    while (k->buf_len < want) {
        ssize_t got = pread(k->file->in->fd, k->buf + k->buf_len, want - k->buf_len, (off_t)(off + k->buf_len));
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            snprintf(m->err, sizeof m->err, "%s: read error at byte %" PRIu64 ": %s", k->file->in->name,
                     off + k->buf_len, strerror(errno));
            return NULL;
        }
        if (got == 0) {
            snprintf(m->err, sizeof m->err, "%s: ends at byte %" PRIu64 ", before the end its first reading saw "
                     "(changed while being read?)", k->file->in->name, off + k->buf_len);
            return NULL;
        }
        k->buf_len += (size_t)got;
    }
    return k->buf;
}

static void cursor_done(struct cursor *k)
{
    free(k->buf);
    k->buf = NULL;
    k->buf_cap = k->buf_len = 0;
}

/* Advance a cursor to its thread's next call; 0 when there is none (its buffer freed) or after a read
 * error (m->err set). */
static int cursor_next(struct ct_merge *m, struct cursor *k)
{
    const struct ct_runs_thread *t = k->thread;
    const struct ct_runs *runs = k->file->in->runs;

    while (k->run < t->nruns) {
        const struct ct_run *run = &t->runs[k->run];
        if (k->off < run->begin) { /* a new run: its clock */
            k->off = run->begin;
            k->clock = run->clock ? &runs->clocks[run->clock - 1] : NULL;
        }
        if (k->off + sizeof(struct ct_rec_hdr) > run->end) {
            k->run++;
            continue;
        }
        const unsigned char *p = cursor_bytes(m, k, k->off, sizeof(struct ct_rec_hdr), run->end);
        if (!p)
            return 0;
        const struct ct_rec_hdr *h = (const void *)p;
        const uint64_t off = k->off;
        const unsigned size = h->size, type = h->type, tid = h->tid;
        k->off += size ? size : 8; /* validated in the first pass; never loop on a zero size */
        if (tid != t->tid || off + size > run->end || !ct_rec_is_call(type) || size < ct_rec_min_size(type))
            continue;
        if (!(p = cursor_bytes(m, k, off, size, run->end)))
            return 0;
        /* The file's decoder serves all its threads: the clock is this run's (most often the one it has).
         * Out of memory for the shapes: the call comes back with its payload unknown. */
        struct file *f = k->file;
        if (!f->clock_set || f->clock != k->clock) {
            ct_decoder_use_clock(f->dec, k->clock);
            f->clock = k->clock;
            f->clock_set = 1;
        }
        ct_decode(f->dec, (const struct ct_rec_hdr *)p, &k->head.call);
        k->head.t0 = (int64_t)k->head.call.c.t0_ns + f->in->offset_ns;
        k->head.t1 = (int64_t)k->head.call.c.t1_ns + f->in->offset_ns;
        return 1;
    }
    cursor_done(k);
    return 0;
}

static int before(const struct cursor *a, const struct cursor *b)
{
    if (a->head.t0 != b->head.t0)
        return a->head.t0 < b->head.t0;
    if (a->head.file != b->head.file)
        return a->head.file < b->head.file;
    return a->head.call.c.seq < b->head.call.c.seq;
}

static void sift_down(struct ct_merge *m, size_t i)
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

void ct_merge_close(struct ct_merge *m)
{
    if (!m)
        return;
    for (size_t i = 0; m->cursors && i < m->ncursors; i++)
        free(m->cursors[i].buf);
    for (size_t i = 0; m->files && i < m->nfiles; i++)
        ct_decoder_free(m->files[i].dec);
    for (size_t i = 0; i < m->nowned; i++) {
        ct_runs_free(m->owned[i]);
        close(m->owned_fds[i]);
    }
    free(m->owned);
    free(m->owned_fds);
    free(m->in);
    free(m->files);
    free(m->cursors);
    free(m->heap);
    free(m);
}

struct ct_merge *ct_merge_open(const struct ct_merge_input *in, size_t n, char *err, size_t errlen)
{
    size_t threads = 0;
    for (size_t i = 0; i < n; i++)
        threads += in[i].runs->nthreads;
    struct ct_merge *m = calloc(1, sizeof *m);
    if (!m || !(m->in = calloc(n ? n : 1, sizeof *m->in)) || !(m->files = calloc(n ? n : 1, sizeof *m->files)) ||
        !(m->cursors = calloc(threads ? threads : 1, sizeof *m->cursors)) ||
        !(m->heap = calloc(threads ? threads : 1, sizeof *m->heap))) {
        snprintf(err, errlen, "out of memory");
        ct_merge_close(m);
        return NULL;
    }
    memcpy(m->in, in, n * sizeof *in);
    m->nfiles = n;
    m->ncursors = threads;
    m->buf_size = threads ? BUF_BUDGET / threads : BUF_MAX;
    m->buf_size = m->buf_size < BUF_MIN ? BUF_MIN : m->buf_size > BUF_MAX ? BUF_MAX : m->buf_size;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        m->files[i].in = &m->in[i];
        if (!(m->files[i].dec = ct_decoder_new(in[i].runs->start_ns))) {
            snprintf(err, errlen, "out of memory");
            ct_merge_close(m);
            return NULL;
        }
        for (size_t j = 0; j < in[i].runs->nthreads; j++) {
            struct cursor *c = &m->cursors[k++];
            c->thread = &in[i].runs->threads[j];
            c->file = &m->files[i];
            c->head.file = i;
            c->head.thread = j;
            if (cursor_next(m, c))
                m->heap[m->nheap++] = c;
            else if (m->err[0]) { /* ct_merge_next gives nothing, ct_merge_error says why */
                m->nheap = 0;
                return m;
            }
        }
    }
    for (size_t i = m->nheap / 2; i-- > 0;)
        sift_down(m, i);
    return m;
}

const struct ct_merged *ct_merge_next(struct ct_merge *m)
{
    /* The call handed out last is replaced by its cursor's next only now, so the caller could use it. */
    if (m->handed_out) {
        m->handed_out = 0;
        if (!cursor_next(m, m->heap[0])) {
            if (m->err[0]) {
                m->nheap = 0;
                return NULL;
            }
            m->heap[0] = m->heap[--m->nheap];
        }
        if (m->nheap)
            sift_down(m, 0);
    }
    if (!m->nheap)
        return NULL;
    m->handed_out = 1;
    return &m->heap[0]->head;
}

const char *ct_merge_error(const struct ct_merge *m) { return m->err[0] ? m->err : NULL; }

struct ct_merge *ct_merge_open_paths(const char *const *paths, size_t n, char *err, size_t errlen)
{
    struct ct_runs **owned = calloc(n ? n : 1, sizeof *owned);
    int *fds = calloc(n ? n : 1, sizeof *fds);
    struct ct_merge_input *in = calloc(n ? n : 1, sizeof *in);
    struct ct_merge *m = NULL;
    size_t i = 0;

    if (!owned || !fds || !in) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    for (; i < n; i++) {
        const char *name = ct_input_name(paths[i]);
        if ((fds[i] = ct_input_open(paths[i], err, errlen)) < 0)
            goto out;
        struct ct_reader *r = ct_reader_open_fd(fds[i], name);
        if (!r || ct_reader_build_runs(r) < 0) {
            snprintf(err, errlen, "%s: out of memory", name);
            ct_reader_close(r);
            close(fds[i]);
            goto out;
        }
        if (ct_read_status_is_fatal(ct_reader_status(r)) || ct_reader_status(r) == CT_READ_IO) {
            snprintf(err, errlen, "%s", ct_reader_message(r));
            ct_reader_close(r);
            close(fds[i]);
            goto out;
        }
        while (ct_reader_next(r))
            ;
        int io = ct_reader_status(r) == CT_READ_IO; /* a read error is no damage to report around */
        if (io)
            snprintf(err, errlen, "%s", ct_reader_message(r));
        owned[i] = ct_reader_take_runs(r);
        ct_reader_close(r);
        if (!owned[i] || io) {
            if (!io)
                snprintf(err, errlen, "%s: out of memory", name);
            ct_runs_free(owned[i]);
            close(fds[i]);
            goto out;
        }
        in[i] = (struct ct_merge_input){fds[i], name, owned[i], 0};
    }
    if ((m = ct_merge_open(in, n, err, errlen))) {
        m->owned = owned;
        m->owned_fds = fds;
        m->nowned = n;
        owned = NULL;
        fds = NULL;
    }
out:
    for (size_t j = 0; owned && j < i; j++) {
        ct_runs_free(owned[j]);
        close(fds[j]);
    }
    free(owned);
    free(fds);
    free(in);
    return m;
}
