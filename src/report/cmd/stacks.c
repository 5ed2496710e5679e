/* cudatrace-report stacks: for the calls of the APIs matching --api, the call sites with the most total time
 * and with the most calls, each with its symbolized stack. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/model/apimatch.h"
#include "report/cmd/cli.h"
#include "report/model/sites.h"
#include "report/model/frames.h"
#include "report/symbols/symbolize.h"
#include "report/model/trace.h"

static void site_json(FILE *out, const struct rp_site *s)
{
    fputs("{\"api\":", out);
    rp_json_string(out, s->label);
    fprintf(out, ",\"calls\":%" PRIu64 ",\"total_ns\":%" PRIu64 ",\"avg_ns\":%.1f,\"max_ns\":%" PRIu64 ",\"stack\":",
            s->count, s->total_ns, s->count ? (double)s->total_ns / (double)s->count : 0.0, s->max_ns);
    rp_stack_json(out, s->stack);
    putc('}', out);
}

static void site_row(FILE *out, enum rp_format fmt, const struct rp_site *s, const struct rp_timeunit *u)
{
    char tot[48], avg[48], max[48];
    rp_fmt_time(tot, sizeof tot, (double)s->total_ns, u, 0);
    rp_fmt_time(avg, sizeof avg, s->count ? (double)s->total_ns / (double)s->count : 0.0, u, 1);
    rp_fmt_time(max, sizeof max, (double)s->max_ns, u, 0);
    if (fmt == RP_FMT_CSV) {
        char *line = rp_stack_line(s->stack);
        fprintf(out, "%" PRIu64 ",%s,%s,%s,", s->count, tot, avg, max);
        rp_csv_field(out, s->label);
        putc(',', out);
        rp_csv_field(out, line ? line : "");
        putc('\n', out);
        free(line);
        return;
    }
    putc('\n', out);
    rp_text_put(out, s->label);
    fprintf(out, ": %" PRIu64 " calls, total %s %s, avg %s, max %s, from:\n", s->count, tot, u->name, avg, max);
    rp_stack_text(out, s->stack, "    ");
}

/* Every site with a weight as a folded stack, root first, the API its leaf: "main;train;cuLaunchKernel 1234". */
static void folded(FILE *out, struct rp_sites *s, int by_calls)
{
    rp_sites_sort_time(s);
    for (size_t i = 0; i < s->n; i++) {
        uint64_t w = by_calls ? s->v[i].count : s->v[i].total_ns;
        if (!w)
            continue;
        if (s->v[i].stack && s->v[i].stack->nframes) {
            rp_stack_folded(out, s->v[i].stack);
            putc(';', out);
        } else {
            fputs("[no stack];", out);
        }
        rp_folded_name(out, s->v[i].label);
        fprintf(out, " %" PRIu64 "\n", w);
    }
}

/* The sites in the order `sort` gives, at most `top`. */
static void section(FILE *out, enum rp_format fmt, struct rp_sites *s, void (*sort)(struct rp_sites *),
                    const char *key, const char *title, unsigned long long top, const struct rp_timeunit *u)
{
    sort(s);
    if (fmt == RP_FMT_JSON)
        fprintf(out, ",\"%s\":[", key);
    else if (fmt == RP_FMT_CSV)
        fprintf(out, "# %s\nCalls,Total Time (%s),Avg (%s),Max (%s),Name,Stack\n", key, u->name, u->name, u->name);
    else
        fprintf(out, "%s\n", title);
    for (size_t i = 0; i < s->n && (!top || i < top); i++) {
        if (fmt == RP_FMT_JSON) {
            if (i)
                putc(',', out);
            site_json(out, &s->v[i]);
        } else {
            site_row(out, fmt, &s->v[i], u);
        }
    }
    fputs(fmt == RP_FMT_JSON ? "]" : "\n", out);
}

