/* ctdump: print trace files as text, one line per record, `key=value` fields (the shapes are a contract
 * with the tests).  Names are resolved after a first pass over each file.
 *     ctdump FILE...      every record of each file, in file order
 *     ctdump -t FILE...   the calls of all the files in time order (format/merge.h), each line
 *                         starting with file=N (the index of its FILE)
 * Exit status: 0 read to a clean end, 2 refused (not a trace, unsupported version, byte order, unreadable),
 * 3 truncated or corrupt (everything before the damage is printed). */
#include "config.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/annot.h"
#include "format/decoder.h"
#include "format/enum_names.h"
#include "format/merge.h"
#include "format/reader.h"

/* Values are single words: whitespace becomes '_', an empty value prints as nothing. */
static void put_word(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        putchar(isspace((unsigned char)s[i]) ? '_' : s[i]);
}

static void put_str(const char *s) { put_word(s, strlen(s)); }

static const char *string_or(const struct ct_names *n, uint32_t id, const char *dflt)
{
    const char *s = ct_names_string(n, id, NULL);
    return s ? s : dflt;
}

static void dump_process(const struct ct_rec_process *r)
{
    const char *data = (const char *)(r + 1), *cmd = data + r->host_len;
    size_t len = r->cmdline_len;

    while (len > 0 && cmd[len - 1] == '\0') /* the trailing NUL is not an empty last argument */
        len--;
    fputs("process host=", stdout);
    put_word(data, r->host_len);
    printf(" argc=%u argv=", r->argc);
    for (size_t i = 0; i < len; i++)
        putchar(cmd[i] == '\0' ? ',' : isspace((unsigned char)cmd[i]) ? '_' : cmd[i]);
    putchar('\n');
}

static void dump_payload(const struct ct_rec_call *c, const struct ct_names *n)
{
    const void *p = c + 1;
    char flags[64];

    switch (c->payload) {
    case CT_FAM_ALLOC: {
        const struct ct_pl_alloc *a = p;
        printf(" alloc bytes=%" PRIu64 " address=0x%" PRIx64 " kind=%s device=%d stream=0x%" PRIx64, a->bytes,
               a->address, ct_name_mem_kind(a->kind), a->device, a->stream);
        break;
    }
    case CT_FAM_FREE: {
        const struct ct_pl_free *f = p;
        printf(" free address=0x%" PRIx64 " kind=%s stream=0x%" PRIx64, f->address, ct_name_mem_kind(f->kind),
               f->stream);
        break;
    }
    case CT_FAM_LAUNCH: {
        const struct ct_pl_launch *l = p;
        fputs(" launch kernel=", stdout);
        put_str(string_or(n, l->name_id, "?"));
        printf(" kind=%s grid=%u,%u,%u block=%u,%u,%u cluster=%u,%u,%u shmem=%u stream=0x%" PRIx64
               " function=0x%" PRIx64,
               ct_name_launch_kind(l->kind), l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1],
               l->block[2], l->cluster[0], l->cluster[1], l->cluster[2], l->shared_mem, l->stream, l->function);
        break;
    }
    case CT_FAM_COPY: {
        const struct ct_pl_copy *k = p;
        printf(" copy bytes=%" PRIu64 " src_kind=%s dst_kind=%s flags=%s src=0x%" PRIx64 " dst=0x%" PRIx64
               " stream=0x%" PRIx64 " width=%" PRIu64 " height=%" PRIu64 " depth=%" PRIu64
               " src_device=%d dst_device=%d",
               k->bytes, ct_name_mem_kind(k->src_kind), ct_name_mem_kind(k->dst_kind),
               ct_format_copy_flags(flags, sizeof flags, k->flags, ','), k->src, k->dst, k->stream, k->width,
               k->height, k->depth, k->src_device, k->dst_device);
        break;
    }
    default:
        break;
    }
}

