/* Chrome Trace Event JSON (Perfetto, chrome://tracing): a process per traced process, a track per thread,
 * an X slice per call with its arguments (and its symbolized call stack, when recorded), a "device memory"
 * counter of live bytes per process.  GPU spans (format 5): a process "GPU N" per device ordinal (shared by
 * the files: ordinals are all a span says of its device) with a track per (file, stream), an X slice per
 * span, and a flow from each call to its span. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "format/enum_names.h"
#include "report/model/args.h"
#include "report/export/export.h"
#include "report/model/memory.h"
#include "report/model/display_names.h"
#include "report/model/frames.h"
#include "report/symbols/symbolize.h"
#include "report/model/text.h"

/* Microseconds with the nanoseconds as exact decimals: 1234567 ns -> 1234.567 */
static void put_us(FILE *out, int64_t ns)
{
    if (ns < 0) {
        putc('-', out);
        ns = -ns;
    }
    fprintf(out, "%" PRId64 ".%03" PRId64, ns / 1000, ns % 1000);
}

static void metadata(FILE *out, const struct rp_trace *t, int *first)
{
    for (size_t i = 0; i < t->nfiles; i++) {
        const struct rp_file *f = &t->files[i];
        char pname[512];
        if (f->rank.rank >= 0) /* a rank is how people name the processes of a job */
            rp_file_label(f, pname, sizeof pname);
        else
            snprintf(pname, sizeof pname, "%s (pid %" PRIu32 ")", *f->cmdline ? f->cmdline : f->path, f->hdr.pid);
        fprintf(out, "%s{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%" PRIu32 ",\"tid\":0,\"args\":{\"name\":",
                *first ? "" : ",\n", f->hdr.pid);
        rp_json_string(out, pname);
        fputs("}}", out);
        *first = 0;
        for (size_t j = 0; j < f->nthreads; j++) {
            const struct rp_thread *th = &f->threads[j];
            const char *tn = rp_file_string(f, th->name_id);
            char name[512];
            if (tn)
                snprintf(name, sizeof name, "%s (tid %" PRIu32 ")", tn, th->tid);
            else
                snprintf(name, sizeof name, "tid %" PRIu32, th->tid);
            fprintf(out, ",\n{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%" PRIu32 ",\"tid\":%" PRIu32
                         ",\"args\":{\"name\":",
                    f->hdr.pid, th->tid);
            rp_json_string(out, name);
            fputs("}}", out);
        }
    }
}

/* NVTX ranges: push/pop ranges as slices on their thread's track (they nest there, as the calls inside them);
 * start/end ranges, which may cross threads and overlap, as async slices of their process; marks as
 * instants on their thread. */
static void nvtx_events(FILE *out, const struct rp_trace *t, int *first)
{
    for (size_t i = 0; i < t->nfiles; i++) {
        const struct rp_file *f = &t->files[i];
        for (size_t j = 0; j < f->nvtx.n; j++) {
            const struct rp_nvtx_range *r = &f->nvtx.r[j];
            const int64_t t0 = (int64_t)r->t0 + f->clock_offset - t->start_ns;
            const int64_t t1 = (int64_t)r->t1 + f->clock_offset - t->start_ns;
            const char *m = rp_file_string(f, r->name_id), *d = rp_file_string(f, rp_nvtx_domain_name(&f->nvtx, r->domain));
            const char *cat = rp_file_string(f, rp_nvtx_category_name(&f->nvtx, r->domain, r->category));
            fputs(*first ? "" : ",\n", out);
            *first = 0;
            if (r->style == RP_NVTX_PUSHPOP)
                fputs("{\"ph\":\"X\",\"cat\":\"nvtx\",\"ts\":", out);
            else if (r->style == RP_NVTX_MARK)
                fputs("{\"ph\":\"i\",\"s\":\"t\",\"cat\":\"nvtx\",\"ts\":", out);
            else
                fputs("{\"ph\":\"b\",\"cat\":\"nvtx\",\"ts\":", out);
            put_us(out, t0);
            if (r->style == RP_NVTX_PUSHPOP) {
                fputs(",\"dur\":", out);
                put_us(out, t1 - t0);
            } else if (r->style == RP_NVTX_STARTEND) {
                fprintf(out, ",\"id\":\"nvtx%zu.%zu\"", i, j);
            }
            fprintf(out, ",\"pid\":%" PRIu32 ",\"tid\":%" PRIu32 ",\"name\":", f->hdr.pid, r->tid);
            rp_json_string(out, m ? m : "");
            fputs(",\"args\":{\"domain\":", out);
            rp_json_string(out, d ? d : "");
            if (r->category) {
                fprintf(out, ",\"category\":%" PRIu32, r->category);
                if (cat) {
                    fputs(",\"category_name\":", out);
                    rp_json_string(out, cat);
                }
            }
            if (r->has_color)
                fprintf(out, ",\"color\":\"#%06" PRIx32 "\"", r->color & 0xFFFFFF);
            fputs("}}", out);
            if (r->style == RP_NVTX_STARTEND) {
                fputs(",\n{\"ph\":\"e\",\"cat\":\"nvtx\",\"ts\":", out);
                put_us(out, t1);
                fprintf(out, ",\"id\":\"nvtx%zu.%zu\",\"pid\":%" PRIu32 ",\"tid\":%" PRIu32 ",\"name\":", i, j,
                        f->hdr.pid, r->tid);
                rp_json_string(out, m ? m : "");
                putc('}', out);
            }
        }
    }
}

