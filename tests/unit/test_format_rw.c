/* Writing and reading trace files: every record type round-trips; a file cut at every byte offset reads
 * without a crash, keeping every whole record before the cut and reporting where it stopped; damaged
 * records, a foreign file, a newer version and the other byte order are refused with a clear message. */
#include "config.h"

#include <CUnit/Basic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format/decoder.h"
#include "format/merge.h"
#include "format/reader.h"
#include "format/runs.h"
#include "format/record.h"

static char dir[] = "/tmp/ct-test-format-XXXXXX";
static char path[64];

/* The test trace: a header and one record of every type, built in memory. */
static unsigned char trace[4096];
static size_t trace_len;
static size_t rec_off[32], rec_count; /* where each record starts */

static void *add(size_t size)
{
    void *p = trace + trace_len;
    rec_off[rec_count++] = trace_len;
    memset(p, 0, size);
    trace_len += size;
    return p;
}

static struct ct_rec_call *add_call(uint16_t api, unsigned payload, uint64_t seq)
{
    size_t size = sizeof(struct ct_rec_call) + ct_payload_size(payload);
    struct ct_rec_call *c = add(size);
    ct_put_hdr(&c->h, CT_REC_CALL, size, 4242);
    c->api_id = api;
    c->payload = (uint8_t)payload;
    c->result = payload == CT_FAM_FREE ? 1 : 0;
    c->seq = seq;
    c->t0_ns = 1000 * seq;
    c->t1_ns = 1000 * seq + 17;
    return c;
}

static void build_trace(void)
{
    static const char cmd[] = "./app\0-x\0y z";
    struct ct_file_header *fh = (void *)trace;
    const char *k = "vecAdd<float>";

    trace_len = sizeof *fh;
    rec_count = 0;
    ct_file_header_init(fh, 123, 1, CT_FEAT_TIME_MONO, 1700000000000000000, 555);

    ct_put_process(add(ct_size_process(5, sizeof cmd)), "node1", 5, cmd, sizeof cmd);
    ct_put_api(add(ct_size_api(10, 13)), 0, "cuMemAlloc", "cuMemAlloc_v2", 3020, 0, CT_FAM_ALLOC);
    ct_put_api(add(ct_size_api(14, 19)), 1, "cuLaunchKernel", "cuLaunchKernel_ptsz", 7000, CT_VARIANT_PTSZ,
               CT_FAM_LAUNCH);
    ct_put_string(add(ct_size_string(strlen(k))), 4242, 7, CT_STR_KERNEL, k, strlen(k));

    add_call(0, CT_FAM_NONE, 1);
    struct ct_pl_alloc *a = (void *)(add_call(0, CT_FAM_ALLOC, 2) + 1);
    a->bytes = 4096, a->address = 0x7f00, a->kind = CT_MEM_DEVICE, a->device = 0;
    struct ct_pl_free *f = (void *)(add_call(0, CT_FAM_FREE, 3) + 1);
    f->address = 0x7f00, f->kind = CT_MEM_DEVICE;
    struct ct_pl_launch *l = (void *)(add_call(1, CT_FAM_LAUNCH, 4) + 1);
    l->name_id = 7, l->grid[0] = 4, l->block[0] = 256, l->kind = CT_LAUNCH_KERNEL, l->function = 0xf00;
    struct ct_pl_copy *c = (void *)(add_call(1, CT_FAM_COPY, 5) + 1);
    c->bytes = 256, c->flags = CT_COPY_ASYNC | CT_COPY_2D, c->src_kind = CT_MEM_HOST, c->dst_kind = CT_MEM_DEVICE;
    c->src_device = c->dst_device = -1, c->width = 16, c->height = 16;

    struct ct_rec_lost *lo = add(sizeof *lo);
    ct_put_hdr(&lo->h, CT_REC_LOST, sizeof *lo, 4242);
    lo->count = 12, lo->t_first_ns = 10, lo->t_last_ns = 20, lo->reason = CT_LOST_BUFFER_FULL;
    struct ct_rec_driver *d = add(sizeof *d);
    ct_put_hdr(&d->h, CT_REC_DRIVER, sizeof *d, 0);
    d->driver_version = 13000, d->device_count = 1;
    struct ct_rec_device *dv = add(sizeof *dv);
    ct_put_hdr(&dv->h, CT_REC_DEVICE, sizeof *dv, 0);
    dv->ordinal = 0, dv->total_mem = 80ull << 30, dv->uuid[0] = 0xab;
    strcpy(dv->name, "NVIDIA H100 80GB HBM3");
    struct ct_rec_thread *t = add(sizeof *t);
    ct_put_hdr(&t->h, CT_REC_THREAD, sizeof *t, 4242);
    t->name_id = 8;
    ct_put_string(add(ct_size_string(6)), 4242, 8, CT_STR_THREAD, "worker", 6);
    struct ct_rec_untraced *u = add(sizeof *u);
    ct_put_hdr(&u->h, CT_REC_UNTRACED, sizeof *u, 0);
    u->name_id = 9, u->count = 3;
    static const uint64_t frames[] = {0x401234, 0x401300, 0x7f0000001000};
    static const uint8_t bid[20] = {0xde, 0xad, 0xbe, 0xef};
    ct_put_module(add(ct_size_module(9)), 0x400000, 0x400000, 0x402000, "/bin/app1", 9, bid, sizeof bid, 0);
    ct_put_module(add(ct_size_module(17)), 0x7f0000000000, 0x7f0000000000, 0x7f0000100000, "/lib/libcuda.so.1",
                  17, NULL, 0, CT_MOD_INTERNAL);
    ct_put_stack(add(ct_size_stack(3)), 4242, 1, frames, 3, 2);
    static const struct ct_py_frame py[] = {{10, 11, 142, 1, 0}, {10, 12, 7, 3, 0}};
    ct_put_pystack(add(ct_size_pystack(2)), 4242, 1, py, 2);
    ct_put_stack(add(ct_size_stack(0)), 4242, 2, frames, 0, 0);
    struct ct_rec_hdr *unknown = add(24); /* a type from a newer writer: skipped, not an error */
    ct_put_hdr(unknown, 200, 24, 0);
    struct ct_rec_end *e = add(sizeof *e);
    ct_put_hdr(&e->h, CT_REC_END, sizeof *e, 0);
    e->calls = 5, e->lost = 12, e->untraced = 3, e->end_mono_ns = 999;
}

static void write_file(const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    CU_ASSERT_FATAL(f != NULL);
    CU_ASSERT_EQUAL(fwrite(data, 1, len, f), len);
    fclose(f);
}

