/* cudatrace-report export: the whole trace as Chrome Trace Event JSON, CSV, JSON lines, a Perfetto protobuf
 * trace or a SQLite database. */
#include "config.h"

#include <string.h>

#include "report/cmd/analyze.h"
#include "report/cmd/cli.h"
#include "report/cmd/summary.h"
#include "report/export/export.h"
#include "report/model/trace.h"

#define HTML_TOP 100 /* rows of each summary table in the HTML report */

/* A summary part's exit status as a writer's result. */
static int part(int rc)
{
    return rc == RP_EXIT_OK ? 0 : rc == RP_EXIT_FAILED ? -1 : rc;
}

/* The HTML report: the summary's tables (cmd/summary.c, as HTML) and analyze's findings (cmd/analyze.c)
 * among the charts (export/html*.c). */
static int write_html(FILE *out, struct rp_trace *t)
{
    int rc;
    rp_html_begin(out, t);
    fputs("<section id=\"trace\">\n", out);
    if ((rc = part(rp_summary_html(out, t, RP_SUMMARY_HEADER, HTML_TOP))) != 0)
        return rc;
    fputs("</section>\n<section id=\"findings\"><h2>Findings (analyze)</h2>\n", out);
    if ((rc = part(rp_analyze_html(out, t))) != 0)
        return rc;
    fputs("</section>\n<section id=\"gpu\"><h2>GPU time</h2>\n", out);
    if ((rc = part(rp_summary_html(out, t, RP_SUMMARY_GPU, HTML_TOP))) != 0)
        return rc;
    fputs("</section>\n", out);
    if ((rc = rp_html_timeline(out, t)) != 0 || (rc = rp_html_memory(out, t)) != 0)
        return rc;
    if (rp_html_ranked(t)) {
        fputs("<section id=\"ranks\"><h2>Ranks</h2>\n", out);
        if ((rc = rp_html_ranks(out, t)) != 0 || (rc = part(rp_summary_html(out, t, RP_SUMMARY_BY_RANK, HTML_TOP))) != 0)
            return rc;
        fputs("</section>\n", out);
    }
    fputs("<section id=\"host\"><h2>Host: NVTX ranges, API calls, kernels, copies, memory, errors</h2>\n", out);
    if ((rc = part(rp_summary_html(out, t, RP_SUMMARY_HOST, HTML_TOP))) != 0)
        return rc;
    fputs("</section>\n", out);
    rp_html_end(out);
    return 0;
}

/* The formats: each a stream writer, but sqlite's, which writes a file of its own (-o). */
static const struct format {
    const char *name;
    int (*write)(FILE *, struct rp_trace *);
} formats[] = {
    {"chrome", rp_export_chrome}, {"csv", rp_export_csv}, {"json", rp_export_jsonl}, {"perfetto", rp_export_perfetto},
    {"html", write_html}, {"sqlite", NULL},
};
static const char format_names[] = "chrome, csv, json, perfetto, html or sqlite";

static int run(int argc, char **argv)
{
    static const struct option longopts[] = {RP_COMMON_LONGOPTS, {NULL, 0, NULL, 0}};
    const struct rp_command *cmd = &rp_cmd_export;
    struct rp_common co;
    const struct format *format = NULL;
    int opt;
    rp_common_init(&co);
    while ((opt = getopt_long(argc, argv, RP_COMMON_SHORTOPTS, longopts, NULL)) != -1) {
        switch (opt) {
        case 'f':
            format = NULL;
            for (size_t i = 0; i < sizeof formats / sizeof formats[0] && !format; i++)
                if (!strcmp(optarg, formats[i].name))
                    format = &formats[i];
            if (!format)
                return rp_usage_error(cmd, "unknown --format '%s' (%s)", optarg, format_names);
            break;
        case 'o':
        case 'j':
            if (rp_common_option(&co, cmd, opt, optarg, "") < 0)
                return RP_EXIT_USAGE;
            break;
        case 'h': rp_help(cmd); return RP_EXIT_OK;
        case 'u': return rp_usage_error(cmd, "exports are in fixed units (see --help)");
        default: return rp_usage_hint(cmd);
        }
    }
    if (!format)
        return rp_usage_error(cmd, "--format is required (%s)", format_names);
    const int sqlite = !format->write;
#ifndef HAVE_SQLITE
    if (sqlite)
        return rp_usage_error(cmd, "this cudatrace-report was built without SQLite: --format sqlite needs "
                                   "configure --with-sqlite (Debian: libsqlite3-dev)");
#endif
    if (sqlite && !co.output)
        return rp_usage_error(cmd, "--format sqlite writes a database file: give it with -o FILE");
    struct rp_trace tr;
    int rc = rp_open_files(&tr, cmd, argc, argv, optind, 0);
    if (rc != RP_EXIT_OK && rc != RP_EXIT_DAMAGED)
        return rc;
#ifdef HAVE_SQLITE
    if (sqlite) {
        int wrc = rp_export_sqlite(co.output, &tr);
        rp_trace_close(&tr);
        return wrc == 0 ? rc : wrc < 0 ? RP_EXIT_FAILED : wrc;
    }
#endif
    FILE *out = rp_output_open(&co);
    if (!out) {
        rp_trace_close(&tr);
        return RP_EXIT_FAILED;
    }
    int wrc = format->write(out, &tr);
    if (wrc != 0)
        rc = wrc < 0 ? RP_EXIT_FAILED : wrc;
    rc = rp_output_close(out, &co, rc);
    rp_trace_close(&tr);
    return rc;
}

