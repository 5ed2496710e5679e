/* Chrome Trace Event JSON (Perfetto, chrome://tracing): a process per traced process, a track per thread,
 * an X slice per call with its arguments (and its symbolized call stack, when recorded), a "device memory"
 * counter of live bytes per process. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "format/enum_names.h"
#include "report/args.h"
#include "report/export.h"
#include "report/memory.h"
#include "report/display_names.h"
#include "report/symbolize.h"
#include "report/text.h"

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

int rp_export_chrome(FILE *out, struct rp_trace *t)
{
    struct rp_merge *m = rp_merge_begin(t);
    struct rp_memtrack *mem = calloc(t->nfiles, sizeof *mem); /* per process: one counter track each */
    struct rp_kernel_names k = {0};
    int first = 1, rc = 0;
    if (!m || !mem || rp_symbolize(t) < 0) {
        rp_merge_end(m);
        free(mem);
        return -1;
    }
    fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n", out);
    metadata(out, t, &first);
    for (const struct rp_call *c; (c = rp_merge_next(m));) {
        char name[256], rbuf[48];
        rp_call_api_name(c, name, sizeof name);
        fprintf(out, "%s{\"ph\":\"X\",\"cat\":\"cuda_api%s%s\",\"name\":", first ? "" : ",\n",
                c->call->family ? "," : "", c->call->family ? ct_name_family(c->call->family) : "");
        first = 0;
        if (c->call->family == CT_FAM_LAUNCH) { /* the kernel is what people look for on the timeline */
            const char *kn = rp_kernel_name(&k, c);
            size_t l = strlen(name);
            snprintf(name + l, sizeof name - l, " %s", kn ? kn : "?");
        }
        rp_json_string(out, name);
        fputs(",\"ts\":", out);
        put_us(out, c->t0 - t->start_ns);
        fputs(",\"dur\":", out);
        put_us(out, c->t1 - c->t0);
        fprintf(out, ",\"pid\":%" PRIu32 ",\"tid\":%" PRIu32 ",\"args\":{\"result\":\"%s\",\"seq\":%" PRIu64, c->file->hdr.pid,
                c->call->c.h.tid, rp_result_name(c->call->c.result, rbuf, sizeof rbuf), c->call->c.seq);
        rp_args_json(out, c, &k);
        stack_arg(out, c);
        fputs("}}", out);
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
    for (size_t i = 0; i < t->nfiles; i++)
        rp_memtrack_free(&mem[i]);
    free(mem);
    rp_kernel_names_free(&k);
    rp_merge_end(m);
    if (rc < 0)
        fprintf(stderr, "cudatrace-report: out of memory\n");
    return rc;
}