static void test_round_trip(void)
{
    struct ct_reader *r;
    const struct ct_rec_hdr *h;
    size_t i = 0;

    write_file(trace, trace_len);
    r = ct_reader_open(path);
    CU_ASSERT_FATAL(r != NULL);
    CU_ASSERT_EQUAL(ct_reader_status(r), CT_READ_OK);
    CU_ASSERT_STRING_EQUAL(ct_reader_message(r), "");
    CU_ASSERT_FATAL(ct_reader_header(r) != NULL);
    CU_ASSERT_EQUAL(memcmp(ct_reader_header(r), trace, sizeof(struct ct_file_header)), 0);
    CU_ASSERT_EQUAL(ct_reader_header(r)->pid, 123);
    CU_ASSERT_STRING_EQUAL(ct_reader_header(r)->tracer_version, PACKAGE_VERSION);
    while ((h = ct_reader_next(r))) {
        CU_ASSERT_FATAL(i < rec_count);
        CU_ASSERT_EQUAL(ct_reader_offset(r), rec_off[i]);
        CU_ASSERT_EQUAL(h->size, (i + 1 < rec_count ? rec_off[i + 1] : trace_len) - rec_off[i]);
        CU_ASSERT_EQUAL(memcmp(h, trace + rec_off[i], h->size), 0);
        CU_ASSERT_EQUAL((uintptr_t)h % 8, 0);
        i++;
    }
    CU_ASSERT_EQUAL(i, rec_count);
    CU_ASSERT_EQUAL(ct_reader_status(r), CT_READ_OK);
    CU_ASSERT_PTR_NULL(ct_reader_next(r)); /* stays at the end */

    /* Rewind and read again. */
    CU_ASSERT_EQUAL(ct_reader_rewind(r), 0);
    for (i = 0; ct_reader_next(r); i++) {
    }
    CU_ASSERT_EQUAL(i, rec_count);
    ct_reader_close(r);
}

/* Stack and module records: what was put is what is read, and their lengths are checked. */
static void test_stack_module_records(void)
{
    struct ct_reader *r;
    const struct ct_rec_hdr *h;
    int stacks = 0, modules = 0, pystacks = 0;

    write_file(trace, trace_len);
    r = ct_reader_open(path);
    CU_ASSERT_FATAL(r != NULL);
    while ((h = ct_reader_next(r))) {
        if (h->type == CT_REC_STACK) {
            const struct ct_rec_stack *s = (const void *)h;
            const uint64_t *f = (const void *)(s + 1);
            if (s->id == 1) {
                CU_ASSERT_EQUAL(s->nframes, 3);
                CU_ASSERT_EQUAL(s->trimmed, 2);
                CU_ASSERT_EQUAL(f[0], 0x401234);
                CU_ASSERT_EQUAL(f[2], 0x7f0000001000);
            } else {
                CU_ASSERT_EQUAL(s->id, 2);
                CU_ASSERT_EQUAL(s->nframes, 0);
            }
            stacks++;
        } else if (h->type == CT_REC_PYSTACK) {
            const struct ct_rec_pystack *p = (const void *)h;
            struct ct_py_frame f[2];
            CU_ASSERT_EQUAL(p->id, 1);
            CU_ASSERT_EQUAL_FATAL(p->nframes, 2);
            memcpy(f, p + 1, sizeof f);
            CU_ASSERT(f[0].file_id == 10 && f[0].name_id == 11 && f[0].line == 142 && f[0].before == 1);
            CU_ASSERT(f[1].name_id == 12 && f[1].line == 7 && f[1].before == 3);
            pystacks++;
        } else if (h->type == CT_REC_MODULE) {
            const struct ct_rec_module *m = (const void *)h;
            if (modules++ == 0) {
                CU_ASSERT_EQUAL(m->path_len, 9);
                CU_ASSERT_EQUAL(memcmp(m + 1, "/bin/app1", 9), 0);
                CU_ASSERT_EQUAL(m->build_id_len, 20);
                CU_ASSERT_EQUAL(m->build_id[3], 0xef);
                CU_ASSERT_EQUAL(m->hi, 0x402000);
            } else {
                CU_ASSERT_EQUAL(m->flags, CT_MOD_INTERNAL);
                CU_ASSERT_EQUAL(m->build_id_len, 0);
            }
        }
    }
    CU_ASSERT_EQUAL(ct_reader_status(r), CT_READ_OK);
    CU_ASSERT_EQUAL(stacks, 2);
    CU_ASSERT_EQUAL(pystacks, 1);
    CU_ASSERT_EQUAL(modules, 2);
    ct_reader_close(r);

    unsigned char buf[64];
    uint64_t f = 1;
    ct_put_stack(buf, 0, 3, &f, 1, 0);
    ((struct ct_rec_stack *)buf)->nframes = 2; /* more frames than the record holds */
    CU_ASSERT_PTR_NOT_NULL(ct_rec_check((void *)buf, sizeof buf));
    ct_put_stack(buf, 0, 0, &f, 1, 0);
    CU_ASSERT_PTR_NOT_NULL(ct_rec_check((void *)buf, sizeof buf)); /* id 0 */
    CU_ASSERT_EQUAL(ct_size_stack(100000), sizeof(struct ct_rec_stack) + 8 * CT_STACK_MAX_FRAMES);

    struct ct_py_frame pf = {1, 2, 3, 0, 0};
    ct_put_pystack(buf, 0, 3, &pf, 1);
    CU_ASSERT_PTR_NULL(ct_rec_check((void *)buf, sizeof buf));
    ((struct ct_rec_pystack *)buf)->nframes = 2; /* more frames than the record holds */
    CU_ASSERT_PTR_NOT_NULL(ct_rec_check((void *)buf, sizeof buf));
    ct_put_pystack(buf, 0, 0, &pf, 1);
    CU_ASSERT_PTR_NOT_NULL(ct_rec_check((void *)buf, sizeof buf)); /* id 0 */
    CU_ASSERT_EQUAL(ct_size_pystack(100000), sizeof(struct ct_rec_pystack) + 16 * CT_STACK_MAX_FRAMES);
}

static void test_process_record(void)
{
    const struct ct_rec_process *p = (const void *)(trace + rec_off[0]);
    CU_ASSERT_EQUAL(p->h.type, CT_REC_PROCESS);
    CU_ASSERT_EQUAL(p->argc, 3);
    CU_ASSERT_EQUAL(p->host_len, 5);
    CU_ASSERT_EQUAL(memcmp(p + 1, "node1./app", 10), 0);
    CU_ASSERT_EQUAL(p->h.size % 8, 0);
}