/* ,"stack":["frame", ...] innermost first, when the call has a recorded stack. */
static void stack_arg(FILE *out, const struct rp_call *c)
{
    const struct rp_stack *s = rp_stacktab_get(&c->file->stacks, c->call->c.stack_id);
    char buf[1024];
    if (!s)
        return;
    fputs(",\"stack\":[", out);
    for (unsigned i = 0; i < s->nframes; i++)
        for (unsigned l = 0; l <= s->frames[i].ninlined; l++) {
            if (i || l)
                putc(',', out);
            rp_json_string(out, rp_frame_text(&s->frames[i], l, buf, sizeof buf));
        }
    putc(']', out);
}

/* GPU processes take pids above any Linux pid (at most 2^22), one per device ordinal, unknown (-1) first. */
#define GPU_PID_BASE 1000000000
static uint32_t gpu_pid(int32_t device) { return (uint32_t)(GPU_PID_BASE + (int64_t)device + 1); }

/* The GPU tracks named so far: device -> (tracks it has), (stream, file and device) -> track. */
struct gpu_tracks {
    struct rp_u64map devices, streams;
    uint64_t flows; /* flow ids given */
};

/* The track of a span, its process and thread named the first time; 0 when out of memory. */
static uint32_t gpu_track(FILE *out, struct gpu_tracks *g, const struct rp_trace *t, const struct rp_call *c)
{
    const int32_t dev = c->gpu->device;
    const uint64_t key = (uint64_t)c->file_index << 32 | (uint32_t)dev;
    struct rp_u64map_entry *e = rp_u64map_get(&g->streams, c->gpu->stream, key);
    if (e)
        return (uint32_t)e->v1;
    struct rp_u64map_entry *d = rp_u64map_get(&g->devices, (uint32_t)dev, 0);
    if (!d) {
        if (!(d = rp_u64map_put(&g->devices, (uint32_t)dev, 0, 0, 0)))
            return 0;
        char name[32];
        fprintf(out, ",\n{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%" PRIu32 ",\"tid\":0,\"args\":{\"name\":\"%s\"}}",
                gpu_pid(dev), rp_gpu_device_label(dev, name, sizeof name));
    }
    const uint32_t tid = (uint32_t)++d->v1;
    if (!rp_u64map_put(&g->streams, c->gpu->stream, key, tid, 0))
        return 0;
    char name[64];
    fprintf(out, ",\n{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%" PRIu32 ",\"tid\":%" PRIu32 ",\"args\":{\"name\":\"%s\"}}",
            gpu_pid(dev), tid, rp_gpu_stream_label(t, c, name, sizeof name));
    return tid;
}

/* Span i of a timed call: its slice on its stream's track and the flow from the call to it.  -1 when out of
 * memory. */
