/* Every record as CSV (one row per call, every payload field a column) or JSON lines (the files' metadata,
 * then one object per call), for scripts and databases. */
#include "config.h"

#include <inttypes.h>
#include <string.h>

#include "format/enum_names.h"
#include "report/model/args.h"
#include "report/export/export.h"
#include "report/model/display_names.h"
#include "report/model/text.h"

static const char csv_columns[] =
    "file,pid,tid,seq,start_ns,duration_ns,name,variant,result,result_name,family,"
    "bytes,address,mem_kind,device,stream,"
    "kernel,launch_kind,grid_x,grid_y,grid_z,block_x,block_y,block_z,cluster_x,cluster_y,cluster_z,shmem,function,"
    "operation,src,dst,src_kind,dst_kind,copy_flags,width,height,depth,src_device,dst_device,"
    "gpu_start_ns,gpu_duration_ns,gpu_device,gpu_stream\n";

/* Field groups after the common ones; a call fills the group of its family, the others stay empty. */
enum { MEM_FIELDS = 5, LAUNCH_FIELDS = 13, COPY_FIELDS = 11 };

static void empties(FILE *out, int n)
{
    while (n-- > 0)
        putc(',', out);
}

static void csv_call(FILE *out, const struct rp_call *c, int64_t start, struct rp_kernel_names *k)
{
    char name[256], rbuf[48], fl[64];
    fprintf(out, "%zu,%" PRIu32 ",%" PRIu32 ",%" PRIu64 ",%" PRId64 ",%" PRId64 ",", c->file_index, c->file->hdr.pid,
            c->call->c.h.tid, c->call->c.seq, c->t0 - start, c->t1 - c->t0);
    rp_csv_field(out, rp_call_api_name(c, name, sizeof name));
    putc(',', out);
    rp_csv_field(out, rp_call_variant(c));
    fprintf(out, ",%d,%s,%s", (int)c->call->c.result, rp_result_name(c->call->c.result, rbuf, sizeof rbuf),
            ct_name_family(c->call->family));
    /* each group's fields are written with a leading comma */
    switch (c->call->family) {
    case CT_FAM_ALLOC: {
        const struct ct_pl_alloc *a = &c->call->pl.alloc;
        fprintf(out, ",%" PRIu64 ",0x%" PRIx64 ",%s,%d,0x%" PRIx64, a->bytes, a->address, rp_mem_kind_name(a->kind),
                (int)a->device, a->stream);
        empties(out, LAUNCH_FIELDS + COPY_FIELDS);
        break;
    }
    case CT_FAM_FREE: {
        const struct ct_pl_free *f = &c->call->pl.free;
        fprintf(out, ",,0x%" PRIx64 ",%s,,0x%" PRIx64, f->address, rp_mem_kind_name(f->kind), f->stream);
        empties(out, LAUNCH_FIELDS + COPY_FIELDS);
        break;
    }
    case CT_FAM_LAUNCH: {
        const struct ct_pl_launch *l = &c->call->pl.launch;
        const char *kn = rp_kernel_name(k, c);
        fprintf(out, ",,,,,0x%" PRIx64 ",", l->stream);
        rp_csv_field(out, kn ? kn : "?");
        fprintf(out, ",%s,%u,%u,%u,%u,%u,%u,%u,%u,%u,%u,0x%" PRIx64, rp_launch_kind_name(l->kind), l->grid[0],
                l->grid[1], l->grid[2], l->block[0], l->block[1], l->block[2], l->cluster[0], l->cluster[1],
                l->cluster[2], l->shared_mem, l->function);
        empties(out, COPY_FIELDS);
        break;
    }
    case CT_FAM_COPY: {
        const struct ct_pl_copy *p = &c->call->pl.copy;
        fprintf(out, ",%" PRIu64 ",,,,0x%" PRIx64, p->bytes, p->stream);
        empties(out, LAUNCH_FIELDS);
        putc(',', out);
        rp_csv_field(out, rp_copy_operation(p->flags, p->src_kind, p->dst_kind));
        fprintf(out, ",0x%" PRIx64 ",0x%" PRIx64 ",%s,%s,", p->src, p->dst, rp_mem_kind_name(p->src_kind),
                rp_mem_kind_name(p->dst_kind));
        rp_csv_field(out, rp_copy_flags(p->flags, fl, sizeof fl));
        fprintf(out, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%d,%d", p->width, p->height, p->depth, (int)p->src_device,
                (int)p->dst_device);
        break;
    }
    default:
        empties(out, MEM_FIELDS + LAUNCH_FIELDS + COPY_FIELDS);
    }
    char gs[48], gd[48];
    rp_gpu_times(c, c->t0 - start, &rp_timeunit_ns, gs, gd);
    fprintf(out, ",%s,%s", gs, gd);
    if (c->gpu)
        fprintf(out, ",%d,0x%" PRIx64 "\n", (int)c->gpu->device, c->gpu->stream);
    else
        fputs(",,\n", out);
}