static void test_names(void)
{
    struct ct_reader *r;
    struct ct_names *n = ct_names_new();
    const struct ct_api_info *api;
    unsigned kind = 0;

    write_file(trace, trace_len);
    r = ct_reader_open(path);
    CU_ASSERT_EQUAL(ct_reader_load_names(r, n), 0);
    CU_ASSERT_STRING_EQUAL(ct_names_string(n, 7, &kind), "vecAdd<float>");
    CU_ASSERT_EQUAL(kind, CT_STR_KERNEL);
    CU_ASSERT_STRING_EQUAL(ct_names_string(n, 8, NULL), "worker");
    CU_ASSERT_PTR_NULL(ct_names_string(n, 9, NULL));
    CU_ASSERT_PTR_NULL(ct_names_string(n, 0, NULL));
    api = ct_names_api(n, 1);
    CU_ASSERT_FATAL(api != NULL);
    CU_ASSERT_STRING_EQUAL(api->name, "cuLaunchKernel");
    CU_ASSERT_STRING_EQUAL(api->variant, "cuLaunchKernel_ptsz");
    CU_ASSERT_EQUAL(api->version, 7000);
    CU_ASSERT_EQUAL(api->vflags, CT_VARIANT_PTSZ);
    CU_ASSERT_EQUAL(api->family, CT_FAM_LAUNCH);
    CU_ASSERT_PTR_NULL(ct_names_api(n, 2));
    /* After load_names the reader is back at the first record. */
    CU_ASSERT_EQUAL(ct_reader_next(r)->type, CT_REC_PROCESS);
    ct_reader_close(r);
    ct_names_free(n);
}

/* Many ids, sparse: the tables grow and keep them all. */
static void test_names_many(void)
{
    struct ct_names *n = ct_names_new();
    unsigned char rec[64];
    char s[32];

    for (uint32_t id = 1; id <= 5000; id++) {
        snprintf(s, sizeof s, "k%u", id * 3);
        ct_put_string(rec, 0, id * 1000003u, CT_STR_KERNEL, s, strlen(s));
        CU_ASSERT_EQUAL(ct_names_add(n, (void *)rec), 0);
    }
    for (uint32_t id = 1; id <= 5000; id++) {
        snprintf(s, sizeof s, "k%u", id * 3);
        CU_ASSERT_STRING_EQUAL(ct_names_string(n, id * 1000003u, NULL), s);
    }
    ct_names_free(n);
}

static void test_truncated_everywhere(void)
{
    for (size_t cut = 0; cut <= trace_len; cut++) {
        struct ct_reader *r;
        size_t whole = 0, n = 0, boundary = cut == trace_len;

        for (size_t i = 0; i < rec_count; i++) {
            size_t end = i + 1 < rec_count ? rec_off[i + 1] : trace_len;
            if (end <= cut)
                whole++;
            if (rec_off[i] == cut)
                boundary = 1;
        }
        write_file(trace, cut);
        r = ct_reader_open(path);
        CU_ASSERT_FATAL(r != NULL);
        while (ct_reader_next(r))
            n++;
        CU_ASSERT_EQUAL(n, whole);
        if (boundary) {
            CU_ASSERT_EQUAL(ct_reader_status(r), CT_READ_OK);
        } else {
            char want[128];
            size_t at = cut < sizeof(struct ct_file_header) ? cut : rec_off[whole];
            CU_ASSERT_EQUAL(ct_reader_status(r), CT_READ_TRUNCATED);
            snprintf(want, sizeof want, "%s: truncated at byte %zu (", path, at);
            CU_ASSERT_EQUAL(strncmp(ct_reader_message(r), want, strlen(want)), 0);
            if (cut >= sizeof(struct ct_file_header))
                CU_ASSERT_EQUAL(ct_reader_offset(r), at);
            CU_ASSERT_EQUAL(ct_read_status_is_fatal(ct_reader_status(r)), 0);
        }
        ct_reader_close(r);
    }
}

/* Damage the record at index `i` with `mutate`, expect the reader to keep the records before it. */
static void expect_corrupt_at(size_t i, void (*mutate)(unsigned char *rec), const char *reason)
{
    unsigned char copy[sizeof trace];
    struct ct_reader *r;
    size_t n = 0;
    char want[256];

    memcpy(copy, trace, trace_len);
    mutate(copy + rec_off[i]);
    write_file(copy, trace_len);
    r = ct_reader_open(path);
    while (ct_reader_next(r))
        n++;
    CU_ASSERT_EQUAL(n, i);
    CU_ASSERT_EQUAL(ct_reader_status(r), CT_READ_CORRUPT);
    CU_ASSERT_EQUAL(ct_reader_offset(r), rec_off[i]);
    snprintf(want, sizeof want, "%s: corrupt at byte %zu (%s)", path, rec_off[i], reason);
    CU_ASSERT_STRING_EQUAL(ct_reader_message(r), want);
    ct_reader_close(r);
}

static void bad_marker(unsigned char *rec) { rec[0] = 0; }
static void zero_size(unsigned char *rec) { ((struct ct_rec_hdr *)rec)->size = 0; }
static void odd_size(unsigned char *rec) { ((struct ct_rec_hdr *)rec)->size += 4; }
static void type_zero(unsigned char *rec) { ((struct ct_rec_hdr *)rec)->type = 0; }
static void long_string(unsigned char *rec) { ((struct ct_rec_string *)rec)->len = 200; }
static void bad_payload(unsigned char *rec) { ((struct ct_rec_call *)rec)->payload = 9; }
static void short_call(unsigned char *rec) { ((struct ct_rec_call *)rec)->payload = CT_FAM_COPY; }

static void test_corrupt(void)
{
    expect_corrupt_at(2, bad_marker, "bad record marker");
    expect_corrupt_at(4, zero_size, "bad record size");
    expect_corrupt_at(4, odd_size, "bad record size");
    expect_corrupt_at(5, type_zero, "record type 0");
    expect_corrupt_at(3, long_string, "string record length exceeds its size");
    expect_corrupt_at(4, bad_payload, "call record with an unknown payload");
    expect_corrupt_at(5, short_call, "call record too small for its payload");
}

