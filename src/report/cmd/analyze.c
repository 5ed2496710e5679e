/* cudatrace-report analyze: the problems in a trace (the rules of src/report/analyze/), each with the
 * time it is estimated to cost, its evidence, the call sites that cause it and what usually fixes it. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/analyze/part.h"
#include "report/analyze/partfile.h"
#include "report/analyze/rules.h"
#include "report/cmd/analyze.h"
#include "report/cmd/cli.h"
#include "report/model/frames.h"
#include "report/model/table.h"
#include "report/model/trace.h"
#include "report/symbols/symbolize.h"

struct out {
    FILE *f;
    enum rp_format fmt;
    const struct rp_timeunit *u;
    unsigned long long top;
    const struct rp_an_merged *a;
};

/* A finding's lost time in % of what it is a share of (rp_an_share). */
static double share(const struct rp_an_merged *a, const struct rp_an_finding *f)
{
    const uint64_t of = f->of == RP_AN_OF_RUN ? (uint64_t)a->run_ns : f->of_ns;
    return of ? 100.0 * (double)f->lost_ns / (double)of : 0;
}

static const char *const share_words[] = {"of the run", "of its process's run", "of the processes' runs added up"};
static const char *const share_keys[] = {"run", "process", "processes"};

/* A figure as the table shows it. */
static const char *figure_text(char *buf, size_t size, const struct rp_an_figure *g, const struct rp_timeunit *u)
{
    char num[48], grouped[64];
    switch (g->unit) {
    case RP_AN_TIME:
        rp_fmt_time(num, sizeof num, g->v, u, 0);
        snprintf(buf, size, "%s %s %s", rp_group_digits(grouped, sizeof grouped, num), u->name, g->words);
        break;
    case RP_AN_PERCENT: snprintf(buf, size, "%.1f%% %s", g->v, g->words); break;
    case RP_AN_RANK: snprintf(buf, size, "rank %.0f %s", g->v, g->words); break;
    case RP_AN_BYTES:
    case RP_AN_COUNT:
        snprintf(num, sizeof num, "%.0f", g->v);
        snprintf(buf, size, "%s %s", rp_group_digits(grouped, sizeof grouped, num), g->words);
        break;
    }
    return buf;
}

static const char *time_text(char *buf, size_t size, double ns, const struct rp_timeunit *u)
{
    char num[48];
    rp_fmt_time(num, sizeof num, ns, u, 0);
    rp_group_digits(buf, size - 8, num);
    strcat(buf, " ");
    strcat(buf, u->name);
    return buf;
}

/* ---- table ---- */

/* ", in NVTX range "step"", or nothing without a range. */
static void range_text(const struct out *o, const char *range)
{
    if (!range)
        return;
    fputs(", in NVTX range \"", o->f);
    rp_text_put(o->f, range);
    putc('"', o->f);
}

/* "at: cuCtxSynchronize: 40 calls, 14.5 ms, in NVTX range "step"" and the stack; a site of allocations
 * still live (leaks), which have no time: "at: 1,048,576 bytes in 3 allocations". */
static void site_text(const struct out *o, const struct rp_site *s, int live)
{
    char t[64], n[48];
    fputs("   at: ", o->f);
    if (s->label && *s->label) {
        rp_text_put(o->f, s->label);
        fputs(": ", o->f);
    }
    if (live)
        fprintf(o->f, "%s bytes in %" PRIu64 " allocations", rp_group_digits(t, sizeof t, rp_u64s(n, s->bytes)),
                s->count);
    else
        fprintf(o->f, "%" PRIu64 " call%s, %s", s->count, s->count == 1 ? "" : "s",
                time_text(t, sizeof t, (double)s->total_ns, o->u));
    if (s->bytes && !live)
        fprintf(o->f, ", %s bytes", rp_group_digits(t, sizeof t, rp_u64s(n, s->bytes)));
    range_text(o, s->range);
    fputs("\n", o->f);
    rp_stack_text(o->f, s->stack, "       ");
}

static void gap_text(const struct out *o, const struct rp_an_gap *g)
{
    char a[64], b[64], c[64];
    fprintf(o->f, "   gap of %s at %s: ", time_text(a, sizeof a, (double)(g->t1 - g->t0), o->u),
            time_text(b, sizeof b, (double)(g->t0 - o->a->start_ns), o->u));
    if (!strcmp(g->api, RP_AN_NO_CALL)) {
        fputs("the next work was launched by no call of the trace (made while not traced, or its record lost)\n",
              o->f);
    } else {
        fputs("the next work was launched by ", o->f);
        rp_text_put(o->f, g->api);
        if (g->launch_t > g->t0)
            fprintf(o->f, " %s after the GPU went idle",
                    time_text(c, sizeof c, (double)(g->launch_t - g->t0), o->u));
        range_text(o, g->range);
        fputs(", from:\n", o->f);
        rp_stack_text(o->f, g->stack, "       ");
    }
    if (g->ncalls)
        fprintf(o->f, "     the host meanwhile made %" PRIu64 " call%s (%s), the longest:\n", g->ncalls,
                g->ncalls == 1 ? "" : "s", time_text(a, sizeof a, (double)g->calls_ns, o->u));
    else
        fputs("     the host made no CUDA call meanwhile\n", o->f);
    for (size_t i = 0; i < g->during.n && i < 2; i++) {
        fputs("  ", o->f);
        site_text(o, &g->during.v[i], 0);
    }
}