static void dump_record(const struct ct_rec_hdr *h, const struct ct_names *n)
{
    char buf[64];

    switch (h->type) {
    case CT_REC_PROCESS:
        dump_process((const void *)h);
        break;
    case CT_REC_API: {
        const struct ct_rec_api *r = (const void *)h;
        const char *name = (const char *)(r + 1);
        fputs("api id=", stdout);
        printf("%u name=", r->api_id);
        put_word(name, r->name_len);
        fputs(" variant=", stdout);
        put_word(name + r->name_len, r->variant_len);
        printf(" version=%u vflags=%s family=%s\n", r->version, ct_format_vflags(buf, sizeof buf, r->vflags, '|'),
               ct_name_family(r->family));
        break;
    }
    case CT_REC_STRING: {
        const struct ct_rec_string *r = (const void *)h;
        printf("string id=%u kind=%s value=", r->id, ct_name_str_kind(r->kind));
        put_word((const char *)(r + 1), r->len);
        putchar('\n');
        break;
    }
    case CT_REC_THREAD: {
        const struct ct_rec_thread *r = (const void *)h;
        printf("thread tid=%u name=", h->tid);
        put_str(string_or(n, r->name_id, "?"));
        putchar('\n');
        break;
    }
    case CT_REC_DRIVER: {
        const struct ct_rec_driver *r = (const void *)h;
        printf("driver version=%d devices=%d\n", r->driver_version, r->device_count);
        break;
    }
    case CT_REC_DEVICE: {
        const struct ct_rec_device *r = (const void *)h;
        printf("device ordinal=%d name=", r->ordinal);
        put_word(r->name, strnlen(r->name, sizeof r->name));
        fputs(" uuid=", stdout);
        for (int i = 0; i < 16; i++)
            printf("%02x", r->uuid[i]);
        printf(" mem=%" PRIu64 "\n", r->total_mem);
        break;
    }
    case CT_REC_CALL: {
        const struct ct_rec_call *c = (const void *)h;
        const struct ct_api_info *api = ct_names_api(n, c->api_id);
        printf("call seq=%" PRIu64 " tid=%u name=", c->seq, h->tid);
        put_str(api ? api->name : "?");
        fputs(" variant=", stdout);
        put_str(api ? api->variant : "?");
        printf(" result=%d t0=%" PRIu64 " dur=%" PRIu64, c->result, c->t0_ns,
               c->t1_ns >= c->t0_ns ? c->t1_ns - c->t0_ns : 0);
        dump_payload(c, n);
        putchar('\n');
        break;
    }
    case CT_REC_LOST: {
        const struct ct_rec_lost *r = (const void *)h;
        printf("lost count=%" PRIu64 " reason=%s tid=%u\n", r->count, ct_name_lost_reason(r->reason), h->tid);
        break;
    }
    case CT_REC_UNTRACED: {
        const struct ct_rec_untraced *r = (const void *)h;
        fputs("untraced symbol=", stdout);
        put_str(string_or(n, r->name_id, "?"));
        printf(" count=%u\n", r->count);
        break;
    }
    case CT_REC_END: {
        const struct ct_rec_end *r = (const void *)h;
        printf("end calls=%" PRIu64 " lost=%" PRIu64 " untraced=%" PRIu64 "\n", r->calls, r->lost, r->untraced);
        break;
    }
    case CT_REC_STACK: {
        const struct ct_rec_stack *r = (const void *)h;
        uint64_t f;
        printf("stack id=%u trimmed=%u frames=", r->id, r->trimmed);
        for (unsigned i = 0; i < r->nframes; i++) {
            memcpy(&f, (const char *)(r + 1) + 8 * i, sizeof f);
            printf("%s0x%llx", i ? "," : "", (unsigned long long)f);
        }
        puts(r->nframes ? "" : "none");
        break;
    }
    case CT_REC_MODULE: {
        const struct ct_rec_module *r = (const void *)h;
        printf("module base=0x%llx lo=0x%llx hi=0x%llx flags=%s build_id=", (unsigned long long)r->base,
               (unsigned long long)r->lo, (unsigned long long)r->hi, r->flags & CT_MOD_INTERNAL ? "internal" : "none");
        for (unsigned i = 0; i < r->build_id_len; i++)
            printf("%02x", r->build_id[i]);
        fputs(r->build_id_len ? " path=" : "none path=", stdout);
        put_word((const char *)(r + 1), r->path_len);
        putchar('\n');
        break;
    }
    case CT_REC_GPU: {
        struct ct_gpu_span g;
        ct_decode_gpu(h, &g);
        /* A span without a call has no function: its api id 0 is not one. */
        const struct ct_api_info *api = g.flags & CT_GPU_SPAN_NO_CALL ? NULL : ct_names_api(n, g.api_id);
        printf("gpu seq=%" PRIu64 " tid=%u name=", g.seq, g.tid);
        put_str(api ? api->name : g.flags & CT_GPU_SPAN_NO_CALL ? "-" : "?");
        printf(" start=%" PRIu64 " dur=%" PRIu64 " device=%d stream=0x%" PRIx64 " span=%s", g.start_ns,
               g.end_ns - g.start_ns, g.device, g.stream, ct_format_gpu_span_flags(buf, sizeof buf, g.flags, ','));
        if (g.family == CT_FAM_LAUNCH) {
            fputs(" launch kernel=", stdout);
            put_str(string_or(n, g.name_id, "?"));
            printf(" kind=%s grid=%u,%u,%u block=%u,%u,%u", ct_name_launch_kind(g.launch_kind), g.grid[0], g.grid[1],
                   g.grid[2], g.block[0], g.block[1], g.block[2]);
        } else if (g.family == CT_FAM_COPY) {
            printf(" copy bytes=%" PRIu64 " src_kind=%s dst_kind=%s flags=%s", g.bytes, ct_name_mem_kind(g.src_kind),
                   ct_name_mem_kind(g.dst_kind), ct_format_copy_flags(buf, sizeof buf, g.copy_flags, ','));
        }
        putchar('\n');
        break;
    }
    case CT_REC_GPU_INFO: {
        struct ct_gpu_info g;
        ct_decode_gpu_info(h, &g);
        printf("gpu-info mode=%s n=%u k=%u final=%d timed=%" PRIu64 " not_completed=%" PRIu64 " untimed_pool=%" PRIu64
               " untimed_refused=%" PRIu64 " untimed_capture=%" PRIu64 " source=%s why=%s request=%s source_ns=%" PRIu64
               " no_call=%" PRIu64 " dropped=%" PRIu64 "\n",
               ct_name_gpu_mode(g.mode), g.sample_n, g.sample_k, g.final, g.timed, g.not_completed, g.untimed_pool,
               g.untimed_refused, g.untimed_capture, ct_name_gpu_source(g.source), ct_name_gpu_why(g.why),
               ct_name_gpu_request(g.request), g.source_ns, g.no_call, g.dropped);
        break;
    }
    case CT_REC_NVTX: {
        struct ct_nvtx_event e;
        ct_decode_nvtx(h, &e);
        printf("nvtx %s tid=%u t=%" PRIu64 " domain=%u name=", ct_name_nvtx_kind(e.kind), e.tid, e.t_ns, e.domain);
        put_str(string_or(n, e.name_id, ""));
        printf(" range_id=%" PRIu64 " category=%u", e.range_id, e.category);
        if (e.has_color)
            printf(" color=0x%08x", e.color);
        putchar('\n');
        break;
    }
    case CT_REC_NVTX_NAME: {
        struct ct_nvtx_naming m;
        ct_decode_nvtx_name(h, &m);
        if (m.what == CT_NVTX_NAME_DOMAIN)
            printf("nvtx-domain id=%u name=", m.domain);
        else
            printf("nvtx-category domain=%u id=%u name=", m.domain, m.category);
        put_str(string_or(n, m.name_id, "?"));
        putchar('\n');
        break;
    }
    case CT_REC_RANK: {
        struct ct_rank k;
        ct_decode_rank(h, &k);
        printf("rank rank=%d local_rank=%d world_size=%d source=%s\n", k.rank, k.local_rank, k.world_size,
               ct_name_rank_source(k.source));
        break;
    }
    case CT_REC_COUNTED: {
        struct ct_counted k;
        ct_decode_counted(h, &k);
        const struct ct_api_info *api = ct_names_api(n, k.api_id);
        printf("counted api=%s count=%" PRIu64 "\n", api ? api->variant : "?", k.count);
        break;
    }
    default: /* newer record types: skipped */
        break;
    }
}

