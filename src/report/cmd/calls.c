/* cudatrace-report calls: one line per call in time order, with the decoded arguments and filters. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/model/apimatch.h"
#include "report/model/args.h"
#include "report/cmd/cli.h"
#include "report/model/map.h"
#include "report/model/display_names.h"
#include "report/model/range_filter.h"
#include "report/model/frames.h"
#include "report/symbols/symbolize.h"
#include "report/model/trace.h"

struct filter {
    const char *api;  /* fnmatch pattern on the display name or the variant, NULL: all */
    int64_t tid, pid; /* -1: all */
    int64_t from, to; /* since the trace start; to < 0: no end */
    int errors;
};

static int keep(const struct filter *f, const struct rp_call *c, const struct rp_api_entry *api, int64_t rel)
{
    if (f->errors && c->call->c.result == 0)
        return 0;
    if (f->tid >= 0 && c->call->c.h.tid != (uint64_t)f->tid)
        return 0;
    if (f->pid >= 0 && c->file->hdr.pid != (uint64_t)f->pid)
        return 0;
    if (rel < f->from || (f->to >= 0 && rel > f->to))
        return 0;
    return api->match;
}

/* Columns in the order of nsys cuda_api_trace where they overlap (Start, Duration, Name, Result, CorrID, Pid,
 * Tid, Thread Name), then what cudatrace adds. */
static void header(FILE *out, enum rp_format fmt, const struct rp_timeunit *u, int stacks)
{
    const char *n = u->name;
    if (fmt == RP_FMT_CSV || fmt == RP_FMT_TSV) {
        char line[512];
        snprintf(line, sizeof line, "Start (%s),Duration (%s),Name,Result,CorrID,Pid,Tid,Thread Name,Variant,Result Name,"
                 "GPU Start (%s),GPU Duration (%s),Arguments%s\n", n, n, n, n, stacks ? ",Stack" : "");
        for (char *p = line; fmt == RP_FMT_TSV && *p; p++)
            if (*p == ',')
                *p = '\t';
        fputs(line, out);
    } else if (fmt == RP_FMT_TABLE) {
        char s[24], d[24], gs[24], gd[24];
        snprintf(s, sizeof s, "Start (%s)", n);
        snprintf(d, sizeof d, "Duration (%s)", n);
        snprintf(gs, sizeof gs, "GPU Start (%s)", n);
        snprintf(gd, sizeof gd, "GPU Duration (%s)", n);
        fprintf(out, "%16s %14s  %-28s %-28s %8s %8s %-16s %16s %17s  %s\n", s, d, "Name", "Result", "Pid", "Tid",
                "Thread Name", gs, gd, "Arguments");
    }
}

/* The call's arguments as rp_args_text writes them, malloc'ed; NULL when out of memory. */
static char *args_text(const struct rp_call *c, struct rp_kernel_names *k)
{
    char *args = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&args, &len);
    if (!m)
        return NULL;
    rp_args_text(m, c, k);
    if (fclose(m) != 0) {
        free(args);
        return NULL;
    }
    return args;
}