static void findings_text(const struct out *o, const struct rp_an_result *r)
{
    const struct rp_an_merged *a = o->a;
    char b1[64], b2[64], b3[256];
    fprintf(o->f, "Run: %s; steady state from %s (--warmup=%g%%%s)\n",
            time_text(b1, sizeof b1, (double)a->run_ns, o->u),
            time_text(b2, sizeof b2, (double)(a->steady_t - a->start_ns), o->u), a->o->warmup * 100,
            a->n > 1 ? " of each process's run: the earliest's" : "");
    if (!a->stacks)
        fputs("Call stacks were not recorded (CUDATRACE_STACKS=none, or a build without libunwind): findings "
              "name no call sites.\n", o->f);
    if (r->no_idle)
        fprintf(o->f, "%s\n", r->no_idle);
    if (!r->n)
        fputs("\nNo findings over their thresholds.\n", o->f);
    else
        fprintf(o->f, "\n%zu finding%s, the largest estimated time lost first:\n", r->n, r->n == 1 ? "" : "s");
    for (size_t i = 0; i < r->n; i++) {
        const struct rp_an_finding *f = &r->f[i];
        fprintf(o->f, "\n%zu. %s", i + 1, rp_an_rule_names[f->rule]);
        if (f->where[0]) {
            fputs(" (", o->f);
            rp_text_put(o->f, f->where);
            putc(')', o->f);
        }
        fprintf(o->f, ": %s\n", rp_an_rule_titles[f->rule]);
        if (f->rule != RP_AN_LEAK)
            fprintf(o->f, "   lost: %s (%.1f%% %s)\n", time_text(b1, sizeof b1, (double)f->lost_ns, o->u),
                    share(a, f), share_words[f->of]);
        fputs("   evidence: ", o->f);
        for (unsigned j = 0; j < f->nfig; j++)
            fprintf(o->f, "%s%s", j ? ", " : "", figure_text(b3, sizeof b3, &f->fig[j], o->u));
        fprintf(o->f, "\n   fix: %s\n", rp_an_rule_fixes[f->rule]);
        for (size_t j = 0; f->sites && j < f->nsites && (!o->top || j < o->top); j++)
            site_text(o, &f->sites->v[j], f->rule == RP_AN_LEAK);
        for (size_t j = 0; f->dev && j < f->dev->ntop; j++)
            gap_text(o, &f->dev->top[j]);
    }
}

/* time_text of a time that may be below zero (a rank's load). */
static const char *signed_time(char *buf, size_t size, double ns, const struct rp_timeunit *u)
{
    buf[0] = '-';
    time_text(buf + (ns < 0), size - 1, ns < 0 ? -ns : ns, u);
    return buf;
}

static void ranks_text(const struct out *o, const struct rp_an_result *r)
{
    if (r->nranks < 2)
        return;
    char b[4][64];
    fprintf(o->f, "\nRanks (load: GPU busy less twice the time in collectives; the slowest has the most):\n");
    fprintf(o->f, "  %-6s %16s %16s %8s %16s %16s\n", "Rank", "GPU busy", "Collectives", "Steps", "Step (median)",
            "Load");
    for (size_t i = 0; i < r->nranks; i++) {
        const struct rp_an_rank *k = &r->ranks[i];
        fprintf(o->f, "  %-6d %16s %16s %8" PRIu64 " %16s %16s%s\n", k->rank,
                time_text(b[0], 64, (double)k->busy_ns, o->u),
                time_text(b[1], 64, (double)k->collective_ns, o->u), k->steps,
                k->steps ? time_text(b[2], 64, k->step_ns, o->u) : "-",
                signed_time(b[3], 64, (double)k->load_ns, o->u),
                i == r->slowest ? "  slowest" : "");
    }
}

static void peak_text(const struct out *o, const struct rp_an_result *r)
{
    if (!r->peak_bytes)
        return;
    char b1[48], b2[64], b3[64];
    fprintf(o->f, "\nPeak device memory: %s bytes at %s; held by:\n",
            rp_group_digits(b2, sizeof b2, rp_u64s(b1, r->peak_bytes)),
            time_text(b3, sizeof b3, (double)(r->peak_t - o->a->start_ns), o->u));
    for (size_t i = 0; i < r->peak.n && (!o->top || i < o->top); i++) {
        fprintf(o->f, "  %s bytes in %" PRIu64 " allocations at:\n",
                rp_group_digits(b2, sizeof b2, rp_u64s(b1, r->peak.v[i].bytes)), r->peak.v[i].count);
        rp_stack_text(o->f, r->peak.v[i].stack, "    ");
    }
}

/* ---- json ---- */

static void site_json(const struct out *o, const struct rp_site *s)
{
    fputs("{\"label\":", o->f);
    rp_json_string(o->f, s->label ? s->label : "");
    fprintf(o->f, ",\"count\":%" PRIu64 ",\"time_ns\":%" PRIu64 ",\"bytes\":%" PRIu64 ",\"range\":", s->count,
            s->total_ns, s->bytes);
    if (s->range)
        rp_json_string(o->f, s->range);
    else
        fputs("null", o->f);
    fputs(",\"stack\":", o->f);
    rp_stack_json(o->f, s->stack);
    putc('}', o->f);
}

static void sites_json(const struct out *o, const struct rp_sites *s, size_t n)
{
    putc('[', o->f);
    for (size_t i = 0; s && i < n && (!o->top || i < o->top); i++) {
        if (i)
            putc(',', o->f);
        site_json(o, &s->v[i]);
    }
    putc(']', o->f);
}

static void gap_json(const struct out *o, const struct rp_an_gap *g)
{
    fprintf(o->f, "{\"start_ns\":%" PRId64 ",\"duration_ns\":%" PRId64 ",\"launch\":{\"api\":",
            g->t0 - o->a->start_ns, g->t1 - g->t0);
    rp_json_string(o->f, g->api);
    fprintf(o->f, ",\"late_ns\":%" PRId64 ",\"range\":", g->launch_t > g->t0 ? g->launch_t - g->t0 : 0);
    if (g->range)
        rp_json_string(o->f, g->range);
    else
        fputs("null", o->f);
    fputs(",\"stack\":", o->f);
    rp_stack_json(o->f, g->stack);
    fprintf(o->f, "},\"host_calls\":%" PRIu64 ",\"host_calls_ns\":%" PRIu64 ",\"during\":", g->ncalls, g->calls_ns);
    sites_json(o, &g->during, g->during.n);
    putc('}', o->f);
}