static void expect_refused(const void *data, size_t len, enum ct_read_status st, const char *msg)
{
    struct ct_reader *r;
    char want[256];

    write_file(data, len);
    r = ct_reader_open(path);
    CU_ASSERT_FATAL(r != NULL);
    CU_ASSERT_EQUAL(ct_reader_status(r), st);
    CU_ASSERT(ct_read_status_is_fatal(st));
    CU_ASSERT_PTR_NULL(ct_reader_header(r));
    CU_ASSERT_PTR_NULL(ct_reader_next(r));
    snprintf(want, sizeof want, "%s: %s", path, msg);
    CU_ASSERT_STRING_EQUAL(ct_reader_message(r), want);
    ct_reader_close(r);
}

static void test_refused(void)
{
    unsigned char copy[sizeof trace];
    struct ct_file_header *fh = (void *)copy;
    char msg[256];

    expect_refused("#!/bin/sh\necho hello\n", 21, CT_READ_NOT_TRACE, "not a cudatrace trace");
    memcpy(copy, trace, trace_len);
    fh->format_version = CT_FORMAT_VERSION + 1;
    snprintf(msg, sizeof msg, "trace format version %u is not supported (this reader reads versions 1 to %u)",
             CT_FORMAT_VERSION + 1, CT_FORMAT_VERSION);
    expect_refused(copy, trace_len, CT_READ_VERSION, msg);
    memcpy(copy, trace, trace_len);
    fh->format_version = 0;
    snprintf(msg, sizeof msg, "trace format version 0 is not supported (this reader reads versions 1 to %u)",
             CT_FORMAT_VERSION);
    expect_refused(copy, trace_len, CT_READ_VERSION, msg);
    memcpy(copy, trace, trace_len);
    fh->byte_order = __builtin_bswap32(CT_BYTE_ORDER_MARK);
    fh->format_version = __builtin_bswap32(2u);
    snprintf(msg, sizeof msg,
             "trace written on a host of the other byte order (format version 2); this reader reads "
             "versions 1 to %u in native byte order only",
             CT_FORMAT_VERSION);
    expect_refused(copy, trace_len, CT_READ_BYTE_ORDER, msg);
    memcpy(copy, trace, trace_len);
    fh->header_size = 12;
    expect_refused(copy, trace_len, CT_READ_BAD_HEADER, "bad header size 12");
}

/* Launch shapes (format 2): full launch records fill a thread's slots, repeats come back as the full call
 * records they stand for, per thread; a repeat of a slot never filled or of a newer payload than the file
 * holds comes back with an unknown (zeroed) payload and is counted. */
static unsigned char shaped[2048];
static size_t shaped_len;

static void shaped_full(uint32_t tid, uint64_t seq, unsigned shape, uint32_t gen, uint64_t function)
{
    struct ct_rec_call *c = (void *)(shaped + shaped_len);
    struct ct_pl_launch *pl = (void *)(c + 1);

    memset(c, 0, sizeof *c + sizeof *pl);
    ct_put_hdr(&c->h, CT_REC_CALL, sizeof *c + sizeof *pl, tid);
    c->api_id = 1, c->payload = CT_FAM_LAUNCH, c->shape = (uint8_t)shape, c->shape_gen = gen, c->result = 2;
    c->stack_id = 3;
    c->seq = seq, c->t0_ns = 100 * seq, c->t1_ns = 100 * seq + 9;
    pl->function = function, pl->name_id = 7, pl->grid[0] = (uint32_t)function, pl->block[0] = 32;
    pl->kind = CT_LAUNCH_KERNEL;
    shaped_len += sizeof *c + sizeof *pl;
}

static void shaped_repeat(uint32_t tid, uint64_t seq, unsigned shape, unsigned gen)
{
    struct ct_rec_launch_repeat *p = (void *)(shaped + shaped_len);

    memset(p, 0, sizeof *p);
    ct_put_hdr(&p->h, CT_REC_LAUNCH_REPEAT, sizeof *p, tid);
    p->api_id = 1, p->shape = (uint8_t)shape, p->shape_gen = (uint8_t)gen;
    p->seq = seq, p->t0_ns = 100 * seq, p->dur_ns = 40;
    shaped_len += sizeof *p;
}

/* Reads the shaped trace: each call's seq, function and grid[0] (0 when unknown) into the arrays. */
static size_t read_shaped(struct ct_reader *r, uint64_t *seq, uint64_t *function, uint64_t *bytes)
{
    const struct ct_rec_hdr *h;
    uint64_t off[16];
    size_t n = 0;

    while ((h = ct_reader_next(r))) {
        const struct ct_rec_call *c = (const void *)h;
        const struct ct_pl_launch *pl = (const void *)(c + 1);
        CU_ASSERT_EQUAL_FATAL(h->type, CT_REC_CALL);
        CU_ASSERT_EQUAL_FATAL(h->size, sizeof *c + sizeof *pl);
        CU_ASSERT_EQUAL(c->payload, CT_FAM_LAUNCH);
        CU_ASSERT_EQUAL(pl->function, pl->grid[0]);
        if (ct_reader_file_type(r) == CT_REC_LAUNCH_REPEAT) { /* its times come through; success, no stack */
            CU_ASSERT_EQUAL(c->t0_ns, 100 * c->seq);
            CU_ASSERT_EQUAL(c->t1_ns, 100 * c->seq + 40);
            CU_ASSERT_EQUAL(c->result, 0);
            CU_ASSERT_EQUAL(c->stack_id, 0);
            CU_ASSERT_EQUAL(c->shape, 0);
        } else { /* a full record, as written */
            CU_ASSERT_EQUAL(c->t1_ns, 100 * c->seq + 9);
            CU_ASSERT_EQUAL(c->result, 2);
            CU_ASSERT_EQUAL(c->stack_id, 3);
        }
        CU_ASSERT_FATAL(n < 16);
        off[n] = ct_reader_offset(r);
        seq[n] = c->seq;
        function[n++] = pl->function;
    }
    for (size_t i = 0; i < n; i++) /* the records are all calls: each ends where the next begins */
        bytes[i] = (i + 1 < n ? off[i + 1] : shaped_len) - off[i];
    return n;
}

static void shaped_clock(uint64_t base_ticks, uint64_t base_ns, double ns_per_tick)
{
    struct ct_rec_clock *k = (void *)(shaped + shaped_len);

    ct_put_hdr(&k->h, CT_REC_CLOCK, sizeof *k, 0);
    k->base_ticks = base_ticks, k->base_ns = base_ns, k->ns_per_tick = ns_per_tick;
    shaped_len += sizeof *k;
}

static void shaped_call(uint64_t seq, uint64_t t0, uint64_t t1)
{
    struct ct_rec_call *c = (void *)(shaped + shaped_len);

    memset(c, 0, sizeof *c);
    ct_put_hdr(&c->h, CT_REC_CALL, sizeof *c, 1);
    c->api_id = 1, c->seq = seq, c->t0_ns = t0, c->t1_ns = t1;
    shaped_len += sizeof *c;
}

