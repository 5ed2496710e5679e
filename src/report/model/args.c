#include "config.h"

#include "report/model/args.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/model/display_names.h"
#include "report/model/frames.h"
#include "report/model/text.h"

const char *rp_kernel_name(struct rp_kernel_names *k, const struct rp_call *c)
{
    return rp_kernel_name_of(k, c->file, c->file_index, c->call->pl.launch.name_id, c->call->pl.launch.kind);
}

const char *rp_kernel_name_of(struct rp_kernel_names *k, const struct rp_file *f, size_t fi, uint32_t id,
                              unsigned kind)
{
    struct rp_u64map_entry *e = rp_u64map_get(&k->ids, id, fi);
    if (e)
        return k->names[e->v1];
    const char *raw = rp_file_string(f, id);
    char fallback[32];
    if (!raw) {
        snprintf(fallback, sizeof fallback, "[%s]",
                 kind == CT_LAUNCH_KERNEL || kind == CT_LAUNCH_COOPERATIVE ? "unknown kernel" : rp_launch_kind_name(kind));
        raw = fallback;
    }
    if (k->n == k->cap) {
        size_t cap = k->cap ? k->cap * 2 : 16;
        char **n = realloc(k->names, cap * sizeof *n);
        if (!n)
            return NULL;
        k->names = n;
        k->cap = cap;
    }
    char *name = rp_demangle(raw);
    if (!name || !rp_u64map_put(&k->ids, id, fi, k->n, 0)) {
        free(name);
        return NULL;
    }
    k->names[k->n] = name;
    return k->names[k->n++];
}

void rp_kernel_names_free(struct rp_kernel_names *k)
{
    for (size_t i = 0; i < k->n; i++)
        free(k->names[i]);
    free(k->names);
    rp_u64map_free(&k->ids);
    memset(k, 0, sizeof *k);
}

const char *const rp_gpu_work_kinds[] = {"kernel", "graph", "copy"};

enum rp_gpu_work rp_gpu_work_kind(const struct rp_call *c)
{
    if (c->call->family != CT_FAM_LAUNCH)
        return RP_GPU_COPY;
    return c->call->pl.launch.kind == CT_LAUNCH_GRAPH ? RP_GPU_GRAPH : RP_GPU_KERNEL;
}

const char *rp_gpu_span_name(struct rp_kernel_names *k, const struct rp_call *c, size_t i, char *buf, size_t size)
{
    const struct rp_gpu_ran *own = rp_gpu_span_own(&c->file->gpu, &c->gpu[i]);
    if (!own)
        return rp_gpu_work_name(k, c, buf, size);
    if (own->family == CT_FAM_COPY)
        return rp_copy_operation(own->copy_flags, own->src_kind, own->dst_kind);
    return rp_launch_work_name(k, c->file, c->file_index, own->name_id, own->launch_kind, 0, buf, size);
}

enum rp_gpu_work rp_gpu_span_kind(const struct rp_call *c, size_t i)
{
    const struct rp_gpu_ran *own = rp_gpu_span_own(&c->file->gpu, &c->gpu[i]);
    return own ? (own->family == CT_FAM_COPY ? RP_GPU_COPY : RP_GPU_KERNEL) : rp_gpu_work_kind(c);
}

const char *rp_gpu_work_name(struct rp_kernel_names *k, const struct rp_call *c, char *buf, size_t size)
{
    if (rp_gpu_work_kind(c) == RP_GPU_COPY) {
        const struct ct_pl_copy *p = &c->call->pl.copy;
        return rp_copy_operation(p->flags, p->src_kind, p->dst_kind);
    }
    const struct ct_pl_launch *l = &c->call->pl.launch;
    return rp_launch_work_name(k, c->file, c->file_index, l->name_id, l->kind, l->function, buf, size);
}

const char *rp_launch_work_name(struct rp_kernel_names *k, const struct rp_file *f, size_t fi, uint32_t name_id,
                                unsigned kind, uint64_t graph, char *buf, size_t size)
{
    if (kind == CT_LAUNCH_GRAPH) {
        snprintf(buf, size, "[CUDA graph 0x%" PRIx64 "]", graph);
        return buf;
    }
    return rp_kernel_name_of(k, f, fi, name_id, kind);
}

const char *rp_gpu_device_label(int32_t device, char *buf, size_t size)
{
    if (device >= 0)
        snprintf(buf, size, "GPU %d", (int)device);
    else
        snprintf(buf, size, "GPU ?");
    return buf;
}