static void print_json(const struct out *o, const struct rp_an_result *r)
{
    const struct rp_an_merged *a = o->a;
    const struct rp_an_opts *op = a->o;
    fprintf(o->f,
            "{\"run_ns\":%" PRId64 ",\"steady_from_ns\":%" PRId64 ",\"stacks_recorded\":%s,\"thresholds\":{"
            "\"warmup_percent\":%g,\"min_repeats\":%" PRIu64 ",\"idle_gap_ns\":%" PRIu64
            ",\"small_copy_bytes\":%" PRIu64 ",\"min_launches\":%" PRIu64 ",\"window_ns\":%" PRIu64
            ",\"launch_interval_ns\":%" PRIu64
            ",\"rank_lead_percent\":%g,\"leak_bytes\":%" PRIu64 "},"
            "\"gpu_timeline\":",
            a->run_ns, a->steady_t - a->start_ns, a->stacks ? "true" : "false", op->warmup * 100, op->min_repeats,
            op->idle_gap_ns, op->small_bytes, op->min_launches, a->win_ns, op->launch_interval_ns, op->rank_share * 100,
            op->leak_bytes);
    if (r->no_idle)
        rp_json_string(o->f, r->no_idle);
    else
        fputs("null", o->f);
    fputs(",\"findings\":[", o->f);
    for (size_t i = 0; i < r->n; i++) {
        const struct rp_an_finding *f = &r->f[i];
        fprintf(o->f, "%s{\"rule\":\"%s\",\"title\":", i ? "," : "", rp_an_rule_names[f->rule]);
        rp_json_string(o->f, rp_an_rule_titles[f->rule]);
        fputs(",\"where\":", o->f);
        rp_json_string(o->f, f->where);
        fprintf(o->f, ",\"lost_ns\":%" PRIu64 ",\"lost_percent\":%.2f,\"lost_percent_of\":\"%s\",\"evidence\":{",
                f->lost_ns, share(a, f), share_keys[f->of]);
        for (unsigned j = 0; j < f->nfig; j++)
            fprintf(o->f, "%s\"%s\":%.*f", j ? "," : "", f->fig[j].key, f->fig[j].unit == RP_AN_PERCENT ? 2 : 0,
                    f->fig[j].v);
        fputs("},\"fix\":", o->f);
        rp_json_string(o->f, rp_an_rule_fixes[f->rule]);
        fputs(",\"sites\":", o->f);
        sites_json(o, f->sites, f->nsites);
        if (f->dev) {
            fputs(",\"gaps\":[", o->f);
            for (size_t j = 0; j < f->dev->ntop; j++) {
                if (j)
                    putc(',', o->f);
                gap_json(o, &f->dev->top[j]);
            }
            putc(']', o->f);
        }
        putc('}', o->f);
    }
    fputs("],\"ranks\":[", o->f);
    for (size_t i = 0; i < r->nranks; i++) {
        const struct rp_an_rank *k = &r->ranks[i];
        fprintf(o->f,
                "%s{\"rank\":%d,\"gpu_busy_ns\":%" PRIu64 ",\"collective_ns\":%" PRIu64 ",\"steps\":%" PRIu64
                ",\"step_median_ns\":%.0f,\"load_ns\":%" PRId64 "}",
                i ? "," : "", k->rank, k->busy_ns, k->collective_ns, k->steps, k->step_ns, k->load_ns);
    }
    fputs("],\"slowest_rank\":", o->f);
    if (r->slowest < r->nranks)
        fprintf(o->f, "%d", r->ranks[r->slowest].rank);
    else
        fputs("null", o->f);
    fprintf(o->f, ",\"peak\":{\"bytes\":%" PRIu64 ",\"time_ns\":%" PRId64 ",\"sites\":", r->peak_bytes,
            r->peak_bytes ? r->peak_t - a->start_ns : 0);
    sites_json(o, &r->peak, r->peak.n);
    fputs("}}\n", o->f);
}

/* ---- csv, tsv ---- */

