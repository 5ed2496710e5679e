#include "config.h"

#include <string.h>

#include "cudatrace/format.h"
#include "format/enum_names.h"

#define PICK(table, i) ((i) < sizeof(table) / sizeof(table)[0] && (table)[i] ? (table)[i] : "?")

const char *ct_name_family(unsigned family)
{
    static const char *const n[] = {"none", "alloc", "free", "launch", "copy"};
    return PICK(n, family);
}

const char *ct_name_mem_kind(unsigned kind)
{
    static const char *const n[] = {"unknown", "device", "host", "pinned", "managed",
                                    "async", "vmm", "vmm_map", "array"};
    return PICK(n, kind);
}

const char *ct_name_launch_kind(unsigned kind)
{
    static const char *const n[] = {NULL, "kernel", "cooperative", "host_func", "graph"};
    return PICK(n, kind);
}

const char *ct_name_str_kind(unsigned kind)
{
    static const char *const n[] = {NULL, "kernel", "thread", "other", "nvtx", "python"};
    return PICK(n, kind);
}

const char *ct_name_lost_reason(unsigned reason)
{
    static const char *const n[] = {NULL, "buffer_full", "write_error", "shutdown", "nested"};
    return PICK(n, reason);
}

const char *ct_name_record_type(unsigned type)
{
    static const char *const n[] = {NULL,     "process", "string", "api",    "call",          "lost",
                                    "driver", "device",  "thread", "untraced", "end",         "stack",
                                    "module", "launch-repeat", "clock", "launch-short", "gpu",
                                    "gpu-info", "nvtx",   "nvtx-name", "rank", "pystack", NULL, "counted",
                                    "call-short"};
    return PICK(n, type);
}

const char *ct_name_nvtx_kind(unsigned kind)
{
    static const char *const n[] = {NULL, "push", "pop", "start", "end", "mark"};
    return PICK(n, kind);
}

const char *ct_name_rank_source(unsigned source)
{
    static const char *const n[] = {"none", "RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK", "SLURM_PROCID"};
    return PICK(n, source);
}

const char *ct_name_gpu_mode(unsigned mode)
{
    static const char *const n[] = {"off", "sample", "all"};
    return PICK(n, mode);
}

const char *ct_name_gpu_source(unsigned source)
{
    static const char *const n[] = {"none", "events", "activity"};
    return PICK(n, source);
}

const char *ct_name_gpu_why(unsigned why)
{
    static const char *const n[] = {"chosen", "no-cupti", "cupti-busy", "program", "cupti-error", "child"};
    return PICK(n, why);
}

const char *ct_name_gpu_request(unsigned request)
{
    static const char *const n[] = {"off", "sample", "events", "auto", "all", "activity"};
    return PICK(n, request);
}

static char *format_flags(char *buf, size_t len, unsigned flags, const char *const *words, unsigned nwords,
                          char sep)
{
    size_t used = 0;

    if (len == 0)
        return buf;
    buf[0] = '\0';
    for (unsigned i = 0; i < nwords; i++) {
        if (!(flags & (1u << i)))
            continue;
        size_t w = strlen(words[i]);
        if (used + (used > 0) + w + 1 > len)
            break;
        if (used > 0)
            buf[used++] = sep;
        memcpy(buf + used, words[i], w + 1);
        used += w;
    }
    if (used == 0 && len > 4)
        memcpy(buf, "none", 5);
    return buf;
}

char *ct_format_vflags(char *buf, size_t len, unsigned vflags, char sep)
{
    static const char *const w[] = {"ptsz", "ptds"};
    return format_flags(buf, len, vflags, w, 2, sep);
}

char *ct_format_copy_flags(char *buf, size_t len, unsigned flags, char sep)
{
    static const char *const w[] = {"set", "async", "2d", "3d", "peer", "batch"};
    return format_flags(buf, len, flags, w, 6, sep);
}

char *ct_format_gpu_span_flags(char *buf, size_t len, unsigned flags, char sep)
{
    static const char *const w[] = {"sampled", "graph", "no-call", "activity"};
    return format_flags(buf, len, flags, w, 4, sep);
}
