/* cudatrace-report memory: allocations, frees and peaks per device and kind; the call sites that held the
 * most at the device peak; what was still allocated at exit (leaks) grouped by call site, in the manner of
 * compute-sanitizer --leak-check full and heaptrack. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/cmd/cli.h"
#include "report/model/memory.h"
#include "report/model/display_names.h"
#include "report/model/sites.h"
#include "report/model/frames.h"
#include "report/symbols/symbolize.h"
#include "report/model/table.h"
#include "report/model/trace.h"

struct result {
    struct rp_memtrack end;  /* after every call */
    struct rp_sites peak;    /* live by site at the device peak */
    struct rp_sites leaks;   /* live by site at exit */
    int stacks;              /* some file recorded stacks */
    int ranges;              /* some file holds only capture ranges */
    int by_python;           /* --group-by python: sites are innermost Python frames of user code */
};

/* ---- table and csv ---- */

static void kinds_table(FILE *out, enum rp_format fmt, const struct result *r, const struct rp_trace *t,
                        const struct rp_timeunit *u)
{
    struct rp_table tb;
    char title[48];
    snprintf(title, sizeof title, "Peak At (%s)#", u->name);
    const char *titles[] = {"Device!", "Kind", "Allocs#", "Alloc Bytes#", "Frees#", "Freed Bytes#",
                            "Peak Bytes#", title, "Live At Exit#", "Live Bytes At Exit#"};
    if (rp_table_init(&tb, "memory", "Memory by device and kind (peak at: time since trace start)", 10, titles) < 0)
        return;
    for (size_t d = 0; d < r->end.ndevices; d++)
        for (unsigned k = 0; k < RP_MEM_KINDS; k++) {
            const struct rp_mem_stats *s = &r->end.by_device[d * RP_MEM_KINDS + k];
            char c[9][48];
            if (!s->allocs)
                continue;
            if (d)
                snprintf(c[0], 48, "%zu", d - 1);
            else
                strcpy(c[0], "-");
            if (s->peak_bytes)
                rp_fmt_time(c[1], 48, (double)(s->peak_t - t->start_ns), u, 0);
            else
                c[1][0] = '\0';
            const char *row[] = {c[0], rp_mem_kind_name(k), rp_u64s(c[2], s->allocs), rp_u64s(c[3], s->alloc_bytes),
                                 rp_u64s(c[4], s->frees), rp_u64s(c[5], s->freed_bytes), rp_u64s(c[6], s->peak_bytes), c[1],
                                 rp_u64s(c[7], s->live), rp_u64s(c[8], s->live_bytes)};
            rp_table_row(&tb, row);
        }
    rp_table_print(&tb, out, fmt, 1, fmt == RP_FMT_CSV);
    rp_table_free(&tb);
}

static void sites_csv(FILE *out, const char *key, const struct rp_sites *s, unsigned long long top)
{
    fprintf(out, "\n# %s\nBytes,Allocations,Stack\n", key);
    for (size_t i = 0; i < s->n && (!top || i < top); i++) {
        char *line = rp_stack_line(s->v[i].stack);
        fprintf(out, "%" PRIu64 ",%" PRIu64 ",", s->v[i].bytes, s->v[i].count);
        rp_csv_field(out, line ? line : "");
        putc('\n', out);
        free(line);
    }
}

/* A site's stack; grouped by Python line, the site of the stacks without a Python frame says so. */
static void site_text(FILE *out, const struct result *r, const struct rp_site *s)
{
    if (r->by_python && r->stacks && !s->stack)
        fputs("    (no Python frame: native code, or a thread that runs no Python)\n", out);
    else
        rp_stack_text(out, s->stack, "    ");
}