const char *rp_gpu_stream_label(const struct rp_trace *t, const struct rp_call *c, char *buf, size_t size)
{
    int len = snprintf(buf, size, "stream 0x%" PRIx64, c->gpu->stream);
    if (t->nfiles > 1 && len >= 0 && (size_t)len < size)
        snprintf(buf + len, size - (size_t)len, " (pid %" PRIu32 ")", c->file->hdr.pid);
    return buf;
}

const char *rp_file_api_name(const struct rp_file *f, uint16_t api_id, char *buf, size_t size)
{
    const struct ct_api_info *api = rp_file_api(f, api_id);
    if (!api) { /* its API record was lost */
        snprintf(buf, size, "api#%u", (unsigned)api_id);
        return buf;
    }
    return rp_api_display_name(api->name, api->vflags, buf, size);
}

const char *rp_call_api_name(const struct rp_call *c, char *buf, size_t size)
{
    return rp_file_api_name(c->file, c->call->c.api_id, buf, size);
}

const char *rp_call_timeline_name(struct rp_kernel_names *k, const struct rp_call *c, char *buf, size_t size)
{
    rp_call_api_name(c, buf, size);
    if (c->call->family == CT_FAM_LAUNCH) {
        const char *kn = rp_kernel_name(k, c);
        size_t len = strlen(buf);
        snprintf(buf + len, size - len, " %s", kn ? kn : "?");
    }
    return buf;
}

const char *rp_call_variant(const struct rp_call *c)
{
    const struct ct_api_info *api = rp_file_api(c->file, c->call->c.api_id);
    return api ? api->variant : "";
}

/* One argument: text writes key=value, JSON ,"key":value (strings quoted). */
struct sink {
    FILE *out;
    int json, n; /* n: members written so far */
};

static void put(struct sink *s, const char *key, const char *val, int numeric)
{
    if (s->json) {
        if (s->n)
            fputc(',', s->out);
        rp_json_string(s->out, key);
        fputc(':', s->out);
        if (numeric)
            fputs(val, s->out);
        else
            rp_json_string(s->out, val);
    } else {
        fprintf(s->out, "%s%s=", s->n ? " " : "", key);
        /* values with blanks (demangled names) are quoted so the listing stays splittable */
        if (strpbrk(val, " \t"))
            fprintf(s->out, "\"%s\"", val);
        else
            fputs(val, s->out);
    }
    s->n++;
}

static void put_u64(struct sink *s, const char *key, uint64_t v)
{
    char b[24];
    snprintf(b, sizeof b, "%" PRIu64, v);
    put(s, key, b, 1);
}

static void put_i64(struct sink *s, const char *key, int64_t v)
{
    char b[24];
    snprintf(b, sizeof b, "%" PRId64, v);
    put(s, key, b, 1);
}

static void put_hex(struct sink *s, const char *key, uint64_t v)
{
    char b[24];
    snprintf(b, sizeof b, "0x%" PRIx64, v);
    put(s, key, b, 0);
}

static void put_dim3(struct sink *s, const char *key, const uint32_t d[3])
{
    char b[48];
    snprintf(b, sizeof b, "%u,%u,%u", d[0], d[1], d[2]);
    put(s, key, b, 0);
}

