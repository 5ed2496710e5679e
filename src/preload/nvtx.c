/* libcudatrace.so as an NVTX injection library.  A program's first NVTX call makes NVTX load the library
 * named by NVTX_INJECTION64_PATH (set to ours by the constructor below or by the `cudatrace` launcher) and
 * call its InitializeInjectionNvtx2, which fills NVTX's function tables with the callbacks here.  A program
 * that makes no NVTX call never gets here: the trampolines know nothing of NVTX.
 *
 * Events go into the calling thread's ring (recorder.h, ct_rec_nvtx) like calls, and obey the capture
 * switch (capture.h); with CUDATRACE_CAPTURE=nvtx:RANGE[@DOMAIN] these callbacks open and close the capture
 * ranges.  When the user had set NVTX_INJECTION64_PATH to another tool, that tool is loaded too
 * (CUDATRACE_NVTX_FORWARD) and every callback calls on to it, with its own handles. */
#include "config.h"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define NVTX_NO_IMPL
#include <nvtx3/nvToolsExt.h>

#include "preload/capture.h"
#include "preload/nvtx_names.h"
#include "recorder/export.h"
#include "recorder/recorder.h"
#include "recorder/settings.h"
#include "recorder/warn.h"

#define CAP_MAX_DEPTH 64 /* capture ranges are recognised among the first 64 levels of a thread's pushes */

/* The forwarded tool's callbacks, by module and callback id (NULL where it set none). */
static NvtxFunctionPointer fwd_core[NVTX_CBID_CORE_SIZE], fwd_core2[NVTX_CBID_CORE2_SIZE];
#define FWD(tab, id, type) ((type)(tab)[id])

/* CUDATRACE_CAPTURE=nvtx:...: the range's message id and its domain's (0 for the default domain). */
static int cap_on;
static uint32_t cap_name_id, cap_domain_name_id;
static pthread_mutex_t cap_mu = PTHREAD_MUTEX_INITIALIZER;
static uint64_t cap_started[64]; /* range ids of capture start/end ranges open now */
static __thread uint64_t cap_levels __attribute__((tls_model("initial-exec"))); /* bit i: push level i opened one */
static __thread unsigned push_depth __attribute__((tls_model("initial-exec")));  /* this thread's open pushes */
static _Atomic uint64_t next_range_id = 1;

static uint16_t domain_id(nvtxDomainHandle_t h) { return h ? ((struct ct_nvtx_domain *)h)->id : 0; }

static uint32_t message_id(const nvtxEventAttributes_t *a)
{
    if (!a)
        return 0;
    switch (a->messageType) {
    case NVTX_MESSAGE_TYPE_ASCII: return a->message.ascii ? ct_nvtx_ascii_id(a->message.ascii) : 0;
    case NVTX_MESSAGE_TYPE_UNICODE: return a->message.unicode ? ct_nvtx_wide_id(a->message.unicode) : 0;
    case NVTX_MESSAGE_TYPE_REGISTERED:
        return a->message.registered ? ((struct ct_nvtx_string *)a->message.registered)->id : 0;
    default: return 0;
    }
}

/* Is this range the capture range? */
static int is_capture(nvtxDomainHandle_t d, uint32_t name_id)
{
    return cap_on && name_id == cap_name_id &&
           (d ? ((struct ct_nvtx_domain *)d)->name_id == cap_domain_name_id : cap_domain_name_id == 0);
}

static void record(unsigned kind, nvtxDomainHandle_t d, uint32_t name_id, const nvtxEventAttributes_t *a,
                   uint64_t range_id)
{
    if (__atomic_load_n(&ct_gate, __ATOMIC_RELAXED) & CT_GATE_CAPTURE)
        return;
    if (a)
        ct_rec_nvtx(kind, domain_id(d), name_id, range_id, a->category, a->color,
                    a->colorType == NVTX_COLOR_ARGB ? CT_NVTX_COLOR : 0);
    else
        ct_rec_nvtx(kind, domain_id(d), name_id, range_id, 0, 0, 0);
}