static int dump_file(const char *path)
{
    struct ct_reader *r = ct_reader_open(path);
    struct ct_names *n = ct_names_new();
    const struct ct_file_header *fh;
    const struct ct_rec_hdr *h;
    int rc = 0;

    if (!r || !n) {
        fprintf(stderr, "ctdump: %s: out of memory\n", path);
        rc = 2;
        goto out;
    }
    if (!(fh = ct_reader_header(r))) {
        fprintf(stderr, "ctdump: %s\n", ct_reader_message(r));
        rc = ct_reader_status(r) == CT_READ_TRUNCATED ? 3 : 2;
        goto out;
    }
    printf("header format=%u pid=%u ppid=%u version=%.*s features=0x%x\n", fh->format_version, fh->pid, fh->ppid,
           (int)strnlen(fh->tracer_version, sizeof fh->tracer_version), fh->tracer_version, fh->features);
    if (ct_reader_load_names(r, n) < 0) {
        fprintf(stderr, "ctdump: %s: cannot read names (out of memory or seek failed)\n", path);
        rc = 2;
        goto out;
    }
    while ((h = ct_reader_next(r)))
        dump_record(h, n);
    if (ct_reader_status(r) != CT_READ_OK) {
        fflush(stdout);
        fprintf(stderr, "ctdump: %s\n", ct_reader_message(r));
        rc = ct_reader_status(r) == CT_READ_IO ? 2 : 3;
    }
out:
    ct_names_free(n);
    ct_reader_close(r);
    return rc;
}

