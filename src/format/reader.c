#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format/annot.h"
#include "format/decoder.h"
#include "format/enum_names.h"
#include "format/input.h"
#include "format/reader.h"
#include "format/record.h"
#include "format/runs.h"

/* A record is at most 64 KiB, so any buffer above that works; 1 MiB keeps read() calls few. */
#define READ_BUF_SIZE (1u << 20)

struct ct_reader {
    int fd;
    int own_fd;          /* opened by ct_reader_open, closed with the reader */
    char *path;
    enum ct_read_status status;
    char msg[512];
    int have_header;
    struct ct_file_header header;
    uint64_t data_start; /* file offset of the first record */
    unsigned char *buf;  /* malloc'd, so records in it are 8-aligned (file offsets are) */
    size_t start, end;   /* unread bytes are buf[start, end) */
    uint64_t buf_off;    /* file offset of buf[0] */
    int eof;
    uint64_t last;       /* offset of the record last returned, or of the stop */
    struct ct_decoder *dec;  /* launch repeats, clocks (decoder.h) */
    struct ct_call call;     /* the last call returned */
    struct ct_gpu_span gpu;  /* the last CT_REC_GPU returned */
    struct ct_gpu_info gpu_info; /* the last CT_REC_GPU_INFO returned */
    union {                  /* the last format 6 annotation or process record returned (annot.h) */
        struct ct_nvtx_event nvtx;
        struct ct_nvtx_naming naming;
        struct ct_rank rank;
        struct ct_thread_name thread;
        struct ct_process process;
        struct ct_counted counted;
    } annot;
    unsigned file_type;      /* type of the record last returned, as in the file */
    struct ct_runs *runs;    /* being built (ct_reader_build_runs), or NULL */
};

static void fail(struct ct_reader *r, enum ct_read_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void fail(struct ct_reader *r, enum ct_read_status st, const char *fmt, ...)
{
    va_list ap;
    int n = snprintf(r->msg, sizeof r->msg, "%s: ", r->path);

    r->status = st;
    va_start(ap, fmt);
    vsnprintf(r->msg + n, sizeof r->msg - (size_t)n, fmt, ap);
    va_end(ap);
}

/* Make at least `need` unread bytes available if the file has them; returns how many are available. */
static size_t ensure(struct ct_reader *r, size_t need)
{
    if (r->end - r->start >= need || r->eof)
        return r->end - r->start;
    if (r->start > 0) {
        memmove(r->buf, r->buf + r->start, r->end - r->start);
        r->buf_off += r->start;
        r->end -= r->start;
        r->start = 0;
    }
    while (r->end < need) {
        /* pread: the descriptor may be shared (the merge reads it too), its position is nobody's. */
        ssize_t got = pread(r->fd, r->buf + r->end, READ_BUF_SIZE - r->end, (off_t)(r->buf_off + r->end));
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            fail(r, CT_READ_IO, "read error at byte %" PRIu64 ": %s", r->buf_off + r->end, strerror(errno));
            r->eof = 1;
            break;
        }
        if (got == 0) {
            r->eof = 1;
            break;
        }
        r->end += (size_t)got;
    }
    return r->end - r->start;
}

static uint64_t cur_off(const struct ct_reader *r) { return r->buf_off + r->start; }