/* The attributes as the forwarded tool must see them: its own registered string handle. */
static const nvtxEventAttributes_t *theirs(const nvtxEventAttributes_t *a, nvtxEventAttributes_t *copy)
{
    if (!a || a->messageType != NVTX_MESSAGE_TYPE_REGISTERED || !a->message.registered)
        return a;
    memcpy(copy, a, a->size && a->size < sizeof *copy ? a->size : sizeof *copy);
    copy->message.registered = ((struct ct_nvtx_string *)a->message.registered)->theirs;
    return copy;
}
static nvtxDomainHandle_t their_domain(nvtxDomainHandle_t d)
{
    return d ? ((struct ct_nvtx_domain *)d)->theirs : NULL;
}

/* ---- push/pop, start/end, marks: every form comes here ---- */

static int push(nvtxDomainHandle_t d, const nvtxEventAttributes_t *a, uint32_t name_id)
{
    unsigned level = push_depth++;
    if (is_capture(d, name_id) && level < CAP_MAX_DEPTH) {
        cap_levels |= 1ull << level;
        ct_capture_nvtx_open();
    }
    record(CT_NVTX_PUSH, d, name_id, a, 0);
    return (int)level;
}

static int pop(nvtxDomainHandle_t d)
{
    if (push_depth == 0)
        return -1;
    unsigned level = --push_depth;
    record(CT_NVTX_POP, d, 0, NULL, 0);
    if (level < CAP_MAX_DEPTH && (cap_levels >> level & 1)) {
        cap_levels &= ~(1ull << level);
        ct_capture_nvtx_close();
    }
    return (int)level;
}

static nvtxRangeId_t start(nvtxDomainHandle_t d, const nvtxEventAttributes_t *a, uint32_t name_id)
{
    uint64_t id = atomic_fetch_add(&next_range_id, 1);
    if (is_capture(d, name_id)) {
        pthread_mutex_lock(&cap_mu);
        for (size_t i = 0; i < sizeof cap_started / sizeof cap_started[0]; i++)
            if (!cap_started[i]) {
                cap_started[i] = id;
                ct_capture_nvtx_open();
                break;
            }
        pthread_mutex_unlock(&cap_mu);
    }
    record(CT_NVTX_START, d, name_id, a, id);
    return id;
}

static void end(nvtxDomainHandle_t d, nvtxRangeId_t id)
{
    record(CT_NVTX_END, d, 0, NULL, id);
    if (cap_on) {
        pthread_mutex_lock(&cap_mu);
        for (size_t i = 0; i < sizeof cap_started / sizeof cap_started[0]; i++)
            if (id && cap_started[i] == id) {
                cap_started[i] = 0;
                ct_capture_nvtx_close();
                break;
            }
        pthread_mutex_unlock(&cap_mu);
    }
}

/* ---- the callbacks NVTX calls ---- */

