#include "config.h"

#include "report/summary/inputs.h"

#include <stdlib.h>
#include <string.h>

#include "format/grow.h"
#include "report/model/args.h"
#include "report/summary/nvtx_table.h"

static int cmp_i32(const void *a, const void *b)
{
    const int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

int rp_sum_input_of_file(struct rp_sum_input *in, const struct rp_file *f)
{
    memset(in, 0, sizeof *in);
    in->pid = f->hdr.pid;
    in->features = f->hdr.features;
    in->format_version = f->hdr.format_version;
    memcpy(in->tracer_version, f->hdr.tracer_version, 16);
    in->start_wall_ns = f->hdr.start_wall_ns;
    in->start_mono_ns = f->hdr.start_mono_ns;
    in->driver_version = f->driver_version;
    in->calls = f->calls;
    in->lost = f->lost;
    in->untraced = f->untraced;
    in->records = rp_file_records(f);
    in->has_end = f->has_end;
    in->end_mono_ns = f->end.end_mono_ns;
    in->first_t0 = f->first_t0;
    in->last_t1 = f->last_t1;
    in->rank = f->rank;
    in->has_gpu_info = f->has_gpu_info;
    in->gpu_info = f->gpu_info;
    in->gpu_spans = f->gpu.n;
    if (!(in->path = strdup(f->path)) || !(in->host = strdup(f->host)) || !(in->cmdline = strdup(f->cmdline)) ||
        (f->status != CT_READ_OK && f->message && !(in->damage = strdup(f->message))))
        return -1;
    if (f->ndevices) {
        if (!(in->devices = malloc(f->ndevices * sizeof *in->devices)))
            return -1;
        memcpy(in->devices, f->devices, f->ndevices * sizeof *in->devices);
        in->ndevices = f->ndevices;
    }
    if (f->ncounted && !(in->counted = calloc(f->ncounted, sizeof *in->counted)))
        return -1;
    for (size_t k = 0; k < f->ncounted; k++, in->ncounted++) {
        char name[256];
        rp_file_api_name(f, (uint16_t)f->counted[k].id, name, sizeof name);
        in->counted[k].count = f->counted[k].count;
        if (!(in->counted[k].name = strdup(name)))
            return -1;
    }
    size_t cap = 0;
    for (size_t i = 0; i < f->gpu.n; i++) {
        const int32_t d = f->gpu.v[i].device;
        size_t k = 0;
        while (k < in->nspan_devices && in->span_devices[k] != d)
            k++;
        if (k < in->nspan_devices)
            continue;
        int32_t *v = ct_grow(in->span_devices, &cap, in->nspan_devices + 1, sizeof *v);
        if (!v)
            return -1;
        in->span_devices = v;
        v[in->nspan_devices++] = d;
    }
    if (in->nspan_devices)
        qsort(in->span_devices, in->nspan_devices, sizeof *in->span_devices, cmp_i32);
    return rp_nvtx_rows_of_file(&in->nvtx, f);
}

void rp_sum_input_free(struct rp_sum_input *in)
{
    free(in->path);
    free(in->host);
    free(in->cmdline);
    free(in->devices);
    for (size_t k = 0; k < in->ncounted; k++)
        free(in->counted[k].name);
    free(in->counted);
    free(in->span_devices);
    free(in->damage);
    rp_named_rows_free(&in->nvtx);
    memset(in, 0, sizeof *in);
}

int rp_sum_inputs_align(struct rp_sum_input *in, size_t n, int64_t *start_ns, int64_t *end_ns)
{
    struct rp_clock *c = calloc(n ? n : 1, sizeof *c);
    if (!c)
        return -1;
    for (size_t i = 0; i < n; i++)
        c[i] = (struct rp_clock){in[i].host, in[i].start_wall_ns, in[i].start_mono_ns, in[i].calls != 0,
                                 in[i].first_t0, in[i].last_t1, in[i].has_end, in[i].end_mono_ns, 0};
    rp_clocks_align(c, n, start_ns, end_ns);
    for (size_t i = 0; i < n; i++)
        in[i].clock_offset = c[i].offset;
    free(c);
    return 0;
}

int rp_sum_input_gpu_on(const struct rp_sum_input *in)
{
    return in->gpu_spans > 0 || (in->has_gpu_info && in->gpu_info.mode != CT_GPU_OFF);
}