static void read_header(struct ct_reader *r)
{
    const size_t hs = sizeof(struct ct_file_header);
    size_t avail = ensure(r, hs);
    size_t cmp = avail < CT_MAGIC_LEN ? avail : CT_MAGIC_LEN;
    struct ct_file_header *h = &r->header;

    if (r->status != CT_READ_OK)
        return;
    if (avail == 0) {
        fail(r, CT_READ_TRUNCATED, "truncated at byte 0 (empty file)");
        return;
    }
    if (memcmp(r->buf, CT_MAGIC, cmp) != 0) {
        fail(r, CT_READ_NOT_TRACE, "not a cudatrace trace");
        return;
    }
    if (avail < hs) {
        fail(r, CT_READ_TRUNCATED, "truncated at byte %zu (file header: %zu of %zu bytes)", avail, avail, hs);
        return;
    }
    memcpy(h, r->buf, hs);
    if (h->byte_order != CT_BYTE_ORDER_MARK) {
        if (h->byte_order == __builtin_bswap32(CT_BYTE_ORDER_MARK))
            fail(r, CT_READ_BYTE_ORDER, "trace written on a host of the other byte order (format version %u); "
                 "this reader reads versions %u to %u in native byte order only",
                 __builtin_bswap32(h->format_version), CT_FORMAT_VERSION_MIN, CT_FORMAT_VERSION);
        else
            fail(r, CT_READ_BAD_HEADER, "bad byte order mark 0x%08x", h->byte_order);
        return;
    }
    if (h->format_version < CT_FORMAT_VERSION_MIN || h->format_version > CT_FORMAT_VERSION) {
        fail(r, CT_READ_VERSION, "trace format version %u is not supported (this reader reads versions %u to %u)",
             h->format_version, CT_FORMAT_VERSION_MIN, CT_FORMAT_VERSION);
        return;
    }
    if (h->header_size < hs || h->header_size % 8 != 0 || h->header_size > CT_REC_MAX_SIZE) {
        fail(r, CT_READ_BAD_HEADER, "bad header size %u", h->header_size);
        return;
    }
    if (h->start_wall_ns < 0 || h->start_wall_ns > CT_WALL_NS_MAX || h->start_mono_ns < 0 ||
        h->start_mono_ns > CT_MONO_NS_MAX) {
        fail(r, CT_READ_BAD_HEADER, "impossible start time (wall %" PRId64 " ns, monotonic %" PRId64 " ns)",
             h->start_wall_ns, h->start_mono_ns);
        return;
    }
    avail = ensure(r, h->header_size);
    if (avail < h->header_size) {
        fail(r, CT_READ_TRUNCATED, "truncated at byte %zu (file header: %zu of %u bytes)", avail, avail,
             h->header_size);
        return;
    }
    r->start += h->header_size;
    r->data_start = h->header_size;
    r->last = h->header_size;
    r->have_header = 1;
}

static struct ct_reader *reader_new(int fd, const char *name)
{
    struct ct_reader *r = calloc(1, sizeof *r);

    if (!r)
        return NULL;
    r->fd = fd;
    r->path = strdup(name);
    r->buf = malloc(READ_BUF_SIZE);
    if (!r->path || !r->buf) {
        ct_reader_close(r);
        return NULL;
    }
    return r;
}

/* Made once the header is known: its start is the base of a short repeat with nothing before it. */
static struct ct_reader *reader_start(struct ct_reader *r)
{
    if (r->fd >= 0)
        read_header(r);
    if (!(r->dec = ct_decoder_new(r->have_header ? (uint64_t)r->header.start_mono_ns : 0))) {
        ct_reader_close(r);
        return NULL;
    }
    return r;
}

struct ct_reader *ct_reader_open(const char *path)
{
    struct ct_reader *r = reader_new(-1, ct_input_name(path));
    char err[sizeof r->msg];

    if (!r)
        return NULL;
    if ((r->fd = ct_input_open(path, err, sizeof err)) < 0) {
        r->status = CT_READ_IO;
        snprintf(r->msg, sizeof r->msg, "%s", err);
    }
    r->own_fd = 1;
    return reader_start(r);
}

struct ct_reader *ct_reader_open_fd(int fd, const char *name)
{
    struct ct_reader *r = reader_new(fd, name);
    return r ? reader_start(r) : NULL;
}

void ct_reader_close(struct ct_reader *r)
{
    if (!r)
        return;
    if (r->own_fd && r->fd >= 0)
        close(r->fd);
    free(r->buf);
    ct_decoder_free(r->dec);
    ct_runs_free(r->runs);
    free(r->path);
    free(r);
}

/* The next record as the file has it, checked; NULL at the end or a stop. */
static struct ct_rec_hdr *next_in_file(struct ct_reader *r)
{
    struct ct_rec_hdr *h;
    const char *why;
    size_t avail;