/* Clocks (format 3): times before the first CT_REC_CLOCK are ns; after one, ticks converted with it (below
 * its base too), a repeat's duration with them; a later clock takes over; clock records never come back;
 * a rewind starts over; a clock with an impossible tick length is corruption. */
static void test_clocks(void)
{
    struct ct_file_header *fh = (void *)shaped;
    static const uint64_t want_t0[] = {1000, 50200, 49900, 50500, 51000, 200};
    static const uint64_t want_t1[] = {1010, 50210, 49905, 50504, 51020, 300};
    const size_t nwant = sizeof want_t0 / sizeof want_t0[0];
    const struct ct_rec_hdr *h;
    struct ct_reader *r;
    size_t n, clock_at;

    shaped_len = sizeof *fh;
    ct_file_header_init(fh, 123, 1, CT_FEAT_TIME_MONO, 1700000000000000000, 555);
    shaped_call(1, 1000, 1010); /* ns */
    clock_at = shaped_len;
    shaped_clock(2000, 50000, 0.5);
    shaped_call(2, 2400, 2420);
    shaped_call(3, 1800, 1810);    /* below the base */
    shaped_full(1, 30, 3, 1, 0xa0); /* ticks 3000..3009 */
    shaped_repeat(1, 40, 3, 1);     /* ticks 4000, 40 long */
    shaped_clock(0, 0, 2.0);
    shaped_call(50, 100, 150);
    write_file(shaped, shaped_len);

    r = ct_reader_open(path);
    CU_ASSERT_FATAL(r != NULL);
    for (int pass = 0; pass < 2; pass++) {
        for (n = 0; (h = ct_reader_next(r)); n++) {
            const struct ct_rec_call *c = (const void *)h;
            CU_ASSERT_EQUAL_FATAL(h->type, CT_REC_CALL);
            CU_ASSERT_FATAL(n < nwant);
            CU_ASSERT_EQUAL(c->t0_ns, want_t0[n]);
            CU_ASSERT_EQUAL(c->t1_ns, want_t1[n]);
        }
        CU_ASSERT_EQUAL(n, nwant);
        CU_ASSERT_EQUAL(ct_reader_status(r), CT_READ_OK);
        CU_ASSERT_EQUAL(ct_reader_rewind(r), 0);
    }
    ct_reader_close(r);

    ((struct ct_rec_clock *)(shaped + clock_at))->ns_per_tick = 0;
    write_file(shaped, shaped_len);
    r = ct_reader_open(path);
    CU_ASSERT_FATAL(r != NULL);
    CU_ASSERT_PTR_NOT_NULL(ct_reader_next(r));
    CU_ASSERT_PTR_NULL(ct_reader_next(r));
    CU_ASSERT_EQUAL(ct_reader_status(r), CT_READ_CORRUPT);
    CU_ASSERT_PTR_NOT_NULL(strstr(ct_reader_message(r), "clock record with an impossible tick length"));
    ct_reader_close(r);
}

static void test_launch_repeats(void)
{
    struct ct_file_header *fh = (void *)shaped;
    uint64_t seq[16], function[16], bytes[16];
    static const uint64_t want_fn[] = {0xa0, 0xa0, 0xb0, 0xa0, 0xb0, 0, 0xc0, 0xc0, 0, 0xa0};
    const size_t full = sizeof(struct ct_rec_call) + sizeof(struct ct_pl_launch);
    struct ct_reader *r;

    shaped_len = sizeof *fh;
    ct_file_header_init(fh, 123, 1, CT_FEAT_TIME_MONO, 1700000000000000000, 555);
    shaped_full(1, 1, 3, 1, 0xa0);
    shaped_repeat(1, 2, 3, 1);
    shaped_full(2, 3, 3, 1, 0xb0); /* the same slot in another thread */
    shaped_repeat(1, 4, 3, 1);
    shaped_repeat(2, 5, 3, 1);
    shaped_repeat(1, 6, 5, 1);     /* a slot never filled */
    shaped_full(1, 7, 3, 2, 0xc0); /* slot 3 of thread 1 now holds another payload */
    shaped_repeat(1, 8, 3, 2);
    shaped_repeat(1, 9, 3, 3);     /* generation 3's full record is not in the file (a write error) */
    shaped_full(1, 10, 4, 1, 0xa0);
    write_file(shaped, shaped_len);

    for (int pass = 0; pass < 2; pass++) { /* the second after a rewind: the slots are rebuilt, not kept */
        r = pass == 0 ? ct_reader_open(path) : r;
        CU_ASSERT_FATAL(r != NULL);
        CU_ASSERT_EQUAL_FATAL(ct_reader_status(r), CT_READ_OK);
        CU_ASSERT_EQUAL_FATAL(read_shaped(r, seq, function, bytes), 10);
        CU_ASSERT_EQUAL(ct_reader_status(r), CT_READ_OK);
        for (size_t i = 0; i < 10; i++) {
            CU_ASSERT_EQUAL(seq[i], i + 1);
            CU_ASSERT_EQUAL(function[i], want_fn[i]);
            CU_ASSERT_EQUAL(bytes[i], i == 0 || i == 2 || i == 6 || i == 9 ? full : 32);
        }
        CU_ASSERT_EQUAL(ct_reader_unknown_shapes(r), 2);
        if (pass == 0)
            CU_ASSERT_EQUAL_FATAL(ct_reader_rewind(r), 0);
    }
    ct_reader_close(r);

    /* Slots out of range are corrupt records. */
    ((struct ct_rec_launch_repeat *)(shaped + sizeof *fh + full))->shape = 0;
    write_file(shaped, shaped_len);
    r = ct_reader_open(path);
    CU_ASSERT_PTR_NOT_NULL(ct_reader_next(r));
    CU_ASSERT_PTR_NULL(ct_reader_next(r));
    CU_ASSERT_EQUAL(ct_reader_status(r), CT_READ_CORRUPT);
    CU_ASSERT_PTR_NOT_NULL(strstr(ct_reader_message(r), "launch repeat with a bad shape slot"));
    ct_reader_close(r);
    ((struct ct_rec_call *)(shaped + sizeof *fh))->shape = CT_LAUNCH_SHAPES + 1;
    write_file(shaped, shaped_len);
    r = ct_reader_open(path);
    CU_ASSERT_PTR_NULL(ct_reader_next(r));
    CU_ASSERT_PTR_NOT_NULL(strstr(ct_reader_message(r), "call record with a bad launch shape slot"));
    ct_reader_close(r);
}