static void print_text(FILE *out, const struct result *r, const struct rp_trace *t, const struct rp_timeunit *u,
                       unsigned long long top)
{
    char b1[48], b2[48], b3[48], b4[64];
    kinds_table(out, RP_FMT_TABLE, r, t, u);
    if (!r->stacks)
        fputs("\nCall stacks were not recorded (CUDATRACE_STACKS=none, or a build without libunwind): "
              "allocations are not attributed to call sites.\n", out);
    if (r->end.device.peak_bytes) {
        fprintf(out, "\nPeak device memory: %s bytes at %s %s; held by:\n",
                rp_group_digits(b1, sizeof b1, rp_u64s(b3, r->end.device.peak_bytes)),
                rp_group_digits(b4, sizeof b4, rp_fmt_time(b2, sizeof b2, (double)(r->end.device.peak_t - t->start_ns), u, 0)),
                u->name);
        for (size_t i = 0; i < r->peak.n && (!top || i < top); i++) {
            fprintf(out, "  %s bytes in %" PRIu64 " allocations at:\n",
                    rp_group_digits(b1, sizeof b1, rp_u64s(b3, r->peak.v[i].bytes)), r->peak.v[i].count);
            site_text(out, r, &r->peak.v[i]);
        }
    }
    uint64_t bytes = 0, count = 0;
    for (size_t i = 0; i < r->leaks.n; i++) {
        const struct rp_site *s = &r->leaks.v[i];
        bytes += s->bytes;
        count += s->count;
        if (top && i >= top)
            continue;
        fprintf(out, "\nLeaked %s bytes in %" PRIu64 " allocation%s\n", rp_group_digits(b1, sizeof b1, rp_u64s(b3, s->bytes)),
                s->count, s->count == 1 ? "" : "s");
        site_text(out, r, s);
    }
    fprintf(out, "\nLEAK SUMMARY: %s bytes in %" PRIu64 " allocation%s from %zu call site%s still allocated at exit\n",
            rp_group_digits(b1, sizeof b1, rp_u64s(b3, bytes)), count, count == 1 ? "" : "s", r->leaks.n,
            r->leaks.n == 1 ? "" : "s");
    fprintf(out, "Frees of unknown pointers (allocated before tracing, or freed twice): %" PRIu64 "\n",
            r->end.unmatched_frees);
    if (r->ranges)
        fputs("Only capture ranges were recorded (CUDATRACE_CAPTURE=profiler): an allocation freed outside them "
              "counts as leaked here, and a free of one made outside them as a free of an unknown pointer.\n",
              out);
}

/* ---- folded ---- */

/* The sites holding device memory at its peak (or still allocated at exit), one folded stack each, root
 * first, weighed by their bytes; a site without a stack as "[no stack]" (grouped by Python line: the
 * allocations made without a Python frame, "[no Python frame]"). */
static void print_folded(FILE *out, const struct result *r, const struct rp_sites *s)
{
    for (size_t i = 0; i < s->n; i++) {
        if (!s->v[i].bytes)
            continue;
        if (s->v[i].stack && s->v[i].stack->nframes)
            rp_stack_folded(out, s->v[i].stack);
        else
            fputs(r->by_python && r->stacks ? "[no Python frame]" : "[no stack]", out);
        fprintf(out, " %" PRIu64 "\n", s->v[i].bytes);
    }
}

/* ---- json ---- */

static void sites_json(FILE *out, const struct rp_sites *s, unsigned long long top)
{
    putc('[', out);
    for (size_t i = 0; i < s->n && (!top || i < top); i++) {
        fprintf(out, "%s{\"bytes\":%" PRIu64 ",\"allocations\":%" PRIu64 ",\"stack\":", i ? "," : "",
                s->v[i].bytes, s->v[i].count);
        rp_stack_json(out, s->v[i].stack);
        putc('}', out);
    }
    putc(']', out);
}

static void print_json(FILE *out, const struct result *r, const struct rp_trace *t, unsigned long long top)
{
    int first = 1;
    fprintf(out, "{\"stacks_recorded\":%s,\"ranges_only\":%s,\"group_by\":\"%s\",\"memory\":[",
            r->stacks ? "true" : "false", r->ranges ? "true" : "false", r->by_python ? "python" : "stack");
    for (size_t d = 0; d < r->end.ndevices; d++)
        for (unsigned k = 0; k < RP_MEM_KINDS; k++) {
            const struct rp_mem_stats *s = &r->end.by_device[d * RP_MEM_KINDS + k];
            if (!s->allocs)
                continue;
            fprintf(out,
                    "%s{\"device\":%d,\"kind\":\"%s\",\"allocs\":%" PRIu64 ",\"alloc_bytes\":%" PRIu64
                    ",\"frees\":%" PRIu64 ",\"freed_bytes\":%" PRIu64 ",\"peak_bytes\":%" PRIu64
                    ",\"peak_time_ns\":%" PRId64 ",\"live_at_exit\":%" PRIu64 ",\"live_bytes_at_exit\":%" PRIu64 "}",
                    first ? "" : ",", (int)d - 1, rp_mem_kind_name(k), s->allocs, s->alloc_bytes, s->frees,
                    s->freed_bytes, s->peak_bytes, s->peak_bytes ? s->peak_t - t->start_ns : 0, s->live,
                    s->live_bytes);
            first = 0;
        }
    fprintf(out, "],\"peak\":{\"bytes\":%" PRIu64 ",\"time_ns\":%" PRId64 ",\"sites\":", r->end.device.peak_bytes,
            r->end.device.peak_bytes ? r->end.device.peak_t - t->start_ns : 0);
    sites_json(out, &r->peak, top);
    fputs("},\"leaks\":", out);
    sites_json(out, &r->leaks, top);
    uint64_t bytes = 0, count = 0;
    for (size_t i = 0; i < r->leaks.n; i++)
        bytes += r->leaks.v[i].bytes, count += r->leaks.v[i].count;
    fprintf(out, ",\"leak_summary\":{\"bytes\":%" PRIu64 ",\"allocations\":%" PRIu64 ",\"sites\":%zu}", bytes, count,
            r->leaks.n);
    fprintf(out, ",\"unknown_frees\":%" PRIu64 "}\n", r->end.unmatched_frees);
}