static void print_table(const struct out *o, const struct rp_an_result *r)
{
    struct rp_table tb;
    char lost[48];
    snprintf(lost, sizeof lost, "Lost (%s)#", o->u->name);
    const char *titles[] = {"Rule", "Where", lost, "Lost %#", "Evidence", "Site", "Range", "Stack", "Fix"};
    if (rp_table_init(&tb, "findings", "Findings, the largest estimated time lost first", 9, titles) < 0)
        return;
    for (size_t i = 0; i < r->n; i++) {
        const struct rp_an_finding *f = &r->f[i];
        char t[48], pct[16], ev[1024] = "", fig[256];
        rp_fmt_time(t, sizeof t, (double)f->lost_ns, o->u, 0);
        snprintf(pct, sizeof pct, "%.2f", share(o->a, f));
        for (unsigned j = 0; j < f->nfig; j++) {
            if (j)
                strncat(ev, "; ", sizeof ev - strlen(ev) - 1);
            strncat(ev, figure_text(fig, sizeof fig, &f->fig[j], o->u), sizeof ev - strlen(ev) - 1);
        }
        const struct rp_site *s = f->sites && f->nsites ? &f->sites->v[0] : NULL;
        const struct rp_stack *st = s ? s->stack : NULL;
        const char *label = s && s->label ? s->label : "", *range = s && s->range ? s->range : "";
        if (f->dev && f->dev->ntop) { /* idle: the call that ended the longest gap */
            const struct rp_an_gap *g = &f->dev->top[0];
            st = g->stack;
            range = g->range ? g->range : "";
            label = "";
        }
        char *line = rp_stack_line(st);
        const char *row[] = {rp_an_rule_names[f->rule], f->where, t, pct, ev, label, range, line ? line : "",
                             rp_an_rule_fixes[f->rule]};
        rp_table_row(&tb, row);
        free(line);
    }
    rp_table_print(&tb, o->f, o->fmt, 1, r->nranks > 1);
    rp_table_free(&tb);
    if (r->nranks < 2)
        return;
    char busy[48], coll[48], step[48], load[48];
    snprintf(busy, sizeof busy, "GPU Busy (%s)#", o->u->name);
    snprintf(coll, sizeof coll, "Collectives (%s)#", o->u->name);
    snprintf(step, sizeof step, "Step Median (%s)#", o->u->name);
    snprintf(load, sizeof load, "Load (%s)#", o->u->name);
    const char *rt[] = {"Rank!", busy, coll, "Steps#", step, load, "Slowest"};
    if (rp_table_init(&tb, "ranks", "Ranks", 7, rt) < 0)
        return;
    for (size_t i = 0; i < r->nranks; i++) {
        const struct rp_an_rank *k = &r->ranks[i];
        char c[6][48];
        snprintf(c[0], 48, "%d", k->rank);
        rp_fmt_time(c[1], 48, (double)k->busy_ns, o->u, 0);
        rp_fmt_time(c[2], 48, (double)k->collective_ns, o->u, 0);
        rp_fmt_time(c[4], 48, k->step_ns, o->u, 0);
        rp_fmt_time(c[5], 48, (double)k->load_ns, o->u, 0);
        const char *row[] = {c[0], c[1], c[2], rp_u64s(c[3], k->steps), c[4], c[5], i == r->slowest ? "yes" : ""};
        rp_table_row(&tb, row);
    }
    rp_table_print(&tb, o->f, o->fmt, 0, 1);
    rp_table_free(&tb);
}

/* ---- the passes ---- */

/* The rules' passes over the calls of tr, then each file's part into parts[at[i]] (at: NULL for i).
 * RP_EXIT_OK, or RP_EXIT_UNREADABLE / RP_EXIT_FAILED with a message. */
static int map_traces(struct rp_trace *tr, const struct rp_an_opts *op, struct rp_an_part *parts, const size_t *at)
{
    struct rp_an a;
    struct rp_merge *m = NULL;
    int failed, rc = RP_EXIT_OK;
    if (rp_an_init(&a, tr, op) < 0 || rp_symbolize(tr) < 0 || !(m = rp_merge_begin(tr)))
        goto oom;
    for (const struct rp_call *c; !a.oom && (c = rp_merge_next(m));)
        rp_an_call(&a, c);
    failed = rp_merge_failed(m);
    rp_merge_end(m);
    if (failed) {
        rc = RP_EXIT_UNREADABLE;
        goto out;
    }
    rp_an_end(&a);
    if (!a.oom && rp_an_need_pass2(&a)) {
        if (!(m = rp_merge_begin(tr)))
            goto oom;
        for (const struct rp_call *c; !a.oom && (c = rp_merge_next(m));)
            rp_an_call2(&a, c);
        failed = rp_merge_failed(m);
        rp_merge_end(m);
        if (failed) {
            rc = RP_EXIT_UNREADABLE;
            goto out;
        }
    }
    for (size_t i = 0; i < tr->nfiles && !a.oom; i++)
        if (rp_an_part_of(&a, i, &parts[at ? at[i] : i]) < 0)
            a.oom = 1;
    if (!a.oom)
        goto out;
oom:
    fprintf(stderr, RP_PROG ": out of memory\n");
    rc = RP_EXIT_FAILED;
out:
    rp_an_free(&a);
    return rc;
}

/* The thresholds when no option names them (doc/analyze.md). */
static const struct rp_an_opts default_opts = {.warmup = 0.10, .min_repeats = 10, .idle_gap_ns = 1000000,
                                               .small_bytes = 65536, .min_launches = 1000,
                                               .window_ns = 100000000, .launch_interval_ns = 50000,
                                               .rank_share = 0.05, .leak_bytes = 1, .by_python = 0,
                                               .step_range = "step"};

/* The output of n parts merged. */
static int print(FILE *f, enum rp_format fmt, const struct rp_timeunit *u, unsigned long long top,
                 struct rp_an_part *parts, size_t n, const struct rp_an_opts *op, size_t *nfindings)
{
    struct rp_an_merged m;
    struct rp_an_result r;
    int bad;
    if (rp_an_merge(&m, parts, n, op, &r, &bad) < 0) {
        fprintf(stderr, bad ? RP_PROG ": a partial's memory changes are corrupt\n" : RP_PROG ": out of memory\n");
        rp_an_result_free(&r);
        rp_an_merged_free(&m);
        return bad ? RP_EXIT_DAMAGED : RP_EXIT_FAILED;
    }
    const struct out o = {f, fmt, u, top, &m};
    if (o.fmt == RP_FMT_JSON)
        print_json(&o, &r);
    else if (o.fmt == RP_FMT_TABLE) {
        findings_text(&o, &r);
        ranks_text(&o, &r);
        peak_text(&o, &r);
    } else
        print_table(&o, &r);
    *nfindings = r.n;
    rp_an_result_free(&r);
    rp_an_merged_free(&m);
    return RP_EXIT_OK;
}

static void parts_free(struct rp_an_part *p, size_t n)
{
    for (size_t i = 0; p && i < n; i++)
        rp_an_part_free(&p[i]);
    free(p);
}