static void shaped_short(uint32_t tid, unsigned shape, uint32_t dt0, uint32_t dur)
{
    struct ct_rec_launch_short *p = (void *)(shaped + shaped_len);

    ct_put_hdr(&p->h, CT_REC_LAUNCH_SHORT, sizeof *p, tid);
    p->dt0 = dt0;
    p->dur_slot = dur | (uint32_t)(shape - 1) << CT_SHORT_DUR_BITS;
    shaped_len += sizeof *p;
}

/* Short repeats (format 4): each comes back as the full call it stands for, its seq one more than its
 * thread's last call, its api and payload its slot's, its t0 counted in ticks from its slot's last launch
 * (not from a call of another kind in between), then converted by the clock; a 32-byte repeat of another
 * api changes the slot's api; a short of a slot never seen is counted unknown, with its time counted from
 * its thread's last call; after a long repeat of a generation the file lacks, shorts of that slot are
 * unknown too; a short of a thread never seen counts from the clock's base. */
static void test_launch_shorts(void)
{
    struct ct_file_header *fh = (void *)shaped;
    static const struct {
        uint32_t tid;
        uint64_t seq, t0, t1, function;
        uint16_t api;
    } want[] = {
        {1, 1, 200, 218, 0xa0, 1},        {1, 2, 300, 314, 0xa0, 1},   {2, 10, 2000, 2002, 0, 1},
        {2, 11, 2200, 2218, 0xb0, 1},     {2, 12, 2240, 2250, 0xb0, 1}, {1, 3, 400, 402, 0, 1},
        {1, 4, 500, 502, 0xa0, 1},        {1, 5, 1000, 1080, 0xa0, 2}, {1, 6, 1020, 1026, 0xa0, 2},
        {1, 7, 1040, 1040, 0, UINT16_MAX},
        {1, 8, 1600, 1680, 0, 1},         {1, 9, 1610, 1612, 0, 1},    {3, 1, 5000014, 5000016, 0, UINT16_MAX},
    };
    const size_t nwant = sizeof want / sizeof want[0];
    const struct ct_rec_hdr *h;
    struct ct_reader *r;
    size_t n;

    shaped_len = sizeof *fh;
    ct_file_header_init(fh, 123, 1, CT_FEAT_TIME_MONO, 1700000000000000000, 555);
    shaped_clock(0, 0, 2.0);
    shaped_full(1, 1, 3, 1, 0xa0); /* ticks 100..109 */
    shaped_short(1, 3, 50, 7);     /* 150..157 */
    shaped_call(10, 1000, 1001);
    ((struct ct_rec_call *)(shaped + shaped_len) - 1)->h.tid = 2;
    shaped_full(2, 11, 3, 1, 0xb0); /* the same slot in another thread: 1100..1109 */
    shaped_short(2, 3, 20, 5);
    shaped_call(3, 200, 201);       /* thread 1, not a launch */
    shaped_short(1, 3, 100, 1);     /* from 150, the slot's last launch */
    shaped_repeat(1, 5, 3, 1);      /* 500, 40 long */
    ((struct ct_rec_launch_repeat *)(shaped + shaped_len) - 1)->api_id = 2;
    shaped_short(1, 3, 10, 3);
    shaped_short(1, 9, 10, 0);      /* slot 9 never named */
    shaped_repeat(1, 8, 3, 2);      /* generation 2's full record is not in the file: unknown, 800 ticks */
    ((struct ct_rec_launch_repeat *)(shaped + shaped_len) - 1)->api_id = 1;
    shaped_short(1, 3, 5, 1);       /* stands for generation 2 too: unknown, not the older payload */
    shaped_clock(1000000, 5000000, 2.0);
    shaped_short(3, 2, 7, 1);       /* a thread never seen: from the clock's base */
    write_file(shaped, shaped_len);

    r = ct_reader_open(path);
    CU_ASSERT_FATAL(r != NULL);
    for (int pass = 0; pass < 2; pass++) { /* the second after a rewind */
        uint64_t short_at = 0; /* where the last short repeat began, +1; 0: the last record was not one */
        for (n = 0; (h = ct_reader_next(r)); n++) {
            if (short_at) { /* a short repeat takes 16 bytes of the file: the next record (or clock) is there */
                const uint64_t gap = ct_reader_offset(r) - (short_at - 1);
                CU_ASSERT(gap == 16 || gap == 16 + sizeof(struct ct_rec_clock));
            }
            short_at = ct_reader_file_type(r) == CT_REC_LAUNCH_SHORT ? ct_reader_offset(r) + 1 : 0;
            const struct ct_rec_call *c = (const void *)h;
            const struct ct_pl_launch *pl = (const void *)(c + 1);
            CU_ASSERT_EQUAL_FATAL(h->type, CT_REC_CALL);
            CU_ASSERT_FATAL(n < nwant);
            CU_ASSERT_EQUAL(h->tid, want[n].tid);
            CU_ASSERT_EQUAL(c->seq, want[n].seq);
            CU_ASSERT_EQUAL(c->t0_ns, want[n].t0);
            CU_ASSERT_EQUAL(c->t1_ns, want[n].t1);
            CU_ASSERT_EQUAL(c->api_id, want[n].api);
            if (c->payload == CT_FAM_LAUNCH)
                CU_ASSERT_EQUAL(pl->function, want[n].function);
            if (ct_reader_file_type(r) == CT_REC_LAUNCH_SHORT) {
                CU_ASSERT_EQUAL(c->result, 0);
                CU_ASSERT_EQUAL(c->stack_id, 0);
            }
        }
        CU_ASSERT_EQUAL(n, nwant);
        if (short_at)
            CU_ASSERT_EQUAL(shaped_len - (short_at - 1), 16);
        CU_ASSERT_EQUAL(ct_reader_status(r), CT_READ_OK);
        CU_ASSERT_EQUAL(ct_reader_unknown_shapes(r), 4);
        if (pass == 0)
            CU_ASSERT_EQUAL_FATAL(ct_reader_rewind(r), 0);
    }
    ct_reader_close(r);
}

static void shaped_call_short(uint32_t tid, uint16_t api, uint32_t dt0, uint16_t dur)
{
    struct ct_rec_call_short *p = (void *)(shaped + shaped_len);

    ct_put_hdr(&p->h, CT_REC_CALL_SHORT, sizeof *p, tid);
    p->api_id = api, p->dt0 = dt0, p->dur = dur;
    shaped_len += sizeof *p;
}