    if (r->status != CT_READ_OK || !r->have_header)
        return NULL;
    avail = ensure(r, sizeof *h);
    if (r->status != CT_READ_OK)
        return NULL;
    r->last = cur_off(r);
    if (avail == 0)
        return NULL; /* clean end */
    if (avail < sizeof *h) {
        fail(r, CT_READ_TRUNCATED, "truncated at byte %" PRIu64 " (record header: %zu of %zu bytes)", r->last,
             avail, sizeof *h);
        return NULL;
    }
    h = (void *)(r->buf + r->start);
    if (h->marker != CT_REC_MARKER || h->size < sizeof *h || h->size % 8 != 0) {
        fail(r, CT_READ_CORRUPT, "corrupt at byte %" PRIu64 " (%s)", r->last,
             h->marker != CT_REC_MARKER ? "bad record marker" : "bad record size");
        return NULL;
    }
    avail = ensure(r, h->size);
    if (r->status != CT_READ_OK)
        return NULL;
    h = (void *)(r->buf + r->start); /* ensure may have moved the data */
    if (avail < h->size) {
        fail(r, CT_READ_TRUNCATED, "truncated at byte %" PRIu64 " (%s record of %u bytes, %zu present)", r->last,
             ct_name_record_type(h->type), h->size, avail);
        return NULL;
    }
    if ((why = ct_rec_check(h, avail)) != NULL) {
        fail(r, CT_READ_CORRUPT, "corrupt at byte %" PRIu64 " (%s)", r->last, why);
        return NULL;
    }
    r->start += h->size;
    r->file_type = h->type;
    return h;
}

const struct ct_rec_hdr *ct_reader_next(struct ct_reader *r)
{
    for (struct ct_rec_hdr *h; (h = next_in_file(r));) {
        const uint64_t end = r->buf_off + r->start;
        enum ct_decoded d = ct_decode(r->dec, h, &r->call);
        int rc = 0;
        if (d == CT_DECODED_NOMEM) {
            fail(r, CT_READ_NOMEM, "out of memory for the launch shapes at byte %" PRIu64, r->last);
            return NULL;
        }
        if (d == CT_DECODED_CALL && (r->call.c.t0_ns > CT_MONO_NS_MAX || r->call.c.t1_ns > CT_MONO_NS_MAX)) {
            fail(r, CT_READ_CORRUPT, "corrupt at byte %" PRIu64 " (call time out of range)", r->last);
            return NULL;
        }
        if (r->runs)
            rc = d == CT_DECODED_CALL     ? ct_runs_note_call(r->runs, h->tid, r->last, end)
                 : h->type == CT_REC_CLOCK ? ct_runs_note_clock(r->runs, (const struct ct_rec_clock *)h)
                                           : (ct_runs_note_other(r->runs, h->tid), 0);
        if (rc < 0) {
            fail(r, CT_READ_NOMEM, "out of memory for the index of threads at byte %" PRIu64, r->last);
            return NULL;
        }
        if (d == CT_DECODED_CALL)
            return &r->call.c.h;
        if (h->type != CT_REC_CLOCK) { /* kept by the decoder, never returned */
            if (!ct_decode_gpu(h, &r->gpu) && !ct_decode_gpu_info(h, &r->gpu_info) &&
                !ct_decode_nvtx(h, &r->annot.nvtx) && !ct_decode_nvtx_name(h, &r->annot.naming) &&
                !ct_decode_rank(h, &r->annot.rank) && !ct_decode_thread(h, &r->annot.thread) &&
                !ct_decode_counted(h, &r->annot.counted))
                ct_decode_process(h, &r->annot.process);
            return h;
        }
    }
    return NULL;
}

const struct ct_gpu_span *ct_reader_gpu_span(const struct ct_reader *r)
{
    return r->file_type == CT_REC_GPU ? &r->gpu : NULL;
}

const struct ct_gpu_info *ct_reader_gpu_info(const struct ct_reader *r)
{
    return r->file_type == CT_REC_GPU_INFO ? &r->gpu_info : NULL;
}

const struct ct_nvtx_event *ct_reader_nvtx(const struct ct_reader *r)
{
    return r->file_type == CT_REC_NVTX ? &r->annot.nvtx : NULL;
}

const struct ct_nvtx_naming *ct_reader_nvtx_name(const struct ct_reader *r)
{
    return r->file_type == CT_REC_NVTX_NAME ? &r->annot.naming : NULL;
}

const struct ct_rank *ct_reader_rank(const struct ct_reader *r)
{
    return r->file_type == CT_REC_RANK ? &r->annot.rank : NULL;
}

const struct ct_thread_name *ct_reader_thread(const struct ct_reader *r)
{
    return r->file_type == CT_REC_THREAD ? &r->annot.thread : NULL;
}

const struct ct_process *ct_reader_process(const struct ct_reader *r)
{
    return r->file_type == CT_REC_PROCESS ? &r->annot.process : NULL;
}

const struct ct_counted *ct_reader_counted(const struct ct_reader *r)
{
    return r->file_type == CT_REC_COUNTED ? &r->annot.counted : NULL;
}

uint64_t ct_reader_unknown_shapes(const struct ct_reader *r) { return ct_decoder_unknown_shapes(r->dec); }