int rp_analyze_html(FILE *out, struct rp_trace *tr)
{
    struct rp_an_part *parts = calloc(tr->nfiles ? tr->nfiles : 1, sizeof *parts);
    size_t nf = 0;
    int rc = parts ? map_traces(tr, &default_opts, parts, NULL) : RP_EXIT_FAILED;
    if (!parts)
        fprintf(stderr, RP_PROG ": out of memory\n");
    if (rc == RP_EXIT_OK)
        rc = print(out, RP_FMT_HTML, &rp_timeunit_ns, 0, parts, tr->nfiles, &default_opts, &nf);
    parts_free(parts, tr->nfiles);
    return rc;
}

/* ---- options ---- */

static int parse_pct(const char *opt, const char *arg, double *v)
{
    char *end;
    errno = 0;
    double x = strtod(arg, &end);
    if (errno || end == arg || (*end && strcmp(end, "%")) || !(x >= 0 && x <= 100))
        return rp_usage_error(&rp_cmd_analyze, "%s wants a percentage from 0 to 100, not '%s'", opt, arg), -1;
    *v = x / 100;
    return 0;
}

static int parse_time(const char *opt, const char *arg, uint64_t *v)
{
    int64_t ns;
    if (rp_parse_time(&rp_cmd_analyze, opt, arg, &ns) < 0)
        return -1;
    *v = (uint64_t)ns;
    return 0;
}

static int parse_num(const char *opt, const char *arg, uint64_t *v)
{
    unsigned long long x;
    if (rp_parse_u64(&rp_cmd_analyze, opt, arg, &x) < 0)
        return -1;
    *v = x;
    return 0;
}

/* ---- the files: traces and analyze partials ---- */

enum { MAP_WARMUP = 1, MAP_IDLE = 2, MAP_SMALL = 4, MAP_WINDOW = 8, MAP_INTERVAL = 16, MAP_GROUP = 32,
       MAP_STEP = 64 };

/* A partial's options into op, where no option named them; a conflict with one named, or with an earlier
 * partial's (*have), is a usage error naming both values.  0, or -1 after the message. */
static int take_mapopts(struct rp_an_opts *op, unsigned given, int *have, const struct rp_an_mapopts *m,
                        const char *path)
{
    struct {
        unsigned bit;
        const char *name;
        int same;
        char mine[64], theirs[64];
    } c[] = {{MAP_WARMUP, "--warmup", op->warmup == m->warmup, "", ""},
             {MAP_IDLE, "--idle-gap", op->idle_gap_ns == m->idle_gap_ns, "", ""},
             {MAP_SMALL, "--small-copy", op->small_bytes == m->small_bytes, "", ""},
             {MAP_WINDOW, "--window", op->window_ns == m->window_ns, "", ""},
             {MAP_INTERVAL, "--launch-interval", op->launch_interval_ns == m->launch_interval_ns, "", ""},
             {MAP_GROUP, "--group-by", op->by_python == m->by_python, "", ""},
             {MAP_STEP, "--step-range", !strcmp(op->step_range, m->step_range), "", ""}};
    snprintf(c[0].mine, 64, "%g%%", op->warmup * 100);
    snprintf(c[0].theirs, 64, "%g%%", m->warmup * 100);
    const uint64_t t[][2] = {{op->idle_gap_ns, m->idle_gap_ns}, {op->small_bytes, m->small_bytes},
                             {op->window_ns, m->window_ns}, {op->launch_interval_ns, m->launch_interval_ns}};
    for (int i = 0; i < 4; i++) {
        snprintf(c[i + 1].mine, 64, "%" PRIu64 "%s", t[i][0], i == 1 ? "" : "ns");
        snprintf(c[i + 1].theirs, 64, "%" PRIu64 "%s", t[i][1], i == 1 ? "" : "ns");
    }
    snprintf(c[5].mine, 64, "%s", op->by_python ? "python" : "stack");
    snprintf(c[5].theirs, 64, "%s", m->by_python ? "python" : "stack");
    snprintf(c[6].mine, 64, "%s", op->step_range);
    snprintf(c[6].theirs, 64, "%s", m->step_range);
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++)
        if (!c[i].same && ((given & c[i].bit) || *have))
            return rp_usage_error(&rp_cmd_analyze, "%s was made with %s=%s, not %s as %s: a partial keeps the "
                                  "thresholds its files were analyzed with (doc/partials.md)", path, c[i].name,
                                  c[i].theirs, c[i].mine, (given & c[i].bit) ? "given" : "in an earlier partial"),
                   -1;
    op->warmup = m->warmup;
    op->idle_gap_ns = m->idle_gap_ns;
    op->small_bytes = m->small_bytes;
    op->window_ns = m->window_ns;
    op->launch_interval_ns = m->launch_interval_ns;
    op->by_python = m->by_python;
    op->step_range = m->step_range;
    *have = 1;
    return 0;
}

/* One partial's parts appended to *parts (n, cap). */
static int append(struct rp_an_part **parts, size_t *n, size_t *cap, struct rp_an_part *p, size_t k)
{
    if (k == 0) /* a partial of no file: *parts may still be NULL */
        return 0;
    if (*n + k > *cap) {
        size_t c = (*n + k) * 2;
        struct rp_an_part *v = realloc(*parts, c * sizeof *v);
        if (!v)
            return -1;
        memset(v + *n, 0, (c - *n) * sizeof *v);
        *parts = v;
        *cap = c;
    }
    memcpy(*parts + *n, p, k * sizeof *p);
    *n += k;
    return 0;
}

/* A part the partial cannot hold (rp_an_part_misfit) is left out, said, and the output counted damaged; the
 * partial keeps a stub of it with the message, so that every analyze of the partial says it too
 * (rp_an_part_leave_out).  0, or -1 when out of memory. */
