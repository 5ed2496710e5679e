/* cudatrace-report info: what a trace file is: header, metadata, record counts, losses. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "format/enum_names.h"
#include "report/cmd/cli.h"
#include "report/model/table.h"
#include "report/model/trace.h"

struct out {
    FILE *f;
    enum rp_format fmt;
    int first;
    const char *file; /* several files: the tables of each are keyed "KEY[FILE]" */
};

static void emit(struct out *o, struct rp_table *t)
{
    char key[512], title[1024];
    if (o->file)
        rp_table_of(t, o->file, key, sizeof key, title, sizeof title);
    rp_table_print(t, o->f, o->fmt, o->first, 1);
    o->first = 0;
    rp_table_free(t);
}

static void file_table(struct out *o, const struct rp_file *f)
{
    struct rp_table t;
    if (rp_table_init_kv(&t, "file", "File") < 0)
        return;
    char fv[24], fe[24], pid[24], ppid[24], hs[24], wall[24], mono[24], drv[24], ndev[24], tv[17], rank[24], lrank[24],
        wsize[24];
    snprintf(rank, sizeof rank, "%d", (int)f->rank.rank);
    snprintf(lrank, sizeof lrank, "%d", (int)f->rank.local_rank);
    snprintf(wsize, sizeof wsize, "%d", (int)f->rank.world_size);
    memcpy(tv, f->hdr.tracer_version, 16);
    tv[16] = '\0';
    snprintf(fe, sizeof fe, "0x%" PRIx32, f->hdr.features);
    snprintf(wall, sizeof wall, "%" PRId64, f->hdr.start_wall_ns);
    snprintf(mono, sizeof mono, "%" PRId64, f->hdr.start_mono_ns);
    snprintf(drv, sizeof drv, "%d", (int)f->driver_version);
    snprintf(ndev, sizeof ndev, "%d", (int)f->device_count);
    const char *rows[][2] = {
        {"Path", f->path},
        {"Format version#", rp_u64s(fv, f->hdr.format_version)},
        {"Tracer version", tv},
        {"Header size#", rp_u64s(hs, f->hdr.header_size)},
        {"Features", fe},
        {"Calls recorded from", rp_file_ranges_only(f) ? (rp_file_nvtx_only(f) ? RP_NVTX_ONLY : RP_RANGES_ONLY) : "every call"},
        {"Functions counted, not timed", rp_file_counted_set(f)},
        {"Pid#", rp_u64s(pid, f->hdr.pid)},
        {"Parent pid#", rp_u64s(ppid, f->hdr.ppid)},
        {"Start wall (ns)#", wall},
        {"Start monotonic (ns)#", mono},
        {"Host", f->host},
        {"Rank#", f->rank.rank >= 0 ? rank : ""},
        {"Local rank#", f->rank.local_rank >= 0 ? lrank : ""},
        {"World size#", f->rank.world_size >= 0 ? wsize : ""},
        {"Rank from", f->rank.rank >= 0 ? ct_name_rank_source(f->rank.source) : ""},
        {"Command line", f->cmdline},
        {"Driver version#", drv},
        {"Device count#", ndev},
        {"Complete", f->has_end && f->status == CT_READ_OK ? "yes" : "no (no end record: the process died, or damage)"},
        {"Problem", f->message ? f->message : ""},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        rp_table_row(&t, rows[i]);
    emit(o, &t);
}

static void records_table(struct out *o, const struct rp_file *f)
{
    struct rp_table t;
    const char *titles[] = {"Count#", "Type"};
    if (rp_table_init(&t, "records", "Records by type", 2, titles) < 0)
        return;
    for (unsigned ty = 1; ty <= CT_REC_TYPE_LAST + 1; ty++)
        if (f->rec_count[ty]) {
            char n[24];
            const char *row[] = {rp_u64s(n, f->rec_count[ty]), ty <= CT_REC_TYPE_LAST ? ct_name_record_type(ty) : "unknown"};
            rp_table_row(&t, row);
        }
    emit(o, &t);
}

static void counts_table(struct out *o, const struct rp_file *f)
{
    struct rp_table t;
    const char *titles[] = {"Count#", "What"};
    if (rp_table_init(&t, "counts", "Calls, losses and untraced pointers", 2, titles) < 0)
        return;
    char n[10][24];
    const char *rows[][2] = {
        {rp_u64s(n[0], f->calls), "calls recorded"},
        {rp_u64s(n[1], f->has_end ? f->end.calls : 0), "calls the writer counted (end record)"},
        {rp_u64s(n[2], f->lost), "records lost"},
        {rp_u64s(n[3], f->lost_by_reason[CT_LOST_BUFFER_FULL]), "lost: buffer_full"},
        {rp_u64s(n[4], f->lost_by_reason[CT_LOST_WRITE_ERROR]), "lost: write_error"},
        {rp_u64s(n[5], f->lost_by_reason[CT_LOST_SHUTDOWN]), "lost: shutdown"},
        {rp_u64s(n[6], f->lost_by_reason[CT_LOST_NESTED]), "lost: nested"},
        {rp_u64s(n[7], f->untraced), "pointers handed back untraced"},
        {rp_u64s(n[8], f->unknown_shapes), "launch repeats of unknown shape (the record naming it was lost)"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        rp_table_row(&t, rows[i]);
    for (size_t i = 0; i < f->nuntraced_syms; i++) {
        char what[300];
        const char *s = rp_file_string(f, f->untraced_syms[i].id);
        snprintf(what, sizeof what, "untraced: %s", s ? s : "?");
        const char *row[] = {rp_u64s(n[8], f->untraced_syms[i].count), what};
        rp_table_row(&t, row);
    }
    for (size_t i = 0; i < f->ncounted; i++) { /* CUDATRACE_APIS */
        char what[300];
        const struct ct_api_info *api = rp_file_api(f, (uint16_t)f->counted[i].id);
        snprintf(what, sizeof what, "counted, not timed: %s", api ? api->variant : "?");
        const char *row[] = {rp_u64s(n[8], f->counted[i].count), what};
        rp_table_row(&t, row);
    }
    emit(o, &t);
}

static void threads_table(struct out *o, const struct rp_file *f)
{
    struct rp_table t;
    const char *titles[] = {"Tid!", "Calls#", "Blocks#", "Name"};
    if (rp_table_init(&t, "threads", "Threads", 4, titles) < 0)
        return;
    for (size_t i = 0; i < f->nthreads; i++) {
        char tid[24], calls[24], runs[24];
        const char *name = rp_file_string(f, f->threads[i].name_id);
        const char *row[] = {rp_u64s(tid, f->threads[i].tid), rp_u64s(calls, f->threads[i].calls),
                             rp_u64s(runs, f->threads[i].nruns), name ? name : ""};
        rp_table_row(&t, row);
    }
    emit(o, &t);
}

static void gpu_table(struct out *o, const struct rp_file *f)
{
    struct rp_table t;
    if (rp_table_init_kv(&t, "gpu", "GPU time") < 0)
        return;
    const struct ct_gpu_info *g = &f->gpu_info;
    const int has = f->has_gpu_info;
    char mode[256], n[12][24];
    const char *rows[][2] = {
        {"GPU time", has ? rp_gpu_mode_text(g, (uint64_t)f->hdr.start_mono_ns, mode, sizeof mode)
                         : "unknown (no gpu-info record)"},
        {"Source", has ? ct_name_gpu_source(g->source) : NULL},
        {"Asked for (CUDATRACE_GPU_TIME)", has ? ct_name_gpu_request(g->request) : NULL},
        {"GPU spans#", rp_u64s(n[0], f->gpu.n)},
        {"Sample 1 in N#", has && g->mode == CT_GPU_SAMPLE ? rp_u64s(n[1], g->sample_n) : NULL},
        {"Sample first K#", has && g->mode == CT_GPU_SAMPLE ? rp_u64s(n[2], g->sample_k) : NULL},
        {"Final counts", f->has_gpu_info ? (g->final ? "yes" : "no (the process ended before writing them)") : NULL},
        {"Timed (writer's count)#", f->has_gpu_info ? rp_u64s(n[3], g->timed) : NULL},
        {"Not completed#", f->has_gpu_info ? rp_u64s(n[4], g->not_completed) : NULL},
        {"Untimed: no free event#", f->has_gpu_info ? rp_u64s(n[5], g->untimed_pool) : NULL},
        {"Untimed: event refused#", f->has_gpu_info ? rp_u64s(n[6], g->untimed_refused) : NULL},
        {"Untimed: stream capture#", f->has_gpu_info ? rp_u64s(n[7], g->untimed_capture) : NULL},
        {"Spans without a call#", has ? rp_u64s(n[8], g->no_call) : NULL},
        {"Records CUPTI dropped#", has ? rp_u64s(n[9], g->dropped) : NULL},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (rows[i][1])
            rp_table_row(&t, rows[i]);
    emit(o, &t);
}

static void devices_table(struct out *o, const struct rp_file *f)
{
    struct rp_table t;
    const char *titles[] = {"Ordinal!", "Memory Bytes#", "UUID", "Name"};
    if (rp_table_init(&t, "devices", "Devices", 4, titles) < 0)
        return;
    for (size_t i = 0; i < f->ndevices; i++) {
        char ord[24], mem[24], uuid[33];
        for (int b = 0; b < 16; b++)
            snprintf(uuid + 2 * b, 3, "%02x", f->devices[i].uuid[b]);
        snprintf(ord, sizeof ord, "%d", (int)f->devices[i].ordinal);
        const char *row[] = {ord, rp_u64s(mem, f->devices[i].total_mem), uuid, f->devices[i].name};
        rp_table_row(&t, row);
    }
    emit(o, &t);
}

static int run(int argc, char **argv)
{
    static const struct option longopts[] = {RP_COMMON_LONGOPTS, {NULL, 0, NULL, 0}};
    const struct rp_command *cmd = &rp_cmd_info;
    struct rp_common co;
    int opt;
    rp_common_init(&co);
    while ((opt = getopt_long(argc, argv, RP_COMMON_SHORTOPTS, longopts, NULL)) != -1) {
        if (opt == 'u') /* the common options' unit: info's times are the header's own, in ns */
            return rp_usage_error(cmd, "--timeunit does not apply to info (its times are in ns as recorded)");
        int h = rp_common_option(&co, cmd, opt, optarg, "table,csv,tsv,json,column");
        if (h < 0)
            return RP_EXIT_USAGE;
        if (h)
            continue;
        if (opt == 'h') {
            rp_help(cmd);
            return RP_EXIT_OK;
        }
        return rp_usage_hint(cmd);
    }
    struct rp_trace tr;
    int rc = rp_open_files(&tr, cmd, argc, argv, optind, 0);
    if (rc != RP_EXIT_OK && rc != RP_EXIT_DAMAGED)
        return rc;
    FILE *f = rp_output_open(&co);
    if (f) {
        struct out o = {f, co.format >= 0 ? (enum rp_format)co.format : rp_format_default(f), 1, NULL};
        for (size_t i = 0; i < tr.nfiles; i++) {
            const struct rp_file *tf = &tr.files[i];
            o.file = tr.nfiles > 1 ? tf->path : NULL;
            file_table(&o, tf);
            records_table(&o, tf);
            counts_table(&o, tf);
            threads_table(&o, tf);
            devices_table(&o, tf);
            gpu_table(&o, tf);
        }
        if (o.fmt == RP_FMT_JSON)
            fputs("}\n", f);
        rc = rp_output_close(f, &co, rc);
    } else {
        rc = RP_EXIT_FAILED;
    }
    rp_trace_close(&tr);
    return rc;
}

const struct rp_command rp_cmd_info = {
    "info", "what a trace file holds: header, metadata, record counts, losses",
    "Usage: " RP_PROG " info [OPTION]... FILE...\n"
    "Describe each trace file: format and tracer versions, header fields (pid, start times,\n"
    "features; which functions were counted, not timed: the default set of trivial queries,\n"
    "those CUDATRACE_APIS listed, or none), host, rank, local rank and world size (and the\n"
    "variable the rank came from), command line, driver and devices, records by type, calls\n"
    "recorded, records lost (by reason), pointers handed back untraced (by symbol), calls\n"
    "counted, not timed (by variant), threads with their names and calls, and\n"
    "how GPU time was taken (table gpu: the mode, sample N and K, spans, the writer's counts of\n"
    "timed, not completed and untimed calls).\n"
    "\n"
    "Options:\n"
    "  -f, --format=FMT     table, csv, tsv or json (default: table on a terminal, else csv); with\n"
    "                       several files each table's key is KEY[FILE]\n"
    "  -o, --output=FILE    write to FILE instead of standard output\n"
    RP_JOBS_HELP
    "  -h, --help           this help\n"
    "\n"
    "Exit status: 0 ok, 1 usage, 2 unreadable, not a trace or an unsupported format version,\n"
    "3 truncated or corrupt (what precedes the damage is described, with a warning), 4 output error.\n",
    run,
};