/* stacks: the call's stack follows (table: a frame a line; csv, tsv: a last field; json: "stack"). */
static void line(FILE *out, enum rp_format fmt, const struct rp_timeunit *u, const struct rp_call *c,
                 const char *name, int64_t rel, struct rp_kernel_names *k, int stacks)
{
    const struct rp_stack *st = stacks ? rp_stacktab_get(&c->file->stacks, c->call->c.stack_id) : NULL;
    char start[48], dur[48], gstart[48], gdur[48], rbuf[48];
    rp_fmt_time(start, sizeof start, (double)rel, u, 0);
    rp_fmt_time(dur, sizeof dur, (double)(c->t1 - c->t0), u, 0);
    rp_gpu_times(c, rel, u, gstart, gdur);
    const char *result = rp_result_name(c->call->c.result, rbuf, sizeof rbuf);
    const char *thread = rp_thread_name(c->file, c->call->c.h.tid);
    char *args;
    switch (fmt) {
    case RP_FMT_TABLE: /* names from the trace through rp_text_pad: no control character reaches the terminal */
        fprintf(out, "%16s %14s  ", start, dur);
        rp_text_pad(out, name, -28);
        fprintf(out, " %-28s %8" PRIu32 " %8" PRIu32 " ", result, c->file->hdr.pid, c->call->c.h.tid);
        rp_text_pad(out, *thread ? thread : "-", -16);
        fprintf(out, " %16s %17s  ", gstart, gdur);
        args = args_text(c, k);
        rp_text_put(out, args ? args : "");
        free(args);
        putc('\n', out);
        if (st)
            rp_stack_text(out, st, "    ");
        break;
    case RP_FMT_CSV:
    case RP_FMT_TSV: {
        const char sep = fmt == RP_FMT_TSV ? '\t' : ',';
        fprintf(out, "%s%c%s%c", start, sep, dur, sep);
        rp_sep_field(out, name, fmt);
        fprintf(out, "%c%d%c%" PRIu64 "%c%" PRIu32 "%c%" PRIu32 "%c", sep, (int)c->call->c.result, sep, c->call->c.seq,
                sep, c->file->hdr.pid, sep, c->call->c.h.tid, sep);
        rp_sep_field(out, thread, fmt);
        putc(sep, out);
        rp_sep_field(out, rp_call_variant(c), fmt);
        fprintf(out, "%c%s%c%s%c%s%c", sep, result, sep, gstart, sep, gdur, sep);
        /* the arguments as one field: text with quotes, so it is written to a buffer first */
        if ((args = args_text(c, k)) != NULL) {
            rp_sep_field(out, args, fmt);
            free(args);
        }
        if (stacks) {
            char *frames = st ? rp_stack_line(st) : NULL;
            putc(sep, out);
            rp_sep_field(out, frames ? frames : "", fmt);
            free(frames);
        }
        putc('\n', out);
        break;
    }
    case RP_FMT_JSON:
        rp_call_json(out, c, rel, u, k, NULL, st);
        break;
    case RP_FMT_FOLDED:
    case RP_FMT_HTML: break; /* not formats of calls (rp_common_option refuses them) */
    }
}

static int run(int argc, char **argv)
{
    static const struct option longopts[] = {RP_COMMON_LONGOPTS,
                                             {"api", required_argument, NULL, 'a'},
                                             {"tid", required_argument, NULL, 'T'},
                                             {"pid", required_argument, NULL, 'P'},
                                             {"from", required_argument, NULL, 'F'},
                                             {"to", required_argument, NULL, 'E'},
                                             {"errors", no_argument, NULL, 'e'},
                                             {"range", required_argument, NULL, 'r'},
                                             {"stacks", no_argument, NULL, 'S'},
                                             {NULL, 0, NULL, 0}};
    const char *range = NULL;
    const struct rp_command *cmd = &rp_cmd_calls;
    struct rp_common co;
    struct filter flt = {NULL, -1, -1, 0, -1, 0};
    unsigned long long v;
    int opt, stacks = 0;
    rp_common_init(&co);
    while ((opt = getopt_long(argc, argv, RP_COMMON_SHORTOPTS "a:e", longopts, NULL)) != -1) {
        int h = rp_common_option(&co, cmd, opt, optarg, "table,csv,tsv,json,column");
        if (h < 0)
            return RP_EXIT_USAGE;
        if (h)
            continue;
        switch (opt) {
        case 'h': rp_help(cmd); return RP_EXIT_OK;
        case 'a': flt.api = optarg; break;
        case 'e': flt.errors = 1; break;
        case 'r': range = optarg; break;
        case 'S': stacks = 1; break;
        case 'T':
        case 'P':
            if (rp_parse_u64(cmd, opt == 'T' ? "--tid" : "--pid", optarg, &v) < 0)
                return RP_EXIT_USAGE;
            if (v > UINT32_MAX) /* ids are 32-bit: a larger one would match another id's low bits */
                return rp_usage_error(cmd, "%s %s is not a thread or process id", opt == 'T' ? "--tid" : "--pid", optarg);
            *(opt == 'T' ? &flt.tid : &flt.pid) = (int64_t)v;
            break;
        case 'F':
        case 'E':
            if (rp_parse_time(cmd, opt == 'F' ? "--from" : "--to", optarg, opt == 'F' ? &flt.from : &flt.to) < 0)
                return RP_EXIT_USAGE;
            break;
        default: return rp_usage_hint(cmd);
        }
    }
    if (flt.to >= 0 && flt.to < flt.from) /* no call could be listed: a slip, not a question */
        return rp_usage_error(cmd, "--to is before --from");
    struct rp_trace tr;
    int rc = rp_open_files(&tr, cmd, argc, argv, optind, 0);
    if (rc != RP_EXIT_OK && rc != RP_EXIT_DAMAGED)
        return rc;
    struct rp_kernel_names k = {0};
    struct rp_apimatch ac = {flt.api, {0}, NULL, 0, 0};
    struct rp_range_filter rf = {0};
    if (range && rp_range_filter_init(&rf, &tr, range) < 0) {
        rp_trace_close(&tr);
        return RP_EXIT_FAILED;
    }
    if (range && rf.ranges == 0)
        fprintf(stderr, RP_PROG ": warning: no NVTX range '%s' in the trace: no call is listed\n", range);
    struct rp_merge *m = !stacks || rp_symbolize(&tr) == 0 ? rp_merge_begin(&tr) : NULL;
    FILE *out = m ? rp_output_open(&co) : NULL;
    if (!out) {
        rc = RP_EXIT_FAILED;
    } else {
        enum rp_format fmt = co.format >= 0 ? (enum rp_format)co.format : rp_format_default(out);
        header(out, fmt, &co.unit, stacks);
        for (const struct rp_call *c; (c = rp_merge_next(m));) {
            int64_t rel = c->t0 - tr.start_ns;
            const struct rp_api_entry *api = rp_apimatch_of(&ac, c);
            if (!api) {
                fprintf(stderr, RP_PROG ": out of memory\n");
                rc = RP_EXIT_FAILED;
                break;
            }
            if (keep(&flt, c, api, rel) && (!range || rp_range_filter_keep(&rf, c)))
                line(out, fmt, &co.unit, c, api->name, rel, &k, stacks);
        }
        if (rp_merge_failed(m))
            rc = RP_EXIT_UNREADABLE;
        rc = rp_output_close(out, &co, rc);
    }
    rp_range_filter_free(&rf);
    rp_apimatch_free(&ac);
    rp_kernel_names_free(&k);
    rp_merge_end(m);
    rp_trace_close(&tr);
    return rc;
}