const struct rp_command rp_cmd_export = {
    "export", "the whole trace as a Perfetto trace, a SQLite database, Chrome JSON, CSV or JSON lines",
    "Usage: " RP_PROG " export --format=chrome|perfetto|html|sqlite|csv|json [-o OUT] FILE...\n"
    "Write every call of the trace files (merged, in time order) for other tools.\n"
    "\n"
    "  -f, --format=chrome  Chrome Trace Event JSON, for ui.perfetto.dev and chrome://tracing: a\n"
    "                       process per traced process, a track per thread (named by its name and\n"
    "                       tid), an X slice per call (ts/dur in microseconds with the nanoseconds as\n"
    "                       decimals; args: result, seq, decoded arguments; launches named with\n"
    "                       their kernel), and a \"device memory\" counter per process with the live\n"
    "                       device bytes after each allocation and free; with GPU spans (format 5)\n"
    "                       a process \"GPU N\" per device with a track per stream (\"stream 0x..\"),\n"
    "                       an X slice per timed kernel, graph or copy (args: seq, grid/block or\n"
    "                       bytes), and a flow arrow (cat \"gpu\") from each call to its GPU slice\n"
    "  -f, --format=perfetto  the same timeline as Perfetto's native protobuf trace (.pftrace), about\n"
    "                       32 bytes a call: interned names, a sequence per thread with delta times;\n"
    "                       args: bytes, result when not CUDA_SUCCESS, seq of a call timed on the GPU,\n"
    "                       stack of a call with one (frames joined by \" | \", Python frames too)\n"
    "  -f, --format=html    one self-contained HTML page (no network, no external script or font;\n"
    "                       opens offline in any browser): the summary's header and tables (at\n"
    "                       most 100 rows each, numbers as summary --format json --top 100 has\n"
    "                       them), sortable by clicking a column's heading; bar charts of the GPU\n"
    "                       kernels, copies, API functions and NVTX ranges by total time; a GPU\n"
    "                       timeline per process, device and stream (busy time per pixel, NVTX\n"
    "                       ranges above); device memory over time with its peak and the call\n"
    "                       sites holding it; with several ranks, each rank's GPU time and calls\n"
    "                       and the spread table (summary --by rank).  Charts are SVG binned to\n"
    "                       1000 pixels, so the page stays small for any number of calls\n"
    "  -f, --format=sqlite  a SQLite database (-o required; replaced if it exists): processes,\n"
    "                       devices, threads, strings, results, api_calls, launches, copies,\n"
    "                       allocations, frees, memory_usage, gpu_spans, gpu_info, nvtx_events,\n"
    "                       stacks, frames, and a view calls (doc/exports.md); needs a report built\n"
    "                       with SQLite\n"
    "  -f, --format=csv     one row per call, one column per field (times in ns since the trace\n"
    "                       start; fields a call does not have are empty; gpu_start_ns,\n"
    "                       gpu_duration_ns, gpu_device and gpu_stream for a call timed on the GPU)\n"
    "  -f, --format=json    JSON lines: one {\"type\":\"file\",...} object per file (header, process,\n"
    "                       driver, devices, threads, counts, gpu), then one {\"type\":\"call\",...} per\n"
    "                       call (with \"gpu\":{start,duration,device,stream} when timed on the GPU)\n"
    "  -o, --output=FILE    write to FILE instead of standard output\n"
    RP_JOBS_HELP
    "  -h, --help           this help\n"
    "\n"
    "Output is streamed: memory grows with the GPU spans (40 bytes each), not with the calls\n"
    "(sqlite: plus a 64 MiB page cache; html: as summary and memory, it reads the files\n"
    "several times).  chrome://tracing fails near 256 MB of JSON; Perfetto\n"
    "holds about 2 GB of JSON, and the perfetto format at any size it can hold in memory.\n"
    "\n"
    "Exit status: 0 ok, 1 usage (also sqlite in a report built without it), 2 unreadable or not a\n"
    "trace, 3 truncated or corrupt (calls before the damage exported, with a warning), 4 out of\n"
    "memory or output error.\n",
    run,
};