static int leave_out_misfits(struct rp_an_part *p, size_t n, int *damaged)
{
    for (size_t i = 0; i < n; i++) {
        const char *misfit = rp_an_part_misfit(&p[i]);
        if (!misfit)
            continue;
        char *msg = NULL; /* what the reader said of the trace too, if anything: the partial says both */
        if (asprintf(&msg,
                     "%s is left out of the partial: %s is out of the range a partial holds "
                     "(doc/partials.md), so the trace is corrupt there%s%s",
                     p[i].path ? p[i].path : "a trace", misfit, p[i].damage ? "; and " : "",
                     p[i].damage ? p[i].damage : "") < 0)
            return -1;
        fprintf(stderr, RP_PROG ": warning: %s\n", msg);
        rp_an_part_leave_out(&p[i], msg);
        *damaged = 1;
    }
    return 0;
}

/* A process given twice (in two partials, or as a trace and in a partial) counts once, as with traces
 * (rp_trace_open): the copy rp_same_process_take_later picks stays, in the earlier one's place.  The number
 * of parts left. */
static size_t take_once(struct rp_an_part *p, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        size_t j = 0;
        while (j < k && (p[j].pid != p[i].pid || p[j].start_wall_ns != p[i].start_wall_ns ||
                         p[j].start_mono_ns != p[i].start_mono_ns))
            j++;
        if (j == k) {
            p[k++] = p[i];
            continue;
        }
        if (rp_same_process_take_later(p[j].path, p[j].records, p[i].path, p[i].records, p[i].pid, 0)) {
            rp_an_part_free(&p[j]);
            p[j] = p[i];
        } else
            rp_an_part_free(&p[i]);
    }
    return k;
}

/* analyze of nf files (traces and analyze partials, in the order given, each partial's files in its place),
 * printing the findings or, with `partial`, writing the parts. */
static int analyze_files(const struct rp_common *co, struct rp_an_opts *op, unsigned given, int partial,
                         unsigned long long top, unsigned long long exit_n, int nf, char **files)
{
    struct rp_an_part *parts = NULL;
    size_t n = 0, cap = 0, ntr = 0;
    size_t *slot = calloc((size_t)nf, sizeof *slot);   /* per trace: its place among the parts */
    char **traces = calloc((size_t)nf + 1, sizeof *traces);
    char **steps = calloc((size_t)nf, sizeof *steps);  /* the partials' --step-range strings */
    int have = 0, rc = RP_EXIT_OK, damaged = 0; /* damaged: a partial left out, or a file of one damaged */
    size_t nsteps = 0;
    if (!slot || !traces || !steps)
        goto oom;
    if (rp_output_clash(&rp_cmd_analyze, nf, files)) {
        free(slot), free(traces), free(steps);
        return RP_EXIT_USAGE;
    }
    /* the partials first (their options decide the traces'), each trace's place kept empty */
    for (int i = 0; i < nf && rc == RP_EXIT_OK; i++) {
        if (!rp_an_partial_is(files[i])) {
            struct rp_an_part empty = {0};
            slot[ntr] = n;
            traces[ntr++] = files[i];
            if (append(&parts, &n, &cap, &empty, 1) < 0)
                goto oom;
            continue;
        }
        struct rp_an_mapopts mo;
        struct rp_an_part *p;
        size_t k;
        rc = rp_an_partial_read(files[i], &mo, &p, &k);
        if (rc == RP_EXIT_DAMAGED) { /* left out whole (its message printed), as summary does */
            damaged = 1;
            rc = RP_EXIT_OK;
            continue;
        }
        if (rc != RP_EXIT_OK)
            break;
        for (size_t j = 0; j < k; j++) /* what the traces' reader said of them (exit 3 when damaged) */
            if (rp_an_part_left_out(&p[j])) /* nothing of it to cover */
                damaged = 1, fprintf(stderr, RP_PROG ": warning: %s; nothing of it is analyzed\n", p[j].damage);
            else
                damaged |= rp_warn_file(stderr, p[j].path, p[j].damage, (unsigned long long)p[j].ncalls,
                                        p[j].has_end);
        steps[nsteps++] = (char *)mo.step_range;
        if (take_mapopts(op, given, &have, &mo, files[i]) < 0)
            rc = RP_EXIT_USAGE;
        else if (append(&parts, &n, &cap, p, k) < 0)
            rc = RP_EXIT_FAILED, fprintf(stderr, RP_PROG ": out of memory\n");
        if (rc != RP_EXIT_OK)
            parts_free(p, k);
        else
            free(p);
    }
    struct rp_trace tr;
    int trc = RP_EXIT_OK, opened = 0;
    if (rc == RP_EXIT_OK && ntr) {
        trc = rp_open_files(&tr, &rp_cmd_analyze, (int)ntr, traces, 0, 0);
        if (trc != RP_EXIT_OK && trc != RP_EXIT_DAMAGED)
            rc = trc;
        else {
            /* each file's place: that of the trace given (of a process given twice, the first copy's) */
            size_t *at = calloc(tr.nfiles ? tr.nfiles : 1, sizeof *at);
            opened = 1;
            for (size_t i = 0; at && i < tr.nfiles; i++)
                at[i] = slot[tr.files[i].given];
            rc = at ? map_traces(&tr, op, parts, at) : RP_EXIT_FAILED;
            if (!at)
                fprintf(stderr, RP_PROG ": out of memory\n");
            free(at);
            size_t k = 0; /* drop the empty places */
            for (size_t i = 0; i < n; i++)
                if (parts[i].host)
                    parts[k++] = parts[i];
            n = k;
        }
    }
    if (rc == RP_EXIT_OK && !n && damaged) /* every input a damaged partial: nothing to print */
        rc = RP_EXIT_DAMAGED;
    /* Before the copies of one process are told apart: the copy kept must be one the partial can hold. */
    if (rc == RP_EXIT_OK && partial && leave_out_misfits(parts, n, &damaged) < 0)
        rc = RP_EXIT_FAILED, fprintf(stderr, RP_PROG ": out of memory\n");
    if (rc == RP_EXIT_OK)
        n = take_once(parts, n);
    size_t nfindings = 0;
    if (rc == RP_EXIT_OK) {
        FILE *f = rp_output_open(co);
        if (!f)
            rc = RP_EXIT_FAILED;
        else if (partial) {
            const struct rp_an_mapopts mo = {op->warmup, op->idle_gap_ns, op->small_bytes, op->window_ns,
                                             op->launch_interval_ns, op->by_python, op->step_range};
            if (rp_an_partial_write(f, &mo, parts, n) < 0 && !ferror(f)) {
                fprintf(stderr, RP_PROG ": out of memory\n");
                rc = RP_EXIT_FAILED;
            }
            rc = rp_output_close(f, co, rc);
        } else {
            size_t k = 0; /* the stubs of traces a partial left out: said when read, nothing to analyze */
            for (size_t i = 0; i < n; i++)
                if (rp_an_part_left_out(&parts[i]))
                    rp_an_part_free(&parts[i]);
                else
                    parts[k++] = parts[i];
            n = k;
            const enum rp_format fmt = co->format >= 0 ? (enum rp_format)co->format : rp_format_default(f);
            rc = print(f, fmt, &co->unit, top, parts, n, op, &nfindings);
            rc = rp_output_close(f, co, rc);
        }
    }
    if (rc == RP_EXIT_OK && (trc == RP_EXIT_DAMAGED || damaged))
        rc = RP_EXIT_DAMAGED;
    if (rc == RP_EXIT_OK && exit_n && nfindings) /* as memory's: for CI */
        rc = (int)exit_n;
    if (opened)
        rp_trace_close(&tr);
    goto out;
oom:
    fprintf(stderr, RP_PROG ": out of memory\n");
    rc = RP_EXIT_FAILED;
out:
    parts_free(parts, n);
    for (size_t i = 0; i < nsteps; i++)
        free(steps[i]);
    free(steps);
    free(slot);
    free(traces);
    return rc;
}

