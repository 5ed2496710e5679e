#include "config.h"

#include <string.h>

#include "format/record.h"

void ct_file_header_init(struct ct_file_header *fh, uint32_t pid, uint32_t ppid, uint32_t features,
                         int64_t start_wall_ns, int64_t start_mono_ns)
{
    memset(fh, 0, sizeof *fh);
    memcpy(fh->magic, CT_MAGIC, CT_MAGIC_LEN);
    fh->format_version = CT_FORMAT_VERSION;
    fh->header_size = sizeof *fh;
    fh->byte_order = CT_BYTE_ORDER_MARK;
    fh->features = features;
    fh->pid = pid;
    fh->ppid = ppid;
    fh->start_wall_ns = start_wall_ns;
    fh->start_mono_ns = start_mono_ns;
    strncpy(fh->tracer_version, PACKAGE_VERSION, sizeof fh->tracer_version - 1);
}

/* Cut a length so that `fixed` + the lengths of a record stay within CT_REC_MAX_SIZE. */
static size_t cut(size_t len, size_t room)
{
    if (len > UINT16_MAX)
        len = UINT16_MAX;
    return len < room ? len : room;
}

size_t ct_size_string(size_t len)
{
    return ct_pad8(sizeof(struct ct_rec_string) + cut(len, CT_REC_MAX_SIZE - sizeof(struct ct_rec_string)));
}

void ct_put_string(void *rec, uint32_t tid, uint32_t id, unsigned kind, const char *s, size_t len)
{
    struct ct_rec_string *r = rec;
    size_t size = ct_size_string(len);

    len = cut(len, CT_REC_MAX_SIZE - sizeof *r);
    memset(rec, 0, size);
    ct_put_hdr(&r->h, CT_REC_STRING, size, tid);
    r->id = id;
    r->kind = (uint16_t)kind;
    r->len = (uint16_t)len;
    memcpy(r + 1, s, len);
}

/* Both names share the room: the variant name keeps what the function name leaves (each ≤ 32 KiB). */
#define API_NAME_ROOM ((CT_REC_MAX_SIZE - sizeof(struct ct_rec_api)) / 2)

size_t ct_size_api(size_t name_len, size_t variant_len)
{
    return ct_pad8(sizeof(struct ct_rec_api) + cut(name_len, API_NAME_ROOM) + cut(variant_len, API_NAME_ROOM));
}

void ct_put_api(void *rec, uint16_t api_id, const char *name, const char *variant, uint32_t version,
                uint16_t vflags, uint32_t family)
{
    struct ct_rec_api *r = rec;
    size_t nl = cut(strlen(name), API_NAME_ROOM), vl = cut(strlen(variant), API_NAME_ROOM);
    size_t size = ct_size_api(nl, vl);

    memset(rec, 0, size);
    ct_put_hdr(&r->h, CT_REC_API, size, 0);
    r->api_id = api_id;
    r->vflags = vflags;
    r->version = version;
    r->name_len = (uint16_t)nl;
    r->variant_len = (uint16_t)vl;
    r->family = family;
    memcpy((char *)(r + 1), name, nl);
    memcpy((char *)(r + 1) + nl, variant, vl);
}

/* The host name is short; the command line gets the rest of the record. */
#define HOST_ROOM 255u

size_t ct_size_process(size_t host_len, size_t cmdline_len)
{
    size_t hl = cut(host_len, HOST_ROOM);
    return ct_pad8(sizeof(struct ct_rec_process) + hl +
                   cut(cmdline_len, CT_REC_MAX_SIZE - sizeof(struct ct_rec_process) - hl));
}

void ct_put_process(void *rec, const char *host, size_t host_len, const char *cmdline, size_t cmdline_len)
{
    struct ct_rec_process *r = rec;
    size_t size = ct_size_process(host_len, cmdline_len);
    size_t hl = cut(host_len, HOST_ROOM);
    size_t cl = cut(cmdline_len, CT_REC_MAX_SIZE - sizeof *r - hl);
    uint32_t argc = 0;

    memset(rec, 0, size);
    ct_put_hdr(&r->h, CT_REC_PROCESS, size, 0);
    r->host_len = (uint16_t)hl;
    r->cmdline_len = (uint16_t)cl;
    /* An argument counts when any of it was kept, so a cut command line still gives the right argc prefix. */
    for (size_t i = 0; i < cl; i++)
        if (i == 0 || cmdline[i - 1] == '\0')
            argc++;
    r->argc = argc;
    memcpy((char *)(r + 1), host, hl);
    memcpy((char *)(r + 1) + hl, cmdline, cl);
}

/* The frames a stack record keeps: at most CT_STACK_MAX_FRAMES. */
static size_t kept_frames(size_t nframes) { return nframes < CT_STACK_MAX_FRAMES ? nframes : CT_STACK_MAX_FRAMES; }

size_t ct_size_stack(size_t nframes) { return sizeof(struct ct_rec_stack) + kept_frames(nframes) * sizeof(uint64_t); }