static int run(int argc, char **argv)
{
    static const struct option longopts[] = {RP_COMMON_LONGOPTS, {"api", required_argument, NULL, 'a'},
                                              {"top", required_argument, NULL, 't'}, {"weight", required_argument, NULL, 'w'},
                                              {NULL, 0, NULL, 0}};
    struct rp_common co;
    unsigned long long top = 10;
    const char *pattern = NULL;
    int opt, by_calls = 0;
    rp_common_init(&co);
    while ((opt = getopt_long(argc, argv, RP_COMMON_SHORTOPTS "a:t:w:", longopts, NULL)) != -1) {
        int h = rp_common_option(&co, &rp_cmd_stacks, opt, optarg, "table,csv,json,folded");
        if (h < 0)
            return RP_EXIT_USAGE;
        if (h)
            continue;
        switch (opt) {
        case 'h': rp_help(&rp_cmd_stacks); return RP_EXIT_OK;
        case 'a': pattern = optarg; break;
        case 't':
            if (rp_parse_u64(&rp_cmd_stacks, "--top", optarg, &top) < 0)
                return RP_EXIT_USAGE;
            break;
        case 'w':
            if (strcmp(optarg, "time") != 0 && strcmp(optarg, "calls") != 0)
                return rp_usage_error(&rp_cmd_stacks, "--weight takes time or calls, not %s", optarg);
            by_calls = strcmp(optarg, "calls") == 0;
            break;
        default: return rp_usage_hint(&rp_cmd_stacks);
        }
    }
    struct rp_trace tr;
    int rc = rp_open_files(&tr, &rp_cmd_stacks, argc, argv, optind, 0);
    if (rc != RP_EXIT_OK && rc != RP_EXIT_DAMAGED)
        return rc;
    struct rp_apimatch am = {pattern, {0}, NULL, 0, 0};
    struct rp_sites sites = {0};
    struct rp_merge *m = NULL;
    int stacks = 0;
    for (size_t i = 0; i < tr.nfiles; i++)
        stacks |= rp_file_has_stacks(&tr.files[i]);
    if (!stacks)
        fprintf(stderr, RP_PROG " stacks: call stacks were not recorded in %s (CUDATRACE_STACKS=none, or a "
                        "build without libunwind)\n", tr.nfiles == 1 ? tr.files[0].path : "these files");
    if (rp_symbolize(&tr) < 0 || !(m = rp_merge_begin(&tr))) {
        rc = RP_EXIT_FAILED;
        goto out;
    }
    for (const struct rp_call *c; (c = rp_merge_next(m));) {
        const struct rp_api_entry *api = rp_apimatch_of(&am, c);
        struct rp_site *s = NULL;
        if (!api || (api->match && !(s = rp_site_of(&sites, &tr, c->file_index, c->call->c.stack_id, api->name,
                                                     api->index)))) {
            fprintf(stderr, RP_PROG ": out of memory\n");
            rc = RP_EXIT_FAILED;
            goto out;
        }
        if (!s)
            continue;
        uint64_t d = c->t1 > c->t0 ? (uint64_t)(c->t1 - c->t0) : 0;
        s->count++;
        s->total_ns += d;
        if (d > s->max_ns)
            s->max_ns = d;
    }
    if (rp_merge_failed(m)) {
        rc = RP_EXIT_UNREADABLE;
        goto out;
    }
    FILE *f = rp_output_open(&co);
    if (!f) {
        rc = RP_EXIT_FAILED;
        goto out;
    }
    enum rp_format fmt = co.format >= 0 ? (enum rp_format)co.format : rp_format_default(f);
    if (fmt == RP_FMT_FOLDED) {
        folded(f, &sites, by_calls);
        rc = rp_output_close(f, &co, rc);
        goto out;
    }
    if (fmt == RP_FMT_JSON) {
        fprintf(f, "{\"stacks_recorded\":%s,\"api\":", stacks ? "true" : "false");
        rp_json_string(f, pattern ? pattern : "*");
        fprintf(f, ",\"sites\":%zu", sites.n);
    }
    section(f, fmt, &sites, rp_sites_sort_time, "by_time", "Call sites by total time", top, &co.unit);
    section(f, fmt, &sites, rp_sites_sort_count, "by_count", "Call sites by number of calls", top, &co.unit);
    if (fmt == RP_FMT_JSON)
        fputs("}\n", f);
    rc = rp_output_close(f, &co, rc);
out:
    rp_merge_end(m);
    rp_sites_free(&sites);
    rp_apimatch_free(&am);
    rp_trace_close(&tr);
    return rc;
}

const struct rp_command rp_cmd_stacks = {
    "stacks", "call sites of an API by total time and by count, with their stacks",
    "Usage: " RP_PROG " stacks [OPTION]... FILE...\n"
    "Where the calls of the matching APIs come from: the call sites (distinct call stacks, the same\n"
    "code across processes) with the most total host time, then those with the most calls, each with\n"
    "its symbolized stack (innermost frame first: the caller of the CUDA function).  Calls need stacks:\n"
    "CUDATRACE_STACKS=all records them for every call, alloc (the default) for allocations and frees.\n"
    "\n"
    "Options:\n"
    "  -a, --api=PATTERN    APIs whose name or exported variant matches the shell glob PATTERN\n"
    "                       (cuLaunch*, cuMemAlloc*); default: every API\n"
    "  -t, --top=N          N call sites in each list (default 10; 0: all)\n"
    "  -f, --format=FMT     table, csv, json or folded (default: table on a terminal, else csv);\n"
    "                       folded: every call site as one line of folded stacks for flame-graph\n"
    "                       tools (flamegraph.pl, inferno, speedscope), 'root;...;caller;API WEIGHT':\n"
    "                       frames root first, Python frames among them as 'func (file.py:LINE)',\n"
    "                       the API the leaf, '[no stack]' the root where none was recorded; in\n"
    "                       names ';' becomes ',' and control characters '?'; --top does not apply\n"
    "  -w, --weight=WHAT    folded: time (default), a site's total host time of the calls in ns;\n"
    "                       calls, its number of calls\n"
    "  -u, --timeunit=UNIT  ns, us, ms or s (json and folded: always ns)\n"
    "  -o, --output=FILE    write to FILE instead of standard output\n"
    RP_JOBS_HELP
    "  -h, --help           this help\n"
    "\n"
    "Exit status: as for summary.\n",
    run,
};