int rp_export_csv(FILE *out, struct rp_trace *t)
{
    struct rp_merge *m = rp_merge_begin(t);
    struct rp_kernel_names k = {0};
    if (!m)
        return -1;
    fputs(csv_columns, out);
    for (const struct rp_call *c; (c = rp_merge_next(m));)
        csv_call(out, c, t->start_ns, &k);
    int rc = rp_merge_failed(m) ? RP_EXIT_UNREADABLE : 0;
    rp_kernel_names_free(&k);
    rp_merge_end(m);
    return rc;
}

/* One "file" object per trace file: header, process, driver, devices, threads, counts. */
static void json_file(FILE *out, const struct rp_trace *t, size_t i)
{
    const struct rp_file *f = &t->files[i];
    char tv[17];
    memcpy(tv, f->hdr.tracer_version, 16);
    tv[16] = '\0';
    fprintf(out, "{\"type\":\"file\",\"file\":%zu,\"path\":", i);
    rp_json_string(out, f->path);
    fprintf(out, ",\"format_version\":%u,\"tracer_version\":", f->hdr.format_version);
    rp_json_string(out, tv);
    fprintf(out, ",\"features\":%u,\"pid\":%" PRIu32 ",\"ppid\":%" PRIu32 ",\"start_wall_ns\":%" PRId64
                 ",\"start_ns\":%" PRId64 ",\"host\":",
            f->hdr.features, f->hdr.pid, f->hdr.ppid, f->hdr.start_wall_ns,
            f->hdr.start_mono_ns + f->clock_offset - t->start_ns);
    rp_json_string(out, f->host);
    fputs(",\"cmdline\":", out);
    rp_json_string(out, f->cmdline);
    fprintf(out, ",\"driver_version\":%d,\"device_count\":%d,\"devices\":[", (int)f->driver_version, (int)f->device_count);
    for (size_t d = 0; d < f->ndevices; d++) {
        fprintf(out, "%s{\"ordinal\":%d,\"name\":", d ? "," : "", (int)f->devices[d].ordinal);
        rp_json_string(out, f->devices[d].name);
        fprintf(out, ",\"total_mem\":%" PRIu64 ",\"uuid\":\"", f->devices[d].total_mem);
        for (int b = 0; b < 16; b++)
            fprintf(out, "%02x", f->devices[d].uuid[b]);
        fputs("\"}", out);
    }
    fputs("],\"threads\":[", out);
    for (size_t j = 0; j < f->nthreads; j++) {
        const char *tn = rp_file_string(f, f->threads[j].name_id);
        fprintf(out, "%s{\"tid\":%" PRIu32 ",\"calls\":%" PRIu64 ",\"name\":", j ? "," : "", f->threads[j].tid,
                f->threads[j].calls);
        rp_json_string(out, tn ? tn : "");
        putc('}', out);
    }
    fprintf(out, "],\"calls\":%" PRIu64 ",\"lost\":%" PRIu64 ",\"untraced\":%" PRIu64 ",\"complete\":%s", f->calls,
            f->lost, f->untraced, f->has_end && f->status == CT_READ_OK ? "true" : "false");
    fprintf(out, ",\"gpu\":{\"spans\":%zu", f->gpu.n);
    const struct ct_gpu_info *g = &f->gpu_info;
    if (f->has_gpu_info) /* the writer's word on how its calls were chosen (format.h, CT_REC_GPU_INFO) */
        fprintf(out, ",\"mode\":\"%s\",\"sample_n\":%" PRIu32 ",\"sample_k\":%" PRIu32 ",\"final\":%s,\"timed\":%" PRIu64
                     ",\"not_completed\":%" PRIu64 ",\"untimed_pool\":%" PRIu64 ",\"untimed_refused\":%" PRIu64
                     ",\"untimed_capture\":%" PRIu64,
                ct_name_gpu_mode(g->mode), g->sample_n, g->sample_k, g->final ? "true" : "false", g->timed,
                g->not_completed, g->untimed_pool, g->untimed_refused, g->untimed_capture);
    if (f->has_gpu_info) /* format 8: what timed them (before: events, as the decoder says) */
        fprintf(out, ",\"source\":\"%s\",\"reason\":\"%s\",\"requested\":\"%s\",\"source_start_ns\":%" PRIu64
                     ",\"no_call\":%" PRIu64 ",\"dropped\":%" PRIu64,
                ct_name_gpu_source(g->source), ct_name_gpu_why(g->why), ct_name_gpu_request(g->request), g->source_ns,
                g->no_call, g->dropped);
    fputs("}}\n", out);
}

int rp_export_jsonl(FILE *out, struct rp_trace *t)
{
    struct rp_merge *m = rp_merge_begin(t);
    struct rp_kernel_names k = {0};
    if (!m)
        return -1;
    for (size_t i = 0; i < t->nfiles; i++)
        json_file(out, t, i);
    for (const struct rp_call *c; (c = rp_merge_next(m));)
        rp_call_json(out, c, c->t0 - t->start_ns, &rp_timeunit_ns, &k, "call", NULL);
    int rc = rp_merge_failed(m) ? RP_EXIT_UNREADABLE : 0;
    rp_kernel_names_free(&k);
    rp_merge_end(m);
    return rc;
}