void ct_put_stack(void *rec, uint32_t tid, uint32_t id, const uint64_t *frames, size_t nframes, unsigned trimmed)
{
    struct ct_rec_stack *r = rec;
    size_t size = ct_size_stack(nframes);

    nframes = kept_frames(nframes);
    ct_put_hdr(&r->h, CT_REC_STACK, size, tid);
    r->id = id;
    r->nframes = (uint16_t)nframes;
    r->trimmed = (uint16_t)(trimmed > UINT16_MAX ? UINT16_MAX : trimmed);
    memcpy(r + 1, frames, nframes * sizeof *frames);
}

size_t ct_size_pystack(size_t nframes)
{
    return sizeof(struct ct_rec_pystack) + kept_frames(nframes) * sizeof(struct ct_py_frame);
}

void ct_put_pystack(void *rec, uint32_t tid, uint32_t id, const struct ct_py_frame *frames, size_t nframes)
{
    struct ct_rec_pystack *r = rec;
    size_t size = ct_size_pystack(nframes);

    nframes = kept_frames(nframes);
    ct_put_hdr(&r->h, CT_REC_PYSTACK, size, tid);
    r->id = id;
    r->nframes = (uint16_t)nframes;
    r->reserved = 0;
    memcpy(r + 1, frames, nframes * sizeof *frames);
}

size_t ct_size_module(size_t path_len)
{
    return ct_pad8(sizeof(struct ct_rec_module) + cut(path_len, CT_REC_MAX_SIZE - sizeof(struct ct_rec_module)));
}

void ct_put_module(void *rec, uint64_t base, uint64_t lo, uint64_t hi, const char *path, size_t path_len,
                   const uint8_t *build_id, size_t build_id_len, unsigned flags)
{
    struct ct_rec_module *r = rec;
    size_t size = ct_size_module(path_len);

    path_len = cut(path_len, CT_REC_MAX_SIZE - sizeof *r);
    if (build_id_len > CT_BUILD_ID_MAX)
        build_id_len = CT_BUILD_ID_MAX;
    memset(rec, 0, size);
    ct_put_hdr(&r->h, CT_REC_MODULE, size, 0);
    r->base = base;
    r->lo = lo;
    r->hi = hi;
    r->path_len = (uint16_t)path_len;
    r->build_id_len = (uint8_t)build_id_len;
    r->flags = (uint8_t)flags;
    if (build_id_len) /* build_id may be NULL then, which memcpy does not allow */
        memcpy(r->build_id, build_id, build_id_len);
    memcpy(r + 1, path, path_len);
}

size_t ct_rec_min_size(unsigned type)
{
    switch (type) {
    case CT_REC_PROCESS: return sizeof(struct ct_rec_process);
    case CT_REC_STRING: return sizeof(struct ct_rec_string);
    case CT_REC_API: return sizeof(struct ct_rec_api);
    case CT_REC_CALL: return sizeof(struct ct_rec_call);
    case CT_REC_LOST: return sizeof(struct ct_rec_lost);
    case CT_REC_DRIVER: return sizeof(struct ct_rec_driver);
    case CT_REC_DEVICE: return sizeof(struct ct_rec_device);
    case CT_REC_THREAD: return sizeof(struct ct_rec_thread);
    case CT_REC_UNTRACED: return sizeof(struct ct_rec_untraced);
    case CT_REC_END: return sizeof(struct ct_rec_end);
    case CT_REC_STACK: return sizeof(struct ct_rec_stack);
    case CT_REC_MODULE: return sizeof(struct ct_rec_module);
    case CT_REC_LAUNCH_REPEAT: return sizeof(struct ct_rec_launch_repeat);
    case CT_REC_CLOCK: return sizeof(struct ct_rec_clock);
    case CT_REC_LAUNCH_SHORT: return sizeof(struct ct_rec_launch_short);
    case CT_REC_CALL_SHORT: return sizeof(struct ct_rec_call_short);
    case CT_REC_GPU: return sizeof(struct ct_rec_gpu);
    case CT_REC_GPU_INFO: return CT_REC_GPU_INFO_V5_SIZE; /* format 8 added fields after */
    case CT_REC_NVTX: return sizeof(struct ct_rec_nvtx);
    case CT_REC_NVTX_NAME: return sizeof(struct ct_rec_nvtx_name);
    case CT_REC_RANK: return sizeof(struct ct_rec_rank);
    case CT_REC_COUNTED: return sizeof(struct ct_rec_counted);
    case CT_REC_PYSTACK: return sizeof(struct ct_rec_pystack);
    default: return 0;
    }
}

size_t ct_payload_size(unsigned family)
{
    switch (family) {
    case CT_FAM_ALLOC: return sizeof(struct ct_pl_alloc);
    case CT_FAM_FREE: return sizeof(struct ct_pl_free);
    case CT_FAM_LAUNCH: return sizeof(struct ct_pl_launch);
    case CT_FAM_COPY: return sizeof(struct ct_pl_copy);
    default: return 0;
    }
}