static int run(int argc, char **argv)
{
    enum { O_WARMUP = 256, O_REPEATS, O_IDLE, O_SMALL, O_LAUNCHES, O_WINDOW, O_INTERVAL, O_RANK, O_LEAK, O_STEP,
           O_EXIT, O_PARTIAL };
    static const struct option longopts[] = {RP_COMMON_LONGOPTS,
                                              {"partial", no_argument, NULL, O_PARTIAL},
                                              {"top", required_argument, NULL, 't'},
                                              {"group-by", required_argument, NULL, 'g'},
                                              {"warmup", required_argument, NULL, O_WARMUP},
                                              {"min-repeats", required_argument, NULL, O_REPEATS},
                                              {"idle-gap", required_argument, NULL, O_IDLE},
                                              {"small-copy", required_argument, NULL, O_SMALL},
                                              {"min-launches", required_argument, NULL, O_LAUNCHES},
                                              {"window", required_argument, NULL, O_WINDOW},
                                              {"launch-interval", required_argument, NULL, O_INTERVAL},
                                              {"rank-lead", required_argument, NULL, O_RANK},
                                              {"leak-bytes", required_argument, NULL, O_LEAK},
                                              {"step-range", required_argument, NULL, O_STEP},
                                              {"error-exitcode", required_argument, NULL, O_EXIT},
                                              {NULL, 0, NULL, 0}};
    struct rp_an_opts op = default_opts;
    struct rp_common co;
    unsigned long long top = 3, exit_n = 0;
    int opt, bad = 0, partial = 0;
    unsigned given = 0; /* the map's options named (bits: MAP_*) */
    rp_common_init(&co);
    while ((opt = getopt_long(argc, argv, RP_COMMON_SHORTOPTS "t:g:", longopts, NULL)) != -1) {
        int h = rp_common_option(&co, &rp_cmd_analyze, opt, optarg, "table,csv,tsv,json");
        if (h < 0)
            return RP_EXIT_USAGE;
        if (h)
            continue;
        switch (opt) {
        case 'h': rp_help(&rp_cmd_analyze); return RP_EXIT_OK;
        case 't': bad = rp_parse_u64(&rp_cmd_analyze, "--top", optarg, &top); break;
        case 'g': given |= MAP_GROUP; bad = rp_parse_group_by(&rp_cmd_analyze, optarg, &op.by_python); break;
        case O_WARMUP: given |= MAP_WARMUP; bad = parse_pct("--warmup", optarg, &op.warmup); break;
        case O_REPEATS: bad = parse_num("--min-repeats", optarg, &op.min_repeats); break;
        case O_IDLE: given |= MAP_IDLE; bad = parse_time("--idle-gap", optarg, &op.idle_gap_ns); break;
        case O_SMALL: given |= MAP_SMALL; bad = parse_num("--small-copy", optarg, &op.small_bytes); break;
        case O_LAUNCHES: bad = parse_num("--min-launches", optarg, &op.min_launches); break;
        case O_WINDOW:
            given |= MAP_WINDOW;
            if (!(bad = parse_time("--window", optarg, &op.window_ns)) && !op.window_ns)
                return rp_usage_error(&rp_cmd_analyze, "--window wants a time above 0, not %s", optarg);
            break;
        case O_INTERVAL:
            given |= MAP_INTERVAL;
            bad = parse_time("--launch-interval", optarg, &op.launch_interval_ns);
            break;
        case O_RANK: bad = parse_pct("--rank-lead", optarg, &op.rank_share); break;
        case O_LEAK: bad = parse_num("--leak-bytes", optarg, &op.leak_bytes); break;
        case O_STEP: given |= MAP_STEP; op.step_range = optarg; break;
        case O_PARTIAL: partial = 1; break;
        case O_EXIT:
            if (!(bad = rp_parse_u64(&rp_cmd_analyze, "--error-exitcode", optarg, &exit_n)) && exit_n > 255)
                return rp_usage_error(&rp_cmd_analyze, "--error-exitcode takes 0 to 255, not %s", optarg);
            break;
        default: return rp_usage_hint(&rp_cmd_analyze);
        }
        if (bad)
            return RP_EXIT_USAGE;
    }
    if (partial && (co.format >= 0 || exit_n))
        return rp_usage_error(&rp_cmd_analyze, "--partial writes the files' state, not findings: it takes no "
                                               "--format or --error-exitcode");
    if (optind >= argc)
        return rp_usage_error(&rp_cmd_analyze, "no trace file given");
    return analyze_files(&co, &op, given, partial, top, exit_n, argc - optind, argv + optind);
}