/* Short calls (format 7): each comes back as a full call record without payload, successful and without a
 * stack, its seq one more than its thread's last call of any kind, its t0 counted in ticks from that call's
 * t0 (a launch's, a launch repeat's, a short call's), then converted by the clock; a short call of a thread
 * never seen counts from the clock's base. */
static void test_call_shorts(void)
{
    struct ct_file_header *fh = (void *)shaped;
    static const struct {
        uint32_t tid;
        uint64_t seq, t0, t1;
        uint16_t api;
    } want[] = {
        {1, 5, 200, 208, 1},   {1, 6, 220, 226, 7},   {1, 7, 1400, 1418, 1}, {1, 8, 1410, 1410, 8},
        {1, 9, 1500, 1504, 1}, {1, 10, 1502, 1502 + 2 * 65535, 9}, {2, 1, 14, 16, 3},
    };
    const size_t nwant = sizeof want / sizeof want[0];
    const struct ct_rec_hdr *h;
    struct ct_reader *r;
    size_t n;

    shaped_len = sizeof *fh;
    ct_file_header_init(fh, 123, 1, CT_FEAT_TIME_MONO, 1700000000000000000, 555);
    shaped_clock(0, 0, 2.0);
    shaped_call(5, 100, 104);            /* thread 1, ticks 100..104 */
    shaped_call_short(1, 7, 10, 3);      /* 110..113 */
    shaped_full(1, 7, 3, 1, 0xa0);       /* a launch: 700..709 */
    shaped_call_short(1, 8, 5, 0);       /* from the launch: 705 */
    shaped_short(1, 3, 50, 2);           /* a launch repeat, from the slot's last launch (700): 750..752 */
    shaped_call_short(1, 9, 1, 65535);   /* from the repeat: 751, the longest a short call can be */
    shaped_call_short(2, 3, 7, 1);       /* a thread never seen: from the clock's base */
    write_file(shaped, shaped_len);

    r = ct_reader_open(path);
    CU_ASSERT_FATAL(r != NULL);
    for (int pass = 0; pass < 2; pass++) { /* the second after a rewind */
        for (n = 0; (h = ct_reader_next(r)); n++) {
            const struct ct_rec_call *c = (const void *)h;
            CU_ASSERT_EQUAL_FATAL(h->type, CT_REC_CALL);
            CU_ASSERT_FATAL(n < nwant);
            CU_ASSERT_EQUAL(h->tid, want[n].tid);
            CU_ASSERT_EQUAL(c->seq, want[n].seq);
            CU_ASSERT_EQUAL(c->t0_ns, want[n].t0);
            CU_ASSERT_EQUAL(c->t1_ns, want[n].t1);
            CU_ASSERT_EQUAL(c->api_id, want[n].api);
            if (ct_reader_file_type(r) == CT_REC_CALL_SHORT) {
                CU_ASSERT_EQUAL(h->size, sizeof *c);
                CU_ASSERT_EQUAL(c->payload, CT_FAM_NONE);
                CU_ASSERT_EQUAL(c->result, 0);
                CU_ASSERT_EQUAL(c->stack_id, 0);
            }
        }
        CU_ASSERT_EQUAL(n, nwant);
        CU_ASSERT_EQUAL(ct_reader_status(r), CT_READ_OK);
        if (pass == 0)
            CU_ASSERT_EQUAL_FATAL(ct_reader_rewind(r), 0);
    }
    ct_reader_close(r);
}

static void test_missing_file(void)
{
    struct ct_reader *r = ct_reader_open("/nonexistent/t.ctrace");
    CU_ASSERT_FATAL(r != NULL);
    CU_ASSERT_EQUAL(ct_reader_status(r), CT_READ_IO);
    CU_ASSERT_STRING_EQUAL(ct_reader_message(r), "/nonexistent/t.ctrace: No such file or directory");
    ct_reader_close(r);
}

/* Several files: records of each in turn, a damaged one stopping only itself. */
static void test_set(void)
{
    char p2[80];
    const char *paths[2] = {path, p2};
    struct ct_reader_set *s;
    size_t counts[2] = {0, 0}, file;
    FILE *f;

    snprintf(p2, sizeof p2, "%s/b.ctrace", dir);
    write_file(trace, trace_len);
    f = fopen(p2, "wb");
    CU_ASSERT_FATAL(f != NULL);
    fwrite(trace, 1, rec_off[3] + 5, f); /* cut inside the 4th record */
    fclose(f);
    s = ct_reader_set_open(paths, 2);
    CU_ASSERT_FATAL(s != NULL);
    CU_ASSERT_EQUAL(ct_reader_set_count(s), 2);
    while (ct_reader_set_next(s, &file))
        counts[file]++;
    CU_ASSERT_EQUAL(counts[0], rec_count);
    CU_ASSERT_EQUAL(counts[1], 3);
    CU_ASSERT_EQUAL(ct_reader_status(ct_reader_set_file(s, 0)), CT_READ_OK);
    CU_ASSERT_EQUAL(ct_reader_status(ct_reader_set_file(s, 1)), CT_READ_TRUNCATED);
    ct_reader_set_close(s);
    unlink(p2);
}

/* The time-ordered merge (merge.h): every call of several files once, in time order, each thread read from
 * its own runs with the clock of each run, decoded exactly as the sequential reader decodes it. */
static void merge_call(uint32_t tid, uint64_t seq, uint64_t t0, uint64_t t1)
{
    shaped_call(seq, t0, t1);
    ((struct ct_rec_call *)(shaped + shaped_len) - 1)->h.tid = tid;
}

struct seen {
    uint64_t t0, t1, function;
    uint32_t tid;
    unsigned family;
};

/* The calls of one file read in order, by sequence number (all below 16). */
static size_t read_in_order(const char *p, struct seen *by_seq)
{
    struct ct_reader *r = ct_reader_open(p);
    const struct ct_rec_hdr *h;
    size_t n = 0;

    CU_ASSERT_FATAL(r != NULL);
    while ((h = ct_reader_next(r)))
        if (h->type == CT_REC_CALL) {
            const struct ct_call *c = (const void *)h;
            CU_ASSERT_FATAL(c->c.seq < 16);
            by_seq[c->c.seq] = (struct seen){c->c.t0_ns, c->c.t1_ns, c->pl.launch.function, h->tid, c->family};
            n++;
        }
    ct_reader_close(r);
    return n;
}