static void args(struct sink *s, const struct rp_call *c, struct rp_kernel_names *k)
{
    char buf[64];
    switch (c->call->family) {
    case CT_FAM_ALLOC: {
        const struct ct_pl_alloc *a = &c->call->pl.alloc;
        put_u64(s, "bytes", a->bytes);
        put_hex(s, "address", a->address);
        put(s, "kind", rp_mem_kind_name(a->kind), 0);
        put_i64(s, "device", a->device);
        if (a->stream)
            put_hex(s, "stream", a->stream);
        break;
    }
    case CT_FAM_FREE: {
        const struct ct_pl_free *f = &c->call->pl.free;
        put_hex(s, "address", f->address);
        put(s, "kind", rp_mem_kind_name(f->kind), 0);
        if (f->stream)
            put_hex(s, "stream", f->stream);
        break;
    }
    case CT_FAM_LAUNCH: {
        const struct ct_pl_launch *l = &c->call->pl.launch;
        const char *name = rp_kernel_name(k, c);
        put(s, "kernel", name ? name : "?", 0);
        put(s, "kind", rp_launch_kind_name(l->kind), 0);
        put_dim3(s, "grid", l->grid);
        put_dim3(s, "block", l->block);
        if (l->cluster[0] || l->cluster[1] || l->cluster[2])
            put_dim3(s, "cluster", l->cluster);
        put_u64(s, "shmem", l->shared_mem);
        put_hex(s, "stream", l->stream);
        put_hex(s, "function", l->function);
        break;
    }
    case CT_FAM_COPY: {
        const struct ct_pl_copy *p = &c->call->pl.copy;
        put(s, "operation", rp_copy_operation(p->flags, p->src_kind, p->dst_kind), 0);
        put_u64(s, "bytes", p->bytes);
        if (!(p->flags & CT_COPY_SET)) {
            put_hex(s, "src", p->src);
            put(s, "src_kind", rp_mem_kind_name(p->src_kind), 0);
        }
        put_hex(s, "dst", p->dst);
        put(s, "dst_kind", rp_mem_kind_name(p->dst_kind), 0);
        put(s, "flags", rp_copy_flags(p->flags, buf, sizeof buf), 0);
        if (p->flags & CT_COPY_ASYNC)
            put_hex(s, "stream", p->stream);
        if (p->flags & (CT_COPY_2D | CT_COPY_3D)) {
            put_u64(s, "width", p->width);
            put_u64(s, "height", p->height);
        }
        if (p->flags & CT_COPY_3D)
            put_u64(s, "depth", p->depth);
        if (p->flags & CT_COPY_PEER) {
            put_i64(s, "src_device", p->src_device);
            put_i64(s, "dst_device", p->dst_device);
        }
        break;
    }
    default:
        break;
    }
}

void rp_args_text(FILE *out, const struct rp_call *c, struct rp_kernel_names *k)
{
    struct sink s = {out, 0, 0};
    args(&s, c, k);
}

void rp_args_json(FILE *out, const struct rp_call *c, struct rp_kernel_names *k)
{
    struct sink s = {out, 1, 1}; /* members follow others: each gets its comma */
    args(&s, c, k);
}

void rp_gpu_times(const struct rp_call *c, int64_t rel, const struct rp_timeunit *u, char *start, char *dur)
{
    start[0] = dur[0] = '\0';
    if (!c->gpu)
        return;
    rp_fmt_time(start, 48, (double)(rel + (c->gpu_t0 - c->t0)), u, 0);
    rp_fmt_time(dur, 48, (double)(c->gpu_t1 - c->gpu_t0), u, 0);
}

void rp_call_json(FILE *out, const struct rp_call *c, int64_t rel, const struct rp_timeunit *u,
                  struct rp_kernel_names *k, const char *type, const struct rp_stack *stack)
{
    char start[48], dur[48], name[256], rbuf[48];
    rp_fmt_time(start, sizeof start, (double)rel, u, 0);
    rp_fmt_time(dur, sizeof dur, (double)(c->t1 - c->t0), u, 0);
    putc('{', out);
    if (type)
        fprintf(out, "\"type\":\"%s\",", type);
    fprintf(out, "\"start\":%s,\"duration\":%s,\"pid\":%" PRIu32 ",\"tid\":%" PRIu32 ",\"seq\":%" PRIu64
                 ",\"name\":",
            start, dur, c->file->hdr.pid, c->call->c.h.tid, c->call->c.seq);
    rp_json_string(out, rp_call_api_name(c, name, sizeof name));
    fputs(",\"thread_name\":", out); /* "" when unnamed, as the other formats' Thread Name */
    rp_json_string(out, rp_thread_name(c->file, c->call->c.h.tid));
    fputs(",\"variant\":", out);
    rp_json_string(out, rp_call_variant(c));
    fprintf(out, ",\"result\":%d,\"result_name\":\"%s\",\"args\":{", (int)c->call->c.result,
            rp_result_name(c->call->c.result, rbuf, sizeof rbuf));
    struct sink s = {out, 1, 0};
    args(&s, c, k);
    putc('}', out);
    if (c->gpu) {
        rp_gpu_times(c, rel, u, start, dur);
        fprintf(out, ",\"gpu\":{\"start\":%s,\"duration\":%s,\"device\":%d,\"stream\":\"0x%" PRIx64 "\"}", start, dur,
                (int)c->gpu->device, c->gpu->stream);
    }
    if (stack) {
        fputs(",\"stack\":", out);
        rp_stack_json(out, stack);
    }
    fputs("}\n", out);
}