int ct_reader_build_runs(struct ct_reader *r)
{
    if (!r->runs && !(r->runs = ct_runs_new(r->have_header ? (uint64_t)r->header.start_mono_ns : 0)))
        return -1;
    return 0;
}

struct ct_runs *ct_reader_take_runs(struct ct_reader *r)
{
    struct ct_runs *x = r->runs;
    if (x)
        ct_runs_finish(x);
    r->runs = NULL;
    return x;
}

int ct_reader_rewind(struct ct_reader *r)
{
    if (!r->have_header)
        return -1;
    if (r->status == CT_READ_TRUNCATED || r->status == CT_READ_CORRUPT) {
        r->status = CT_READ_OK;
        r->msg[0] = '\0';
    }
    if (r->status != CT_READ_OK)
        return -1;
    r->start = r->end = 0;
    r->buf_off = r->data_start;
    ct_decoder_reset(r->dec);
    if (r->runs) {
        struct ct_runs *fresh = ct_runs_new((uint64_t)r->header.start_mono_ns);
        if (!fresh)
            return -1;
        ct_runs_free(r->runs);
        r->runs = fresh;
    }
    r->last = r->data_start;
    r->eof = 0;
    return 0;
}

enum ct_read_status ct_reader_status(const struct ct_reader *r) { return r->status; }

int ct_read_status_is_fatal(enum ct_read_status st)
{
    return st == CT_READ_NOT_TRACE || st == CT_READ_VERSION || st == CT_READ_BYTE_ORDER ||
           st == CT_READ_BAD_HEADER;
}

const char *ct_reader_message(const struct ct_reader *r) { return r->status == CT_READ_OK ? "" : r->msg; }

const struct ct_file_header *ct_reader_header(const struct ct_reader *r)
{
    return r->have_header ? &r->header : NULL;
}

uint64_t ct_reader_offset(const struct ct_reader *r) { return r->last; }

unsigned ct_reader_file_type(const struct ct_reader *r) { return r->file_type; }

const char *ct_reader_path(const struct ct_reader *r) { return r->path; }

/* ---- several files ---- */

struct ct_reader_set {
    size_t n, cur;
    struct ct_reader *files[];
};

struct ct_reader_set *ct_reader_set_open(const char *const *paths, size_t n)
{
    struct ct_reader_set *s = calloc(1, sizeof *s + n * sizeof s->files[0]);

    if (!s)
        return NULL;
    s->n = n;
    for (size_t i = 0; i < n; i++) {
        if (!(s->files[i] = ct_reader_open(paths[i]))) {
            ct_reader_set_close(s);
            return NULL;
        }
    }
    return s;
}

const struct ct_rec_hdr *ct_reader_set_next(struct ct_reader_set *s, size_t *file)
{
    for (; s->cur < s->n; s->cur++) {
        const struct ct_rec_hdr *h = ct_reader_next(s->files[s->cur]);
        if (h) {
            if (file)
                *file = s->cur;
            return h;
        }
    }
    return NULL;
}

size_t ct_reader_set_count(const struct ct_reader_set *s) { return s->n; }

struct ct_reader *ct_reader_set_file(struct ct_reader_set *s, size_t i) { return i < s->n ? s->files[i] : NULL; }

void ct_reader_set_close(struct ct_reader_set *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n; i++)
        ct_reader_close(s->files[i]);
    free(s);
}

/* ---- names: open-addressing hash maps keyed by id (ids come from the file, so no dense-array trust) ---- */

struct str_slot {
    uint32_t id; /* 0 = empty */
    uint16_t kind;
    char *s;
};

struct api_slot {
    uint32_t key; /* api_id + 1; 0 = empty */
    struct ct_api_info info;
    char *mem;    /* name and variant, each NUL terminated */
};

struct ct_names {
    struct str_slot *strs;
    size_t str_cap, str_n;
    struct api_slot *apis;
    size_t api_cap, api_n;
};

static size_t hash32(uint32_t x, size_t cap)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    return x & (cap - 1);
}

struct ct_names *ct_names_new(void) { return calloc(1, sizeof(struct ct_names)); }

void ct_names_free(struct ct_names *n)
{
    if (!n)
        return;
    for (size_t i = 0; i < n->str_cap; i++)
        free(n->strs[i].s);
    for (size_t i = 0; i < n->api_cap; i++)
        free(n->apis[i].mem);
    free(n->strs);
    free(n->apis);
    free(n);
}

