#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format/decoder.h"
#include "format/merge.h"
#include "format/reader.h"
#include "format/record.h"

/* A record (at most CT_REC_MAX_SIZE bytes) always fits in a cursor's buffer. */
#define CURSOR_BUF 65536

struct cursor {
    const struct ct_runs_thread *thread;
    const struct ct_runs *runs;
    int fd;
    size_t run;        /* current run */
    uint64_t off;      /* next record to look at */
    int64_t offset_ns;
    unsigned char *buf; /* malloc'd: records in it are 8-aligned, as file offsets are */
    uint64_t buf_off;  /* file offset of buf[0] */
    size_t buf_len;
    struct ct_decoder *dec;
    struct ct_merged head;
};

struct ct_merge {
    struct cursor *cursors;
    size_t ncursors;
    struct cursor **heap;
    size_t nheap;
    int handed_out; /* heap[0]'s head was returned and must be advanced first */
    int *fds;
    size_t nfds;
    struct ct_runs **owned; /* ct_merge_open_paths' indexes */
    size_t nowned;
};

/* Make [off, off + len) of the run readable in the buffer; NULL if the file is shorter than pass 1 saw. */
static const unsigned char *cursor_bytes(struct cursor *k, uint64_t off, size_t len, uint64_t run_end)
{
    if (off < k->buf_off || off + len > k->buf_off + k->buf_len) {
        size_t want = run_end - off < CURSOR_BUF ? (size_t)(run_end - off) : CURSOR_BUF;
        ssize_t got = pread(k->fd, k->buf, want, (off_t)off);
        k->buf_off = off;
        k->buf_len = got > 0 ? (size_t)got : 0;
        if (len > k->buf_len)
            return NULL;
    }
    return k->buf + (off - k->buf_off);
}

/* Advance a cursor to its thread's next call; 0 when there is none. */
static int cursor_next(struct cursor *k)
{
    const struct ct_runs_thread *t = k->thread;

    while (k->run < t->nruns) {
        const struct ct_run *run = &t->runs[k->run];
        if (k->off < run->begin) { /* a new run: its clock */
            k->off = run->begin;
            ct_decoder_use_clock(k->dec, run->clock ? &k->runs->clocks[run->clock - 1] : NULL);
        }
        const unsigned char *p = k->off + sizeof(struct ct_rec_hdr) <= run->end
                                     ? cursor_bytes(k, k->off, sizeof(struct ct_rec_hdr), run->end)
                                     : NULL;
        if (!p) {
            k->run++;
            continue;
        }
        const struct ct_rec_hdr *h = (const void *)p;
        const uint64_t off = k->off;
        const unsigned size = h->size, type = h->type, tid = h->tid;
        k->off += size ? size : 8; /* validated in the first pass; never loop on a zero size */
        if (tid != t->tid || off + size > run->end || !ct_rec_is_call(type) || size < ct_rec_min_size(type) ||
            !(p = cursor_bytes(k, off, size, run->end)))
            continue;
        /* Out of memory for the shapes: the call comes back with its payload unknown. */
        ct_decode(k->dec, (const struct ct_rec_hdr *)p, &k->head.call);
        k->head.t0 = (int64_t)k->head.call.c.t0_ns + k->offset_ns;
        k->head.t1 = (int64_t)k->head.call.c.t1_ns + k->offset_ns;
        return 1;
    }
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
    for (size_t i = 0; m->cursors && i < m->ncursors; i++) {
        free(m->cursors[i].buf);
        ct_decoder_free(m->cursors[i].dec);
    }
    for (size_t i = 0; i < m->nfds; i++)
        close(m->fds[i]);
    for (size_t i = 0; i < m->nowned; i++)
        ct_runs_free(m->owned[i]);
    free(m->owned);
    free(m->fds);
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
    if (!m || !(m->cursors = calloc(threads ? threads : 1, sizeof *m->cursors)) ||
        !(m->heap = calloc(threads ? threads : 1, sizeof *m->heap)) || !(m->fds = calloc(n + 1, sizeof *m->fds))) {
        snprintf(err, errlen, "out of memory");
        ct_merge_close(m);
        return NULL;
    }
    m->ncursors = threads;
    for (size_t i = 0; i < n; i++) {
        if ((m->fds[i] = open(in[i].path, O_RDONLY | O_CLOEXEC)) < 0) {
            snprintf(err, errlen, "%s: %s", in[i].path, strerror(errno));
            ct_merge_close(m);
            return NULL;
        }
        m->nfds = i + 1;
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < in[i].runs->nthreads; j++) {
            struct cursor *c = &m->cursors[k++];
            c->thread = &in[i].runs->threads[j];
            c->runs = in[i].runs;
            c->fd = m->fds[i];
            c->offset_ns = in[i].offset_ns;
            c->head.file = i;
            c->head.thread = j;
            if (!(c->buf = malloc(CURSOR_BUF)) || !(c->dec = ct_decoder_new(in[i].runs->start_ns))) {
                snprintf(err, errlen, "out of memory");
                ct_merge_close(m);
                return NULL;
            }
            if (cursor_next(c))
                m->heap[m->nheap++] = c;
        }
    for (size_t i = m->nheap / 2; i-- > 0;)
        sift_down(m, i);
    return m;
}

const struct ct_merged *ct_merge_next(struct ct_merge *m)
{
    /* The call handed out last is replaced by its cursor's next only now, so the caller could use it. */
    if (m->handed_out) {
        if (!cursor_next(m->heap[0]))
            m->heap[0] = m->heap[--m->nheap];
        if (m->nheap)
            sift_down(m, 0);
        m->handed_out = 0;
    }
    if (!m->nheap)
        return NULL;
    m->handed_out = 1;
    return &m->heap[0]->head;
}

struct ct_merge *ct_merge_open_paths(const char *const *paths, size_t n, char *err, size_t errlen)
{
    struct ct_runs **owned = calloc(n ? n : 1, sizeof *owned);
    struct ct_merge_input *in = calloc(n ? n : 1, sizeof *in);
    struct ct_merge *m = NULL;
    size_t i = 0;

    if (!owned || !in) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    for (; i < n; i++) {
        struct ct_reader *r = ct_reader_open(paths[i]);
        if (!r || ct_reader_build_runs(r) < 0) {
            snprintf(err, errlen, "%s: out of memory", paths[i]);
            ct_reader_close(r);
            goto out;
        }
        if (ct_read_status_is_fatal(ct_reader_status(r)) || ct_reader_status(r) == CT_READ_IO) {
            snprintf(err, errlen, "%s", ct_reader_message(r));
            ct_reader_close(r);
            goto out;
        }
        while (ct_reader_next(r))
            ;
        owned[i] = ct_reader_take_runs(r);
        ct_reader_close(r);
        if (!owned[i]) {
            snprintf(err, errlen, "%s: out of memory", paths[i]);
            goto out;
        }
        in[i] = (struct ct_merge_input){paths[i], owned[i], 0};
    }
    if ((m = ct_merge_open(in, n, err, errlen))) {
        m->owned = owned;
        m->nowned = n;
        owned = NULL;
    }
out:
    for (size_t j = 0; owned && j < i; j++)
        ct_runs_free(owned[j]);
    free(owned);
    free(in);
    return m;
}