static int gpu_slice(FILE *out, struct gpu_tracks *g, const struct rp_trace *t, const struct rp_call *c, size_t i,
                     struct rp_kernel_names *k)
{
    const uint32_t tid = gpu_track(out, g, t, c);
    char buf[64];
    const char *name = rp_gpu_span_name(k, c, i, buf, sizeof buf);
    if (!tid || !name)
        return -1;
    const enum rp_gpu_work kind = rp_gpu_span_kind(c, i);
    const struct ct_pl_launch *l = &c->call->pl.launch;
    const uint32_t pid = gpu_pid(c->gpu->device);
    const int64_t t0 = c->ngpu > 1 ? (int64_t)c->gpu[i].start_ns + c->file->clock_offset : c->gpu_t0;
    const int64_t t1 = c->ngpu > 1 ? (int64_t)c->gpu[i].end_ns + c->file->clock_offset : c->gpu_t1;
    fprintf(out, ",\n{\"ph\":\"X\",\"cat\":\"gpu_%s\",\"name\":", rp_gpu_work_kinds[kind]);
    rp_json_string(out, name);
    fputs(",\"ts\":", out);
    put_us(out, t0 - t->start_ns);
    fputs(",\"dur\":", out);
    put_us(out, t1 - t0);
    fprintf(out, ",\"pid\":%" PRIu32 ",\"tid\":%" PRIu32 ",\"args\":{\"seq\":%" PRIu64 ",\"pid\":%" PRIu32
                 ",\"tid\":%" PRIu32,
            pid, tid, c->call->c.seq, c->file->hdr.pid, c->call->c.h.tid);
    if (kind == RP_GPU_GRAPH || c->ngpu > 1) {
        fprintf(out, ",\"graph\":\"0x%" PRIx64 "\"}}", l->function);
    } else if (kind == RP_GPU_KERNEL) {
        fprintf(out, ",\"grid\":\"%u,%u,%u\",\"block\":\"%u,%u,%u\"}}", l->grid[0], l->grid[1], l->grid[2], l->block[0],
                l->block[1], l->block[2]);
    } else {
        fprintf(out, ",\"bytes\":%" PRIu64 "}}", c->call->pl.copy.bytes);
    }
    /* The arrow: starts in the call's slice, ends ("bp":"e": bound to the enclosing slice) in the span's. */
    const uint64_t id = ++g->flows;
    fprintf(out, ",\n{\"ph\":\"s\",\"cat\":\"gpu\",\"name\":\"gpu\",\"id\":%" PRIu64 ",\"pid\":%" PRIu32 ",\"tid\":%" PRIu32
                 ",\"ts\":",
            id, c->file->hdr.pid, c->call->c.h.tid);
    put_us(out, c->t0 - t->start_ns);
    fprintf(out, "},\n{\"ph\":\"f\",\"bp\":\"e\",\"cat\":\"gpu\",\"name\":\"gpu\",\"id\":%" PRIu64 ",\"pid\":%" PRIu32
                 ",\"tid\":%" PRIu32 ",\"ts\":",
            id, pid, tid);
    put_us(out, t0 - t->start_ns);
    putc('}', out);
    return 0;
}

int rp_export_chrome(FILE *out, struct rp_trace *t)
{
    struct rp_merge *m = rp_merge_begin(t);
    struct rp_memtrack *mem = calloc(t->nfiles, sizeof *mem); /* per process: one counter track each */
    struct rp_kernel_names k = {0};
    struct gpu_tracks gpu = {0};
    int first = 1, rc = 0;
    if (!m || !mem || rp_symbolize(t) < 0) {
        rp_merge_end(m);
        free(mem);
        return -1;
    }
    fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n", out);
    metadata(out, t, &first);
    nvtx_events(out, t, &first);
    for (const struct rp_call *c; (c = rp_merge_next(m));) {
        char name[256], rbuf[48];
        fprintf(out, "%s{\"ph\":\"X\",\"cat\":\"cuda_api%s%s\",\"name\":", first ? "" : ",\n",
                c->call->family ? "," : "", c->call->family ? ct_name_family(c->call->family) : "");
        first = 0;
        rp_json_string(out, rp_call_timeline_name(&k, c, name, sizeof name));
        fputs(",\"ts\":", out);
        put_us(out, c->t0 - t->start_ns);
        fputs(",\"dur\":", out);
        put_us(out, c->t1 - c->t0);
        fprintf(out, ",\"pid\":%" PRIu32 ",\"tid\":%" PRIu32 ",\"args\":{\"result\":\"%s\",\"seq\":%" PRIu64, c->file->hdr.pid,
                c->call->c.h.tid, rp_result_name(c->call->c.result, rbuf, sizeof rbuf), c->call->c.seq);
        rp_args_json(out, c, &k);
        stack_arg(out, c);
        fputs("}}", out);
        for (size_t i = 0; c->gpu && i < c->ngpu; i++)
            if (gpu_slice(out, &gpu, t, c, i, &k) < 0)
                rc = -1;
        struct rp_memtrack *mt = &mem[c->file_index];
        if (rp_memtrack_call(mt, c)) {
            fprintf(out, ",\n{\"ph\":\"C\",\"name\":\"device memory\",\"pid\":%" PRIu32 ",\"ts\":", c->file->hdr.pid);
            put_us(out, c->t1 - t->start_ns);
            fprintf(out, ",\"args\":{\"bytes\":%" PRIu64 "}}", mt->device.live_bytes);
        }
        if (mt->oom)
            rc = -1;
    }
    if (rc == 0 && rp_merge_failed(m))
        rc = RP_EXIT_UNREADABLE;
    fputs("\n]}\n", out);
    rp_memtracks_free(mem, t->nfiles);
    rp_u64map_free(&gpu.devices);
    rp_u64map_free(&gpu.streams);
    rp_kernel_names_free(&k);
    rp_merge_end(m);
    if (rc < 0)
        fprintf(stderr, "cudatrace-report: out of memory\n");
    return rc;
}