static struct str_slot *str_find(struct str_slot *t, size_t cap, uint32_t id)
{
    size_t i = hash32(id, cap);
    while (t[i].id != 0 && t[i].id != id)
        i = (i + 1) & (cap - 1);
    return &t[i];
}

static struct api_slot *api_find(struct api_slot *t, size_t cap, uint32_t key)
{
    size_t i = hash32(key, cap);
    while (t[i].key != 0 && t[i].key != key)
        i = (i + 1) & (cap - 1);
    return &t[i];
}

/* Keep the load factor under 1/2. */
static int str_grow(struct ct_names *n)
{
    size_t cap = n->str_cap ? n->str_cap * 2 : 64;
    struct str_slot *t = calloc(cap, sizeof *t);

    if (!t)
        return -1;
    for (size_t i = 0; i < n->str_cap; i++)
        if (n->strs[i].id)
            *str_find(t, cap, n->strs[i].id) = n->strs[i];
    free(n->strs);
    n->strs = t;
    n->str_cap = cap;
    return 0;
}

static int api_grow(struct ct_names *n)
{
    size_t cap = n->api_cap ? n->api_cap * 2 : 256;
    struct api_slot *t = calloc(cap, sizeof *t);

    if (!t)
        return -1;
    for (size_t i = 0; i < n->api_cap; i++)
        if (n->apis[i].key)
            *api_find(t, cap, n->apis[i].key) = n->apis[i];
    free(n->apis);
    n->apis = t;
    n->api_cap = cap;
    return 0;
}

static int add_string(struct ct_names *n, const struct ct_rec_string *r)
{
    struct str_slot *slot;
    char *s;

    if ((n->str_n + 1) * 2 > n->str_cap && str_grow(n) < 0)
        return -1;
    if (!(s = strndup((const char *)(r + 1), r->len)))
        return -1;
    slot = str_find(n->strs, n->str_cap, r->id);
    if (slot->id == 0)
        n->str_n++;
    free(slot->s);
    slot->id = r->id;
    slot->kind = r->kind;
    slot->s = s;
    return 0;
}

static int add_api(struct ct_names *n, const struct ct_rec_api *r)
{
    struct api_slot *slot;
    const char *src = (const char *)(r + 1);
    char *mem;

    if ((n->api_n + 1) * 2 > n->api_cap && api_grow(n) < 0)
        return -1;
    if (!(mem = malloc((size_t)r->name_len + r->variant_len + 2)))
        return -1;
    memcpy(mem, src, r->name_len);
    mem[r->name_len] = '\0';
    memcpy(mem + r->name_len + 1, src + r->name_len, r->variant_len);
    mem[r->name_len + 1 + r->variant_len] = '\0';
    slot = api_find(n->apis, n->api_cap, (uint32_t)r->api_id + 1);
    if (slot->key == 0)
        n->api_n++;
    free(slot->mem);
    slot->key = (uint32_t)r->api_id + 1;
    slot->mem = mem;
    slot->info = (struct ct_api_info){mem, mem + r->name_len + 1, r->version, r->vflags, r->family};
    return 0;
}

int ct_names_add(struct ct_names *n, const struct ct_rec_hdr *rec)
{
    if (rec->type == CT_REC_STRING)
        return add_string(n, (const struct ct_rec_string *)rec);
    if (rec->type == CT_REC_API)
        return add_api(n, (const struct ct_rec_api *)rec);
    return 0;
}

const char *ct_names_string(const struct ct_names *n, uint32_t id, unsigned *kind)
{
    const struct str_slot *slot;

    if (id == 0 || n->str_cap == 0)
        return NULL;
    slot = str_find(n->strs, n->str_cap, id);
    if (slot->id == 0)
        return NULL;
    if (kind)
        *kind = slot->kind;
    return slot->s;
}

const struct ct_api_info *ct_names_api(const struct ct_names *n, uint16_t api_id)
{
    const struct api_slot *slot;

    if (n->api_cap == 0)
        return NULL;
    slot = api_find(n->apis, n->api_cap, (uint32_t)api_id + 1);
    return slot->key ? &slot->info : NULL;
}

int ct_reader_load_names(struct ct_reader *r, struct ct_names *n)
{
    const struct ct_rec_hdr *h;

    while ((h = ct_reader_next(r)))
        if (ct_names_add(n, h) < 0)
            return -1;
    return ct_reader_rewind(r);
}