static void cb_MarkEx(const nvtxEventAttributes_t *a)
{
    nvtxEventAttributes_t c;
    record(CT_NVTX_MARK, NULL, message_id(a), a, 0);
    if (fwd_core[NVTX_CBID_CORE_MarkEx])
        FWD(fwd_core, NVTX_CBID_CORE_MarkEx, nvtxMarkEx_impl_fntype)(theirs(a, &c));
}
static void cb_MarkA(const char *m)
{
    record(CT_NVTX_MARK, NULL, m ? ct_nvtx_ascii_id(m) : 0, NULL, 0);
    if (fwd_core[NVTX_CBID_CORE_MarkA])
        FWD(fwd_core, NVTX_CBID_CORE_MarkA, nvtxMarkA_impl_fntype)(m);
}
static void cb_MarkW(const wchar_t *m)
{
    record(CT_NVTX_MARK, NULL, m ? ct_nvtx_wide_id(m) : 0, NULL, 0);
    if (fwd_core[NVTX_CBID_CORE_MarkW])
        FWD(fwd_core, NVTX_CBID_CORE_MarkW, nvtxMarkW_impl_fntype)(m);
}
static nvtxRangeId_t cb_RangeStartEx(const nvtxEventAttributes_t *a)
{
    nvtxEventAttributes_t c;
    nvtxRangeId_t id = start(NULL, a, message_id(a));
    if (fwd_core[NVTX_CBID_CORE_RangeStartEx]) /* its own ids: ours pair the records, its own its ranges */
        return FWD(fwd_core, NVTX_CBID_CORE_RangeStartEx, nvtxRangeStartEx_impl_fntype)(theirs(a, &c));
    return id;
}
/* The A (char) and W (wchar_t) forms of a callback differ only in how the message becomes its id. */
#define CB_A_AND_W(ret, name, op)                                                                             \
    static ret cb_##name##A(const char *m)                                                                    \
    {                                                                                                         \
        ret r = op(NULL, NULL, m ? ct_nvtx_ascii_id(m) : 0);                                                  \
        if (fwd_core[NVTX_CBID_CORE_##name##A])                                                               \
            return FWD(fwd_core, NVTX_CBID_CORE_##name##A, nvtx##name##A_impl_fntype)(m);                     \
        return r;                                                                                             \
    }                                                                                                         \
    static ret cb_##name##W(const wchar_t *m)                                                                 \
    {                                                                                                         \
        ret r = op(NULL, NULL, m ? ct_nvtx_wide_id(m) : 0);                                                   \
        if (fwd_core[NVTX_CBID_CORE_##name##W])                                                               \
            return FWD(fwd_core, NVTX_CBID_CORE_##name##W, nvtx##name##W_impl_fntype)(m);                     \
        return r;                                                                                             \
    }
CB_A_AND_W(nvtxRangeId_t, RangeStart, start)
static void cb_RangeEnd(nvtxRangeId_t id)
{
    /* With a forwarded tool the ids are its own: the end cannot be paired with our start, so it is not
     * recorded (documented); a tool that needs start/end ranges in both is not supported. */
    if (fwd_core[NVTX_CBID_CORE_RangeEnd]) {
        FWD(fwd_core, NVTX_CBID_CORE_RangeEnd, nvtxRangeEnd_impl_fntype)(id);
        return;
    }
    end(NULL, id);
}
static int cb_RangePushEx(const nvtxEventAttributes_t *a)
{
    nvtxEventAttributes_t c;
    int level = push(NULL, a, message_id(a));
    if (fwd_core[NVTX_CBID_CORE_RangePushEx])
        return FWD(fwd_core, NVTX_CBID_CORE_RangePushEx, nvtxRangePushEx_impl_fntype)(theirs(a, &c));
    return level;
}
CB_A_AND_W(int, RangePush, push)
static int cb_RangePop(void)
{
    int level = pop(NULL);
    if (fwd_core[NVTX_CBID_CORE_RangePop])
        return FWD(fwd_core, NVTX_CBID_CORE_RangePop, nvtxRangePop_impl_fntype)();
    return level;
}
/* A category named, in the default domain (d NULL) or another; a wide name arrives as UTF-8. */
static void name_category(nvtxDomainHandle_t d, uint32_t category, const char *name)
{
    ct_rec_nvtx_name(CT_NVTX_NAME_CATEGORY, domain_id(d), category, name ? ct_rec_intern(CT_STR_NVTX, name) : 0);
}

static void cb_NameCategoryA(uint32_t category, const char *name)
{
    name_category(NULL, category, name);
    if (fwd_core[NVTX_CBID_CORE_NameCategoryA])
        FWD(fwd_core, NVTX_CBID_CORE_NameCategoryA, nvtxNameCategoryA_impl_fntype)(category, name);
}
static void cb_NameCategoryW(uint32_t category, const wchar_t *name)
{
    char buf[1024];
    name_category(NULL, category, ct_nvtx_utf8(name, buf, sizeof buf));
    if (fwd_core[NVTX_CBID_CORE_NameCategoryW])
        FWD(fwd_core, NVTX_CBID_CORE_NameCategoryW, nvtxNameCategoryW_impl_fntype)(category, name);
}
static void cb_NameOsThreadA(uint32_t tid, const char *name)
{
    ct_rec_thread_name(tid, name);
    if (fwd_core[NVTX_CBID_CORE_NameOsThreadA])
        FWD(fwd_core, NVTX_CBID_CORE_NameOsThreadA, nvtxNameOsThreadA_impl_fntype)(tid, name);
}
static void cb_NameOsThreadW(uint32_t tid, const wchar_t *name)
{
    char buf[1024];
    ct_rec_thread_name(tid, ct_nvtx_utf8(name, buf, sizeof buf));
    if (fwd_core[NVTX_CBID_CORE_NameOsThreadW])
        FWD(fwd_core, NVTX_CBID_CORE_NameOsThreadW, nvtxNameOsThreadW_impl_fntype)(tid, name);
}

/* Domains (NVTX 2). */
static void cb_DomainMarkEx(nvtxDomainHandle_t d, const nvtxEventAttributes_t *a)
{
    nvtxEventAttributes_t c;
    record(CT_NVTX_MARK, d, message_id(a), a, 0);
    if (fwd_core2[NVTX_CBID_CORE2_DomainMarkEx])
        FWD(fwd_core2, NVTX_CBID_CORE2_DomainMarkEx, nvtxDomainMarkEx_impl_fntype)(their_domain(d), theirs(a, &c));
}
static nvtxRangeId_t cb_DomainRangeStartEx(nvtxDomainHandle_t d, const nvtxEventAttributes_t *a)
{
    nvtxEventAttributes_t c;
    nvtxRangeId_t id = start(d, a, message_id(a));
    if (fwd_core2[NVTX_CBID_CORE2_DomainRangeStartEx])
        return FWD(fwd_core2, NVTX_CBID_CORE2_DomainRangeStartEx, nvtxDomainRangeStartEx_impl_fntype)(
            their_domain(d), theirs(a, &c));
    return id;
}
static void cb_DomainRangeEnd(nvtxDomainHandle_t d, nvtxRangeId_t id)
{
    if (fwd_core2[NVTX_CBID_CORE2_DomainRangeEnd]) {
        FWD(fwd_core2, NVTX_CBID_CORE2_DomainRangeEnd, nvtxDomainRangeEnd_impl_fntype)(their_domain(d), id);
        return;
    }
    end(d, id);
}
static int cb_DomainRangePushEx(nvtxDomainHandle_t d, const nvtxEventAttributes_t *a)
{
    nvtxEventAttributes_t c;
    int level = push(d, a, message_id(a));
    if (fwd_core2[NVTX_CBID_CORE2_DomainRangePushEx])
        return FWD(fwd_core2, NVTX_CBID_CORE2_DomainRangePushEx, nvtxDomainRangePushEx_impl_fntype)(
            their_domain(d), theirs(a, &c));
    return level;
}
static int cb_DomainRangePop(nvtxDomainHandle_t d)
{
    int level = pop(d);
    if (fwd_core2[NVTX_CBID_CORE2_DomainRangePop])
        return FWD(fwd_core2, NVTX_CBID_CORE2_DomainRangePop, nvtxDomainRangePop_impl_fntype)(their_domain(d));
    return level;
}
static void cb_DomainNameCategoryA(nvtxDomainHandle_t d, uint32_t category, const char *name)
{
    name_category(d, category, name);
    if (fwd_core2[NVTX_CBID_CORE2_DomainNameCategoryA])
        FWD(fwd_core2, NVTX_CBID_CORE2_DomainNameCategoryA, nvtxDomainNameCategoryA_impl_fntype)(their_domain(d),
                                                                                                 category, name);
}
static void cb_DomainNameCategoryW(nvtxDomainHandle_t d, uint32_t category, const wchar_t *name)
{
    char buf[1024];
    name_category(d, category, ct_nvtx_utf8(name, buf, sizeof buf));
    if (fwd_core2[NVTX_CBID_CORE2_DomainNameCategoryW])
        FWD(fwd_core2, NVTX_CBID_CORE2_DomainNameCategoryW, nvtxDomainNameCategoryW_impl_fntype)(their_domain(d),
                                                                                                 category, name);
}
static nvtxStringHandle_t cb_DomainRegisterStringA(nvtxDomainHandle_t d, const char *s)
{
    struct ct_nvtx_string *r = ct_nvtx_string(s);
    if (r && fwd_core2[NVTX_CBID_CORE2_DomainRegisterStringA])
        r->theirs = FWD(fwd_core2, NVTX_CBID_CORE2_DomainRegisterStringA, nvtxDomainRegisterStringA_impl_fntype)(
            their_domain(d), s);
    return (nvtxStringHandle_t)r;
}
static nvtxStringHandle_t cb_DomainRegisterStringW(nvtxDomainHandle_t d, const wchar_t *s)
{
    char buf[1024];
    struct ct_nvtx_string *r = ct_nvtx_string(ct_nvtx_utf8(s, buf, sizeof buf));
    if (r && fwd_core2[NVTX_CBID_CORE2_DomainRegisterStringW])
        r->theirs = FWD(fwd_core2, NVTX_CBID_CORE2_DomainRegisterStringW, nvtxDomainRegisterStringW_impl_fntype)(
            their_domain(d), s);
    return (nvtxStringHandle_t)r;
}
static nvtxDomainHandle_t cb_DomainCreateA(const char *name)
{
    struct ct_nvtx_domain *d = ct_nvtx_domain(name);
    if (d && !d->theirs && fwd_core2[NVTX_CBID_CORE2_DomainCreateA])
        d->theirs = FWD(fwd_core2, NVTX_CBID_CORE2_DomainCreateA, nvtxDomainCreateA_impl_fntype)(name);
    return (nvtxDomainHandle_t)d;
}
static nvtxDomainHandle_t cb_DomainCreateW(const wchar_t *name)
{
    char buf[1024];
    struct ct_nvtx_domain *d = ct_nvtx_domain(ct_nvtx_utf8(name, buf, sizeof buf));
    if (d && !d->theirs && fwd_core2[NVTX_CBID_CORE2_DomainCreateW])
        d->theirs = FWD(fwd_core2, NVTX_CBID_CORE2_DomainCreateW, nvtxDomainCreateW_impl_fntype)(name);
    return (nvtxDomainHandle_t)d;
}
static void cb_DomainDestroy(nvtxDomainHandle_t d)
{
    /* Ours stay: a handle is never reused for another name. */
    if (fwd_core2[NVTX_CBID_CORE2_DomainDestroy])
        FWD(fwd_core2, NVTX_CBID_CORE2_DomainDestroy, nvtxDomainDestroy_impl_fntype)(their_domain(d));
}
static void cb_Initialize(const void *reserved)
{
    if (fwd_core2[NVTX_CBID_CORE2_Initialize])
        FWD(fwd_core2, NVTX_CBID_CORE2_Initialize, nvtxInitialize_impl_fntype)(reserved);
}

/* ---- initialization ---- */

struct slot {
    unsigned id;
    NvtxFunctionPointer fn;
};
#define S(cbid, f) {cbid, (NvtxFunctionPointer)(f)}
static const struct slot core[] = {
    S(NVTX_CBID_CORE_MarkEx, cb_MarkEx), S(NVTX_CBID_CORE_MarkA, cb_MarkA), S(NVTX_CBID_CORE_MarkW, cb_MarkW),
    S(NVTX_CBID_CORE_RangeStartEx, cb_RangeStartEx), S(NVTX_CBID_CORE_RangeStartA, cb_RangeStartA),
    S(NVTX_CBID_CORE_RangeStartW, cb_RangeStartW), S(NVTX_CBID_CORE_RangeEnd, cb_RangeEnd),
    S(NVTX_CBID_CORE_RangePushEx, cb_RangePushEx), S(NVTX_CBID_CORE_RangePushA, cb_RangePushA),
    S(NVTX_CBID_CORE_RangePushW, cb_RangePushW), S(NVTX_CBID_CORE_RangePop, cb_RangePop),
    S(NVTX_CBID_CORE_NameCategoryA, cb_NameCategoryA), S(NVTX_CBID_CORE_NameCategoryW, cb_NameCategoryW),
    S(NVTX_CBID_CORE_NameOsThreadA, cb_NameOsThreadA), S(NVTX_CBID_CORE_NameOsThreadW, cb_NameOsThreadW),
};
static const struct slot core2[] = {
    S(NVTX_CBID_CORE2_DomainMarkEx, cb_DomainMarkEx), S(NVTX_CBID_CORE2_DomainRangeStartEx, cb_DomainRangeStartEx),
    S(NVTX_CBID_CORE2_DomainRangeEnd, cb_DomainRangeEnd), S(NVTX_CBID_CORE2_DomainRangePushEx, cb_DomainRangePushEx),
    S(NVTX_CBID_CORE2_DomainRangePop, cb_DomainRangePop),
    S(NVTX_CBID_CORE2_DomainNameCategoryA, cb_DomainNameCategoryA),
    S(NVTX_CBID_CORE2_DomainNameCategoryW, cb_DomainNameCategoryW),
    S(NVTX_CBID_CORE2_DomainRegisterStringA, cb_DomainRegisterStringA),
    S(NVTX_CBID_CORE2_DomainRegisterStringW, cb_DomainRegisterStringW),
    S(NVTX_CBID_CORE2_DomainCreateA, cb_DomainCreateA), S(NVTX_CBID_CORE2_DomainCreateW, cb_DomainCreateW),
    S(NVTX_CBID_CORE2_DomainDestroy, cb_DomainDestroy), S(NVTX_CBID_CORE2_Initialize, cb_Initialize),
};

/* The slots of one module's table, before and after: `install` writes ours, else they are read back into
 * `fwd` where the forwarded tool changed them (a slot it left holds NVTX's own initializer, which must never
 * be called from here: it would call us again). */
static int module(const NvtxExportTableCallbacks *cb, NvtxCallbackModule m, const struct slot *s, size_t n,
                  NvtxFunctionPointer *before, NvtxFunctionPointer *fwd, size_t fwd_n, int install)
{
    NvtxFunctionTable table = NULL;
    unsigned size = 0;

    if (!cb->GetModuleFunctionTable(m, &table, &size) || !table)
        return 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i].id >= size || s[i].id >= fwd_n || !table[s[i].id])
            continue;
        if (install)
            *table[s[i].id] = s[i].fn;
        else if (fwd)
            fwd[s[i].id] = *table[s[i].id] != before[s[i].id] ? *table[s[i].id] : NULL;
        else
            before[s[i].id] = *table[s[i].id];
    }
    return 1;
}

/* Load the user's own injection library and let it fill the tables first; its callbacks are then ours to
 * call on.  NVTX calls this function once per process, from its first NVTX call. */
CT_EXPORT int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get); /* NVTX finds it by name */

static void forward_init(const char *path, NvtxGetExportTableFunc_t get, const NvtxExportTableCallbacks *cb)
{
    static NvtxFunctionPointer before_core[NVTX_CBID_CORE_SIZE], before_core2[NVTX_CBID_CORE2_SIZE];
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    NvtxInitializeInjectionNvtxFunc_t init = h ? (NvtxInitializeInjectionNvtxFunc_t)dlsym(h, "InitializeInjectionNvtx2") : NULL;

    if (!init) {
        ct_warn("cannot load the NVTX injection library %s (CUDATRACE_NVTX_FORWARD): %s", path,
                h ? "no InitializeInjectionNvtx2" : dlerror());
        return;
    }
    if (init == InitializeInjectionNvtx2) /* this library by another name (a symlink): never call on to itself */
        return;
    module(cb, NVTX_CB_MODULE_CORE, core, sizeof core / sizeof *core, before_core, NULL, NVTX_CBID_CORE_SIZE, 0);
    module(cb, NVTX_CB_MODULE_CORE2, core2, sizeof core2 / sizeof *core2, before_core2, NULL, NVTX_CBID_CORE2_SIZE, 0);
    if (!init(get)) {
        ct_warn("the NVTX injection library %s (CUDATRACE_NVTX_FORWARD) failed to initialize", path);
        return;
    }
    module(cb, NVTX_CB_MODULE_CORE, core, sizeof core / sizeof *core, before_core, fwd_core, NVTX_CBID_CORE_SIZE, 0);
    module(cb, NVTX_CB_MODULE_CORE2, core2, sizeof core2 / sizeof *core2, before_core2, fwd_core2,
           NVTX_CBID_CORE2_SIZE, 0);
}

CT_EXPORT int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get)
{
    const NvtxExportTableCallbacks *cb = get ? get(NVTX_ETID_CALLBACKS) : NULL;
    const struct ct_capture_spec *spec = ct_capture_nvtx();
    const char *fwd = ct_settings_nvtx_forward();

    if (!cb || ct_secure_mode())
        return 0; /* in secure-execution mode, the program's NVTX calls go nowhere (settings.h) */
    if (spec) {
        cap_name_id = ct_rec_intern(CT_STR_NVTX, spec->range);
        cap_domain_name_id = spec->domain[0] ? ct_rec_intern(CT_STR_NVTX, spec->domain) : 0;
        cap_on = cap_name_id != 0;
    }
    if (fwd)
        forward_init(fwd, get, cb);
    return module(cb, NVTX_CB_MODULE_CORE, core, sizeof core / sizeof *core, NULL, NULL, NVTX_CBID_CORE_SIZE, 1) &&
           module(cb, NVTX_CB_MODULE_CORE2, core2, sizeof core2 / sizeof *core2, NULL, NULL, NVTX_CBID_CORE2_SIZE, 1);
}

/* Preloaded, the library makes itself NVTX's injection library; one the user named is loaded by ours and
 * called on (CUDATRACE_NVTX_FORWARD), so both see the program's annotations.  The variables are inherited:
 * children and exec'd programs do the same. */
__attribute__((constructor)) static void nvtx_ctor(void)
{
    Dl_info info;
    char abs[PATH_MAX];
    const char *set = getenv("NVTX_INJECTION64_PATH"), *self;

    if (ct_secure_mode())
        return; /* nothing is traced, and the environment is left as it is (settings.h) */
    if (!dladdr((void *)InitializeInjectionNvtx2, &info) || !info.dli_fname)
        return;
    /* LD_PRELOAD=./libcudatrace.so: the name as loaded is relative to a directory the program may leave. */
    if (!(self = info.dli_fname[0] == '/' ? info.dli_fname : realpath(info.dli_fname, abs)))
        return;
    if (set && *set && strcmp(set, self) != 0)
        setenv("CUDATRACE_NVTX_FORWARD", set, 1);
    if (!set || strcmp(set, self) != 0)
        setenv("NVTX_INJECTION64_PATH", self, 1);
}