static int run(int argc, char **argv)
{
    static const struct option longopts[] = {RP_COMMON_LONGOPTS, {"top", required_argument, NULL, 't'},
                                              {"error-exitcode", required_argument, NULL, 'x'},
                                              {"group-by", required_argument, NULL, 'g'},
                                              {"weight", required_argument, NULL, 'w'},
                                              {NULL, 0, NULL, 0}};
    struct rp_common co;
    unsigned long long top = 0, leak_exit = 0;
    int opt, by_python = 0, leaked = 0;
    rp_common_init(&co);
    while ((opt = getopt_long(argc, argv, RP_COMMON_SHORTOPTS "t:g:w:", longopts, NULL)) != -1) {
        int h = rp_common_option(&co, &rp_cmd_memory, opt, optarg, "table,csv,json,folded");
        if (h < 0)
            return RP_EXIT_USAGE;
        if (h)
            continue;
        switch (opt) {
        case 'h': rp_help(&rp_cmd_memory); return RP_EXIT_OK;
        case 't':
            if (rp_parse_u64(&rp_cmd_memory, "--top", optarg, &top) < 0)
                return RP_EXIT_USAGE;
            break;
        case 'x':
            if (rp_parse_u64(&rp_cmd_memory, "--error-exitcode", optarg, &leak_exit) < 0)
                return RP_EXIT_USAGE;
            if (leak_exit > 255)
                return rp_usage_error(&rp_cmd_memory, "--error-exitcode takes 0 to 255, not %s", optarg);
            break;
        case 'g':
            if (rp_parse_group_by(&rp_cmd_memory, optarg, &by_python) < 0)
                return RP_EXIT_USAGE;
            break;
        case 'w':
            if (strcmp(optarg, "peak") != 0 && strcmp(optarg, "leaked") != 0)
                return rp_usage_error(&rp_cmd_memory, "--weight takes peak or leaked, not %s", optarg);
            leaked = strcmp(optarg, "leaked") == 0;
            break;
        default: return rp_usage_hint(&rp_cmd_memory);
        }
    }
    struct rp_trace tr;
    int rc = rp_open_files(&tr, &rp_cmd_memory, argc, argv, optind, 0);
    if (rc != RP_EXIT_OK && rc != RP_EXIT_DAMAGED)
        return rc;
    struct result r;
    memset(&r, 0, sizeof r);
    r.by_python = by_python;
    struct rp_memtrack at_peak = {0};
    uint64_t peak_at = 0;
    for (size_t i = 0; i < tr.nfiles; i++) {
        r.stacks |= rp_file_has_stacks(&tr.files[i]);
        r.ranges |= rp_file_ranges_only(&tr.files[i]);
    }
    int rr = 0;
    if (rp_symbolize(&tr) < 0 || (rr = rp_memtrack_replay(&tr, &r.end, 0, &peak_at, NULL, NULL)) != 0 ||
        (peak_at && (rr = rp_memtrack_replay(&tr, &at_peak, peak_at, NULL, NULL, NULL)) != 0) ||
        rp_sites_of_memory(&r.leaks, &tr, &r.end, by_python, 0) < 0 ||
        rp_sites_of_memory(&r.peak, &tr, &at_peak, by_python, 1) < 0) {
        if (rr == RP_EXIT_UNREADABLE) {
            rc = rr;
            goto out;
        }
        fprintf(stderr, RP_PROG ": out of memory\n");
        rc = RP_EXIT_FAILED;
        goto out;
    }
    FILE *f = rp_output_open(&co);
    if (!f) {
        rc = RP_EXIT_FAILED;
        goto out;
    }
    enum rp_format fmt = co.format >= 0 ? (enum rp_format)co.format : rp_format_default(f);
    if (fmt == RP_FMT_FOLDED) {
        print_folded(f, &r, leaked ? &r.leaks : &r.peak);
    } else if (fmt == RP_FMT_JSON) {
        print_json(f, &r, &tr, top);
    } else if (fmt == RP_FMT_CSV) {
        kinds_table(f, fmt, &r, &tr, &co.unit);
        sites_csv(f, "peak_sites", &r.peak, top);
        sites_csv(f, "leaks", &r.leaks, top);
    } else {
        print_text(f, &r, &tr, &co.unit, top);
    }
    rc = rp_output_close(f, &co, rc);
    if (rc == RP_EXIT_OK && leak_exit && r.leaks.n) /* as compute-sanitizer --error-exitcode: for CI */
        rc = (int)leak_exit;
out:
    rp_memtrack_free(&r.end);
    rp_memtrack_free(&at_peak);
    rp_sites_free(&r.peak);
    rp_sites_free(&r.leaks);
    rp_trace_close(&tr);
    return rc;
}