const struct rp_command rp_cmd_analyze = {
    "analyze", "the problems in a trace, the time each costs and the call sites that cause it",
    "Usage: " RP_PROG " analyze [OPTION]... FILE...\n"
    "Findings in one or more trace files or analyze partials (--partial), merged, the largest\n"
    "estimated time lost first: each with its rule, evidence (counts, host time blocked, GPU time\n"
    "idle), its share of the run (with several files: of its process's run, or of the processes'\n"
    "runs added up for a sum over them), the call sites that cause it (native frames and Python\n"
    "lines where stacks were recorded, and the NVTX range) and what usually fixes it.  Rules\n"
    "(doc/analyze.md):\n"
    "  sync          synchronize calls, copies and sets that synchronize, frees that wait, in the\n"
    "                steady state: the host time they block\n"
    "  pageable      asynchronous copies from or to pageable host memory (they run synchronously)\n"
    "  churn         allocations from one site over and over in the steady state\n"
    "  small-copies  copies of fewer than --small-copy bytes, many from one site\n"
    "  gpu-idle      per device, gaps between GPU work of at least --idle-gap, and for the longest,\n"
    "                the call that ended each and what the host did meanwhile\n"
    "  launch-bound  windows in which the host spends longer launching (its launch calls and the\n"
    "                time between those of a launch loop) than the GPU runs\n"
    "  ranks         several ranks: each one's GPU busy time, collectives, steps; the slowest\n"
    "  leak          memory still allocated at exit, by site; the peak's sites follow the findings\n"
    "A site's calls count only in the steady state, after --warmup of its own process's run (each\n"
    "file has its own warm-up and launch-bound windows).  Call sites of calls other than allocations\n"
    "need CUDATRACE_STACKS=all; gpu-idle and launch-bound need every call timed\n"
    "on the GPU (CUPTI's activity records, or CUDATRACE_GPU_TIME=all).\n"
    "\n"
    "Options:\n"
    "  -f, --format=FMT       table, csv, tsv or json (default: table on a terminal, else csv)\n"
    "  -u, --timeunit=UNIT    ns, us, ms or s (json: always ns)\n"
    "  -t, --top=N            at most N sites per finding (default 3; 0: all)\n"
    "  -g, --group-by=WHAT    stack (default): a site is a call stack; python: the innermost Python\n"
    "                         frame of user code (as memory --group-by python)\n"
    "      --warmup=PCT       the first PCT% of each process's run is warm-up (default 10)\n"
    "      --min-repeats=N    sync, pageable, churn, small-copies: a site with N or more calls in\n"
    "                         the steady state (default 10)\n"
    "      --idle-gap=TIME    gpu-idle: the shortest gap counted (default 1ms; 500us, 2ms, ...)\n"
    "      --small-copy=BYTES small-copies: a copy below BYTES is small (default 65536)\n"
    "      --min-launches=N   launch-bound: launches in its windows before it reports (default 1000)\n"
    "      --window=TIME      launch-bound: the window (default 100ms; at most 1024 per process's run)\n"
    "      --launch-interval=TIME  launch-bound: a launch this soon after its thread's last one\n"
    "                         counts the time between as launching (default 50us)\n"
    "      --rank-lead=PCT    ranks: the slowest rank's lead over the others, in % of the run, before\n"
    "                         it reports (default 5)\n"
    "      --step-range=NAME  ranks: the NVTX range that is one step (default step)\n"
    "      --leak-bytes=N     leak: bytes still allocated at exit before it reports (default 1)\n"
    "      --error-exitcode=N exit N (1 to 255) when there is a finding (for CI); 0, the default: exit 0\n"
    "      --partial          write, instead of findings, analyze's state of the files: an analyze\n"
    "                         partial (doc/partials.md) that analyze reads again in place of the\n"
    "                         files, alone or with other analyze partials and traces, printing what\n"
    "                         the traces would.  It records --warmup, --idle-gap, --small-copy,\n"
    "                         --window, --launch-interval, --group-by and --step-range: reading it,\n"
    "                         those are taken from it, and another value given is refused (exit 1).\n"
    "                         The other options apply when it is read.  No --format.  summary and the\n"
    "                         other commands refuse an analyze partial (exit 2)\n"
    "  -o, --output=FILE      write to FILE instead of standard output\n"
    "  -h, --help             this help\n"
    "\n"
    "Exit status: as for summary (a truncated or corrupt partial: left out, 3); N of\n"
    "--error-exitcode when there are findings and nothing else failed.\n",
    run,
};