/* -t: the calls of every file in time order, through the same merge as cudatrace-report. */
static int dump_in_time_order(char **paths, int n)
{
    struct ct_names **names = calloc((size_t)n, sizeof *names);
    struct ct_merge *m = NULL;
    char err[512];
    int rc = 0;

    for (int i = 0; names && i < n; i++) {
        struct ct_reader *r = ct_reader_open(paths[i]);
        if (!r || !(names[i] = ct_names_new()) || !ct_reader_header(r) || ct_reader_load_names(r, names[i]) < 0) {
            fprintf(stderr, "ctdump: %s: cannot read its names\n", paths[i]);
            rc = 2;
        }
        ct_reader_close(r);
    }
    if (!names || rc)
        goto out;
    if (!(m = ct_merge_open_paths((const char *const *)paths, (size_t)n, err, sizeof err))) {
        fprintf(stderr, "ctdump: %s\n", err);
        rc = 2;
        goto out;
    }
    for (const struct ct_merged *c; (c = ct_merge_next(m));) {
        printf("file=%zu ", c->file);
        dump_record(&c->call.c.h, names[c->file]);
    }
    if (ct_merge_error(m)) {
        fprintf(stderr, "ctdump: %s\n", ct_merge_error(m));
        rc = 2;
    }
out:
    ct_merge_close(m);
    for (int i = 0; names && i < n; i++)
        ct_names_free(names[i]);
    free(names);
    return rc;
}

int main(int argc, char **argv)
{
    int rc = 0;

    if (argc > 2 && !strcmp(argv[1], "-t"))
        return dump_in_time_order(argv + 2, argc - 2) || fflush(stdout) != 0 ? 2 : 0;
    if (argc < 2 || argv[1][0] == '-') {
        fprintf(stderr, "usage: ctdump FILE...  |  ctdump -t FILE...\n");
        return 2;
    }
    for (int i = 1; i < argc; i++) {
        int r = dump_file(argv[i]);
        if (r > rc)
            rc = r;
    }
    return fflush(stdout) == 0 ? rc : 2;
}