static void test_merge(void)
{
    struct ct_file_header *fh = (void *)shaped;
    char p2[80];
    const char *paths[2] = {path, p2};
    struct seen want[2][16];
    char err[256];
    size_t total = 0, got = 0;

    snprintf(p2, sizeof p2, "%s/b.ctrace", dir);
    memset(want, 0, sizeof want);
    shaped_len = sizeof *fh;
    ct_file_header_init(fh, 123, 1, CT_FEAT_TIME_MONO, 1700000000000000000, 555);
    merge_call(1, 1, 100, 110);
    merge_call(1, 2, 300, 310);
    merge_call(2, 3, 200, 210);  /* another thread: thread 1's run ends */
    merge_call(1, 4, 400, 410);
    shaped_clock(1000, 10000, 2.0);
    shaped_full(1, 5, 2, 1, 0xa0); /* ticks 500..509: ns 9000..9018 */
    shaped_repeat(1, 6, 2, 1);     /* ticks 600, 40 long: 9200..9280 */
    shaped_short(1, 2, 50, 4);     /* ticks 650..654: 9300..9308, seq 7 */
    merge_call(2, 8, 1100, 1110);  /* 10200 */
    write_file(shaped, shaped_len);
    total += read_in_order(path, want[0]);

    shaped_len = sizeof *fh;
    ct_file_header_init(fh, 124, 1, CT_FEAT_TIME_MONO, 1700000000000000000, 555);
    merge_call(1, 1, 150, 160);
    merge_call(1, 2, 350, 360);
    merge_call(1, 3, 9100, 9110);
    FILE *f = fopen(p2, "wb");
    CU_ASSERT_FATAL(f != NULL);
    fwrite(shaped, 1, shaped_len, f);
    fclose(f);
    total += read_in_order(p2, want[1]);
    CU_ASSERT_EQUAL(total, 11);

    struct ct_merge *m = ct_merge_open_paths(paths, 2, err, sizeof err);
    CU_ASSERT_FATAL(m != NULL);
    int64_t last = INT64_MIN;
    for (const struct ct_merged *c; (c = ct_merge_next(m)); got++) {
        const struct seen *w = &want[c->file][c->call.c.seq];
        CU_ASSERT(c->t0 >= last);
        last = c->t0;
        CU_ASSERT_EQUAL(c->t0, (int64_t)w->t0);
        CU_ASSERT_EQUAL(c->call.c.t0_ns, w->t0);
        CU_ASSERT_EQUAL(c->call.c.t1_ns, w->t1);
        CU_ASSERT_EQUAL(c->call.c.h.tid, w->tid);
        CU_ASSERT_EQUAL(c->call.family, w->family);
        if (c->call.family == CT_FAM_LAUNCH)
            CU_ASSERT_EQUAL(c->call.pl.launch.function, 0xa0);
    }
    CU_ASSERT_EQUAL(got, total);
    ct_merge_close(m);

    /* The runs of the first file: thread 1 in three (cut by thread 2 and by the clock), thread 2 in two. */
    struct ct_reader *r = ct_reader_open(path);
    CU_ASSERT_FATAL(r != NULL);
    CU_ASSERT_EQUAL(ct_reader_build_runs(r), 0);
    while (ct_reader_next(r))
        ;
    struct ct_runs *x = ct_reader_take_runs(r);
    ct_reader_close(r);
    CU_ASSERT_FATAL(x != NULL && x->nthreads == 2);
    CU_ASSERT_EQUAL(x->threads[0].tid, 1);
    CU_ASSERT_EQUAL(x->threads[0].calls, 6);
    CU_ASSERT_EQUAL(x->threads[0].nruns, 3);
    CU_ASSERT_EQUAL(x->threads[1].tid, 2);
    CU_ASSERT_EQUAL(x->threads[1].nruns, 2);
    CU_ASSERT_EQUAL(x->nclocks, 1);
    CU_ASSERT_EQUAL(x->threads[0].runs[2].clock, 1);
    ct_runs_free(x);

    CU_ASSERT_PTR_NULL(ct_merge_open_paths((const char *[]){"/nonexistent/t.ctrace"}, 1, err, sizeof err));
    CU_ASSERT_STRING_EQUAL(err, "/nonexistent/t.ctrace: No such file or directory");
    unlink(p2);
}

/* Long names are cut to fit a record, never overflow it. */
static void test_limits(void)
{
    static char big[70000];
    static unsigned char rec[CT_REC_MAX_SIZE];

    memset(big, 'x', sizeof big);
    CU_ASSERT(ct_size_string(sizeof big) <= CT_REC_MAX_SIZE);
    ct_put_string(rec, 0, 1, CT_STR_OTHER, big, sizeof big);
    CU_ASSERT_PTR_NULL(ct_rec_check((void *)rec, sizeof rec));
    CU_ASSERT(ct_size_process(10, sizeof big) <= CT_REC_MAX_SIZE);
    ct_put_process(rec, "host", 4, big, sizeof big);
    CU_ASSERT_PTR_NULL(ct_rec_check((void *)rec, sizeof rec));
    CU_ASSERT_EQUAL(((struct ct_rec_process *)rec)->argc, 1);
}

static int setup(void)
{
    if (!mkdtemp(dir))
        return 1;
    snprintf(path, sizeof path, "%s/a.ctrace", dir);
    build_trace();
    return 0;
}

static int teardown(void)
{
    unlink(path);
    return rmdir(dir);
}

int main(void)
{
    CU_pSuite s;
    unsigned failed;

    if (CU_initialize_registry() != CUE_SUCCESS)
        return 2;
    s = CU_add_suite("format read/write", setup, teardown);
    CU_add_test(s, "round trip of every record type", test_round_trip);
    CU_add_test(s, "process record", test_process_record);
    CU_add_test(s, "stack and module records", test_stack_module_records);
    CU_add_test(s, "names resolved after reading", test_names);
    CU_add_test(s, "many names", test_names_many);
    CU_add_test(s, "truncated at every byte", test_truncated_everywhere);
    CU_add_test(s, "corrupt records", test_corrupt);
    CU_add_test(s, "refused files", test_refused);
    CU_add_test(s, "launch repeats", test_launch_repeats);
    CU_add_test(s, "short launch repeats", test_launch_shorts);
    CU_add_test(s, "short calls", test_call_shorts);
    CU_add_test(s, "clocks", test_clocks);
    CU_add_test(s, "missing file", test_missing_file);
    CU_add_test(s, "several files", test_set);
    CU_add_test(s, "several files in time order", test_merge);
    CU_add_test(s, "length limits", test_limits);
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
    CU_cleanup_registry();
    return failed ? 1 : 0;
}