const char *ct_rec_check(const struct ct_rec_hdr *h, size_t avail)
{
    if (h->marker != CT_REC_MARKER)
        return "bad record marker";
    if (h->type == 0)
        return "record type 0";
    if (h->size < sizeof *h || h->size % 8 != 0)
        return "bad record size";
    if (h->size > avail)
        return "record runs past the data";
    if (h->size < ct_rec_min_size(h->type))
        return "record too small for its type";

    switch (h->type) {
    case CT_REC_PROCESS: {
        const struct ct_rec_process *r = (const void *)h;
        if (sizeof *r + (size_t)r->host_len + r->cmdline_len > h->size)
            return "process record lengths exceed its size";
        break;
    }
    case CT_REC_STRING: {
        const struct ct_rec_string *r = (const void *)h;
        if (sizeof *r + (size_t)r->len > h->size)
            return "string record length exceeds its size";
        if (r->id == 0)
            return "string record with id 0";
        break;
    }
    case CT_REC_API: {
        const struct ct_rec_api *r = (const void *)h;
        if (sizeof *r + (size_t)r->name_len + r->variant_len > h->size)
            return "api record lengths exceed its size";
        break;
    }
    case CT_REC_CALL: {
        const struct ct_rec_call *r = (const void *)h;
        if (r->payload > CT_FAM_COPY)
            return "call record with an unknown payload";
        if (sizeof *r + ct_payload_size(r->payload) > h->size)
            return "call record too small for its payload";
        if (r->shape > CT_LAUNCH_SHAPES || (r->shape && r->payload != CT_FAM_LAUNCH))
            return "call record with a bad launch shape slot";
        break;
    }
    case CT_REC_LAUNCH_REPEAT: {
        const struct ct_rec_launch_repeat *r = (const void *)h;
        if (r->shape == 0 || r->shape > CT_LAUNCH_SHAPES)
            return "launch repeat with a bad shape slot";
        break;
    }
    case CT_REC_CLOCK: {
        const struct ct_rec_clock *r = (const void *)h;
        /* A tick between 1 ps and 1 ms: nothing real is outside, and NaN is not inside. */
        if (!(r->ns_per_tick >= 1e-3 && r->ns_per_tick <= 1e6))
            return "clock record with an impossible tick length";
        break;
    }
    case CT_REC_END: {
        const struct ct_rec_end *r = (const void *)h;
        if (r->end_mono_ns < 0 || r->end_mono_ns > CT_MONO_NS_MAX)
            return "end record with an impossible time";
        break;
    }
    case CT_REC_GPU: {
        const struct ct_rec_gpu *r = (const void *)h;
        if (r->start_ns > (uint64_t)CT_MONO_NS_MAX || r->end_ns > (uint64_t)CT_MONO_NS_MAX ||
            r->end_ns < r->start_ns)
            return "gpu record with impossible times";
        if (r->family != CT_FAM_LAUNCH && r->family != CT_FAM_COPY)
            return "gpu record of neither a launch nor a copy";
        break;
    }
    case CT_REC_GPU_INFO: {
        const struct ct_rec_gpu_info *r = (const void *)h;
        if (r->mode > CT_GPU_ALL)
            return "gpu info record with an unknown mode";
        if (h->size >= sizeof *r && (r->source > CT_GPU_SRC_ACTIVITY || r->why > CT_GPU_WHY_CHILD ||
                                     r->request > CT_GPU_REQ_ACTIVITY || r->source_ns > (uint64_t)CT_MONO_NS_MAX))
            return "gpu info record with an unknown source, reason, request or an impossible time";
        break;
    }
    case CT_REC_NVTX: {
        const struct ct_rec_nvtx *r = (const void *)h;
        if (r->kind < CT_NVTX_PUSH || r->kind > CT_NVTX_MARK)
            return "nvtx record of an unknown kind";
        if (r->t_ns > (uint64_t)CT_MONO_NS_MAX)
            return "nvtx record with an impossible time";
        break;
    }
    case CT_REC_NVTX_NAME: {
        const struct ct_rec_nvtx_name *r = (const void *)h;
        if (r->what != CT_NVTX_NAME_DOMAIN && r->what != CT_NVTX_NAME_CATEGORY)
            return "nvtx name record of an unknown kind";
        break;
    }
    case CT_REC_STACK: {
        const struct ct_rec_stack *r = (const void *)h;
        if (sizeof *r + (size_t)r->nframes * sizeof(uint64_t) > h->size)
            return "stack record frames exceed its size";
        if (r->id == 0)
            return "stack record with id 0";
        break;
    }
    case CT_REC_PYSTACK: {
        const struct ct_rec_pystack *r = (const void *)h;
        if (sizeof *r + (size_t)r->nframes * sizeof(struct ct_py_frame) > h->size)
            return "python stack record frames exceed its size";
        if (r->id == 0)
            return "python stack record with id 0";
        break;
    }
    case CT_REC_MODULE: {
        const struct ct_rec_module *r = (const void *)h;
        if (sizeof *r + (size_t)r->path_len > h->size)
            return "module record path exceeds its size";
        if (r->build_id_len > CT_BUILD_ID_MAX)
            return "module record build id too long";
        break;
    }
    default:
        break;
    }
    return NULL;
}
