#include "config.h"

#include "report/model/display_names.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudatrace/format.h"
#include "format/enum_names.h"

const char *rp_result_name(int32_t result, char *buf, size_t bufsize)
{
    unsigned lo = 0, hi = rp_result_name_count;
    while (lo < hi) {
        unsigned mid = lo + (hi - lo) / 2;
        if (rp_result_names[mid].value == result)
            return rp_result_names[mid].name;
        if (rp_result_names[mid].value < result)
            lo = mid + 1;
        else
            hi = mid;
    }
    snprintf(buf, bufsize, "CUresult(%d)", (int)result);
    return buf;
}

const char *rp_api_display_name(const char *name, unsigned vflags, char *buf, size_t bufsize)
{
    const char *suffix = (vflags & CT_VARIANT_PTSZ) ? "_ptsz" : (vflags & CT_VARIANT_PTDS) ? "_ptds" : "";
    snprintf(buf, bufsize, "%s%s", name, suffix);
    return buf;
}

typedef char *cxa_demangle_fn(const char *, char *, size_t *, int *);

static cxa_demangle_fn *demangle_fn;

static void look_up_demangler(void)
{
    void *lib = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);
    if (lib) {
        void *sym = dlsym(lib, "__cxa_demangle");
        memcpy(&demangle_fn, &sym, sizeof demangle_fn); /* object to function pointer, without a cast ISO C forbids */
    }
}

/* libstdc++'s demangler, looked up once (files are read on several threads: -j); NULL when libstdc++ is not
 * installed. */
static cxa_demangle_fn *cxa_demangle(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, look_up_demangler);
    return demangle_fn;
}

char *rp_demangle(const char *name)
{
    if (strncmp(name, "_Z", 2) == 0) {
        cxa_demangle_fn *fn = cxa_demangle();
        int status = -1;
        char *out = fn ? fn(name, NULL, NULL, &status) : NULL;
        if (out && status == 0)
            return out;
        free(out);
    }
    return strdup(name);
}

/* The words are src/format's (the dump tool's too); the report says "unknown" where that says "?". */
static const char *or_unknown(const char *word) { return strcmp(word, "?") ? word : "unknown"; }

const char *rp_mem_kind_name(unsigned kind) { return or_unknown(ct_name_mem_kind(kind)); }

int rp_mem_kind_on_device(unsigned kind)
{
    /* vmm_map maps physical memory already counted at cuMemCreate; pinned memory lives on the host. */
    return kind == CT_MEM_DEVICE || kind == CT_MEM_MANAGED || kind == CT_MEM_ASYNC || kind == CT_MEM_VMM;
}

const char *rp_launch_kind_name(unsigned kind) { return or_unknown(ct_name_launch_kind(kind)); }

/* Which side of a copy a memory kind is on: an index into the operation table below, -1 if unknown. */
static int copy_side(unsigned kind)
{
    switch (kind) {
    case CT_MEM_HOST:
    case CT_MEM_PINNED: return 0;
    case CT_MEM_DEVICE:
    case CT_MEM_ASYNC:
    case CT_MEM_VMM:
    case CT_MEM_VMM_MAP: return 1;
    case CT_MEM_MANAGED: return 2;
    case CT_MEM_ARRAY: return 3;
    default: return -1;
    }
}

const char *rp_copy_operation(uint32_t flags, unsigned src_kind, unsigned dst_kind)
{
#define OPS(s) {"[CUDA memcpy " s "-to-Host]", "[CUDA memcpy " s "-to-Device]", \
                "[CUDA memcpy " s "-to-Managed]", "[CUDA memcpy " s "-to-Array]"}
    static const char *const ops[4][4] = {OPS("Host"), OPS("Device"), OPS("Managed"), OPS("Array")};
#undef OPS
    if (flags & CT_COPY_SET)
        return "[CUDA memset]";
    if (flags & CT_COPY_PEER)
        return "[CUDA memcpy Peer-to-Peer]";
    int s = copy_side(src_kind), d = copy_side(dst_kind);
    return s < 0 || d < 0 ? "[CUDA memcpy Unknown]" : ops[s][d];
}

const char *rp_copy_flags(uint32_t flags, char *buf, size_t bufsize)
{
    return ct_format_copy_flags(buf, bufsize, flags, ',');
}