const struct rp_command rp_cmd_calls = {
    "calls", "one line per call in time order, with decoded arguments",
    "Usage: " RP_PROG " calls [OPTION]... FILE...\n"
    "List every call of the trace files in time order (files merged), in the columns of nsys\n"
    "cuda_api_trace where they overlap: start (since the trace start), duration, API, result,\n"
    "CorrID (the call's sequence number), pid, tid, thread name; then the exported variant, the\n"
    "result's name, GPU start and GPU duration (of a launch or copy timed on the GPU; empty for\n"
    "the others) and the decoded arguments (sizes, pointers, memory kinds, grid/block, kernel\n"
    "name, stream, copy direction).  The table shows the result's name in Result.\n"
    "\n"
    "Filters (all must hold):\n"
    "      --api=PATTERN    API name matches the shell glob PATTERN (cuMemcpy*); the display name\n"
    "                       (cuLaunchKernel_ptsz) and the exported variant (cuMemAlloc_v2) are tried\n"
    "      --tid=TID        calls of this thread only\n"
    "      --pid=PID        calls of this process only\n"
    "      --from=TIME      calls starting at or after TIME since the trace start\n"
    "      --to=TIME        calls starting at or before TIME (TIME: 1500, 2.5us, 10ms, 1s; ns if bare)\n"
    "  -e, --errors         calls that returned other than CUDA_SUCCESS\n"
    "      --stacks         each call's recorded stack with it, its Python frames included (table:\n"
    "                       a frame a line below the call; csv, tsv: a last column Stack; json: \"stack\")\n"
    "      --range=NAME[@DOMAIN]  calls made inside an NVTX range of that message (push/pop or\n"
    "                       start/end), on the thread that opened it; @DOMAIN: of that domain only\n"
    "\n"
    "Options:\n"
    "  -f, --format=FMT     table, csv, tsv or json (JSON lines: one object per call, with an \"args\"\n"
    "                       object, and a \"gpu\" object {start, duration, device, stream} when\n"
    "                       timed on the GPU); default: table on a terminal, else csv\n"
    "  -u, --timeunit=UNIT  ns, us, ms or s (or nsec, usec, msec, sec, seconds ...) for the starts\n"
    "                       and durations (default ns)\n"
    "  -o, --output=FILE    write to FILE instead of standard output\n"
    RP_JOBS_HELP
    "  -h, --help           this help\n"
    "\n"
    "Each thread's calls are in order in a file, so the listing merges one cursor per (file, thread)\n"
    "and keeps no call in memory; the GPU spans, written apart from their calls, are kept (40 bytes\n"
    "each) and joined to their calls by sequence number.\n"
    "\n"
    "Exit status: 0 ok, 1 usage, 2 unreadable or not a trace, 3 truncated or corrupt (calls\n"
    "before the damage listed, with a warning), 4 out of memory or output error.\n",
    run,
};