const struct rp_command rp_cmd_memory = {
    "memory", "allocations by device and kind, the peak and who held it, leaks by call site",
    "Usage: " RP_PROG " memory [OPTION]... FILE...\n"
    "GPU memory of one or more trace files, merged: per device and kind (device, pinned, managed,\n"
    "async (stream-ordered pools), vmm, vmm_map) the allocations, frees and bytes, the peak of live bytes\n"
    "and when it happened; at the peak of device memory (every kind but pinned host memory and vmm_map,\n"
    "the mappings of vmm memory), the call sites holding it, the most first; the allocations of\n"
    "every kind still live at exit (leaks) grouped by call site, as 'Leaked N bytes in M allocations'\n"
    "with the call stack, then a LEAK SUMMARY; frees of pointers the trace never saw allocated.\n"
    "Call sites need the stacks of allocations (CUDATRACE_STACKS=alloc, the default, or all); without\n"
    "them the report says so and groups everything under one site.\n"
    "Stacks of a Python program carry its Python frames (CUDATRACE_PYTHON_STACKS), shown as\n"
    "'model.py:142 Net.forward'; --group-by python groups by the innermost Python frame of user code.\n"
    "\n"
    "Options:\n"
    "  -f, --format=FMT     table, csv, json or folded (default: table on a terminal, else csv);\n"
    "                       folded: one line of folded stacks per call site for flame-graph tools,\n"
    "                       'root;...;caller BYTES' (frames as in stacks --format folded), the\n"
    "                       bytes --weight says; --top does not apply\n"
    "  -w, --weight=WHAT    folded: peak (default), the bytes of device memory a site held at the\n"
    "                       peak; leaked, the bytes of every kind it still held at exit\n"
    "  -u, --timeunit=UNIT  ns, us, ms or s (or nsec, usec, msec, sec, seconds ...), for the peak\n"
    "                       times, digits grouped as in the tables (json: always ns)\n"
    "  -t, --top=N          at most N call sites at the peak and N leak sites (the summary counts all;\n"
    "                       0: all)\n"
    "      --error-exitcode=N  exit N (1 to 255) when allocations are still live at exit, as\n"
    "                       compute-sanitizer does (for CI); 0, the default: exit 0\n"
    "  -g, --group-by=WHAT  stack (default): a site is a whole call stack; python: a site is the\n"
    "                       innermost Python frame of user code, not of an installed package\n"
    "                       (site-packages, dist-packages), the standard library (lib/python3.N)\n"
    "                       or a frozen module; without one, the innermost Python frame; stacks\n"
    "                       without Python frames make one site.  The site shows that frame and\n"
    "                       the Python frames that called it\n"
    "  -o, --output=FILE    write to FILE instead of standard output\n"
    RP_JOBS_HELP
    "  -h, --help           this help\n"
    "\n"
    "Frames are symbolized from the module files named in the trace, or their separate debug files\n"
    "(CUDATRACE_DEBUG_DIRS): function+offset, file:line and inlined functions as frames of their own\n"
    "(see cudatrace-report(1), SYMBOLIZATION).\n"
    "\n"
    "Exit status: as for summary; N of --error-exitcode when there are leaks and nothing else failed.\n",
    run,
};
