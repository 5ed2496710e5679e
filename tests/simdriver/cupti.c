/* The simulated libcupti.so.13 (tests only): the subset of CUPTI that cudatrace's activity source and the test
 * programs use, fed by the simulated driver's timeline (tool.h), so that GPU time from activity records can be
 * tested without a GPU.  What it models:
 *  - one subscriber at a time (a second: CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED), callbacks on the
 *    driver functions enabled one by one, with each call's correlation id at API enter and exit;
 *  - CONCURRENT_KERNEL, MEMCPY and MEMSET records with the device's start and end (on CUPTI's clock,
 *    CLOCK_REALTIME, as on Linux), the call's correlation id, a graph launch's id on its nodes' records;
 *  - buffers asked of the client (none given: the records are dropped and counted), handed back by
 *    cuptiActivityFlushAll: with 0 only the records of work that has ended, forced all of them (those not
 *    ended with start and end 0, as CUPTI's incomplete records);
 *  - CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER: unset, each buffer given is zeroed here, as CUPTI
 *    does; set, a buffer given must be all zeros, else the process aborts with a message (the client broke
 *    its word, and CUPTI's records would carry its old bytes);
 *  - SIM_CUPTI_BUFFER_RECORDS: at most that many records per buffer (default: as many as fit);
 *  - SIM_CUPTI_FLUSH_STALL: cuptiActivityFlushAll never returns, as when a lock it needs is held by a
 *    thread that a signal interrupted;
 *  - SIM_CUPTI_FLUSH_DELAY_MS: cuptiActivityFlushAll sleeps that long before it hands buffers back, as a
 *    collector starved of CPU falls behind the program's launches;
 *  - SIM_CUPTI_EXIT_DELAY_MS (tools.c): a call returns that long after its exit callback, as a thread taken
 *    off its CPU there;
 *  - SIM_CUPTI_NO_TIMESTAMP: cuptiGetTimestamp fails. */
#include "config.h"

#include <cuda.h>
#include <cupti_activity.h>
#include <cupti_callbacks.h>
#include <cupti_driver_cbid.h>
#include <cupti_result.h>
#include <cupti_version.h>
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tool.h"

#define EXPORT __attribute__((visibility("default")))

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
/* Held with signals blocked: a program's signal handler may launch (interpose-signals.sh), and its callback
 * must not wait on the lock of the very call it interrupted. */
static __thread sigset_t unlocked_mask;

static void lock(void)
{
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &unlocked_mask);
    pthread_mutex_lock(&mu);
}

static void unlock(void)
{
    pthread_mutex_unlock(&mu);
    pthread_sigmask(SIG_SETMASK, &unlocked_mask, NULL);
}

/* A fork while another thread holds the lock (the tracer's collector reading records): the child, which
 * has no such thread, finds it free. */
static void lock_anew(void) { pthread_mutex_init(&mu, NULL); }
__attribute__((constructor)) static void at_load(void) { pthread_atfork(NULL, NULL, lock_anew); }

/* ---- clocks ---- */

static uint64_t clock_ns(clockid_t c)
{
    struct timespec ts;
    clock_gettime(c, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* What to add to a device time (CLOCK_MONOTONIC) to put it on CUPTI's clock (CLOCK_REALTIME). */
static uint64_t to_cupti(void) { return clock_ns(CLOCK_REALTIME) - clock_ns(CLOCK_MONOTONIC); }

/* ---- callbacks ---- */

static struct subscriber {
    CUpti_CallbackFunc fn;
    void *data;
    int live;
    unsigned char enabled[CUPTI_DRIVER_TRACE_CBID_SIZE];
} sub;

/* The functions the simulated driver announces (tools.c) and their ids. */
static const struct {
    const char *name;
    CUpti_CallbackId id;
} names[] = {
    {"cuLaunchKernel", CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel},
    {"cuMemcpyAsync", CUPTI_DRIVER_TRACE_CBID_cuMemcpyAsync},
    {"cuMemsetD8Async", CUPTI_DRIVER_TRACE_CBID_cuMemsetD8Async},
    {"cuGraphLaunch", CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch},
};

static void on_api(int exit, const char *name, uint32_t corr)
{
    CUpti_CallbackFunc fn = NULL;
    void *data = NULL;
    CUpti_CallbackId id = 0;

    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(names[i].name, name) == 0)
            id = names[i].id;
    lock();
    if (sub.live && id && sub.enabled[id]) {
        fn = sub.fn;
        data = sub.data;
    }
    unlock();
    if (!fn)
        return;
    CUpti_CallbackData cb = {.callbackSite = exit ? CUPTI_API_EXIT : CUPTI_API_ENTER,
                             .functionName = name,
                             .correlationId = corr};
    fn(data, CUPTI_CB_DOMAIN_DRIVER_API, id, &cb);
}

/* ---- activity records ---- */

static CUpti_BuffersCallbackRequestFunc want_buffer;
static CUpti_BuffersCallbackCompleteFunc give_buffer;
static int kind_on[CUPTI_ACTIVITY_KIND_COUNT];
static size_t dropped;

/* Records made and not handed back yet, with the device time their work ends. */
struct pending {
    union {
        CUpti_ActivityKernel10 kernel;
        CUpti_ActivityMemcpy6 copy;
        CUpti_ActivityMemset4 set;
    } r;
    size_t size;
    uint64_t end_mono;
};
static struct pending *pend;
static size_t npend, pend_room;

/* Kernel names, kept for the life of the process: a record points at its name (as CUPTI's do). */
static const char *keep_name(const char *s)
{
    static char **kept;
    static size_t nkept, room;
    for (size_t i = 0; i < nkept; i++)
        if (strcmp(kept[i], s) == 0)
            return kept[i];
    if (nkept == room) {
        char **k = realloc(kept, (room = room ? 2 * room : 16) * sizeof *k);
        if (!k)
            return "?";
        kept = k;
    }
    return kept[nkept++] = strdup(s);
}

static void on_work(const struct sim_tool_work *w)
{
    struct pending p;
    const int kind = w->kind == SIM_TOOL_KERNEL ? CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL
                     : w->kind == SIM_TOOL_COPY ? CUPTI_ACTIVITY_KIND_MEMCPY
                                                : CUPTI_ACTIVITY_KIND_MEMSET;
    const uint64_t off = to_cupti(), start = w->start_ns + off, end = w->end_ns + off;
    memset(&p, 0, sizeof p);
    p.end_mono = w->end_ns;
    lock();
    if (!kind_on[kind]) {
        unlock();
        return;
    }
    if (kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) {
        CUpti_ActivityKernel10 *k = &p.r.kernel;
        p.size = sizeof *k;
        k->kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
        k->start = start, k->end = end;
        k->deviceId = (uint32_t)w->device, k->contextId = w->ctx_id, k->streamId = w->stream_id;
        k->gridX = (int32_t)w->grid[0], k->gridY = (int32_t)w->grid[1], k->gridZ = (int32_t)w->grid[2];
        k->blockX = (int32_t)w->block[0], k->blockY = (int32_t)w->block[1], k->blockZ = (int32_t)w->block[2];
        k->correlationId = w->corr;
        k->name = keep_name(w->name ? w->name : "");
        k->graphId = w->graph;
        k->launchType = CUPTI_ACTIVITY_LAUNCH_TYPE_REGULAR;
    } else if (kind == CUPTI_ACTIVITY_KIND_MEMCPY) {
        CUpti_ActivityMemcpy6 *m = &p.r.copy;
        p.size = sizeof *m;
        m->kind = CUPTI_ACTIVITY_KIND_MEMCPY;
        m->copyKind = w->src == SIM_TOOL_DEVICE && w->dst == SIM_TOOL_DEVICE ? CUPTI_ACTIVITY_MEMCPY_KIND_DTOD
                      : w->src == SIM_TOOL_DEVICE                           ? CUPTI_ACTIVITY_MEMCPY_KIND_DTOH
                                                                            : CUPTI_ACTIVITY_MEMCPY_KIND_HTOD;
        m->srcKind = (uint8_t)w->src, m->dstKind = (uint8_t)w->dst;
        m->bytes = w->bytes;
        m->start = start, m->end = end;
        m->deviceId = (uint32_t)w->device, m->contextId = w->ctx_id, m->streamId = w->stream_id;
        m->correlationId = w->corr;
        m->graphId = w->graph;
        m->copyCount = 1;
    } else {
        CUpti_ActivityMemset4 *s = &p.r.set;
        p.size = sizeof *s;
        s->kind = CUPTI_ACTIVITY_KIND_MEMSET;
        s->bytes = w->bytes;
        s->start = start, s->end = end;
        s->deviceId = (uint32_t)w->device, s->contextId = w->ctx_id, s->streamId = w->stream_id;
        s->correlationId = w->corr;
        s->memoryKind = (uint16_t)w->dst;
        s->graphId = w->graph;
    }
    if (npend == pend_room) {
        struct pending *v = realloc(pend, (pend_room = pend_room ? 2 * pend_room : 256) * sizeof *v);
        if (!v) {
            dropped++;
            unlock();
            return;
        }
        pend = v;
    }
    pend[npend++] = p;
    unlock();
}

static const struct sim_tool tool = {on_api, on_work};

/* Attach to the simulated driver once something needs its announcements (it may load after us). */
static void attach(const struct sim_tool *t)
{
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    sim_tool_attach_fn fn = h ? (sim_tool_attach_fn)dlsym(h, SIM_TOOL_ATTACH) : NULL;
    if (fn)
        fn(t);
}

static int zeroed_out; /* CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER */

/* A buffer the client gives: zeroed here, or checked to be zero as the client said. */
static void take_buffer(uint8_t *buf, size_t size)
{
    lock();
    const int promised = zeroed_out;
    unlock();
    if (!promised) {
        memset(buf, 0, size);
        return;
    }
    for (size_t i = 0; i < size; i++)
        if (buf[i]) {
            static const char msg[] = "simulated libcupti: a buffer given as zeroed is not\n";
            (void)!write(2, msg, sizeof msg - 1);
            abort();
        }
}

static size_t per_buffer(void)
{
    const char *v = getenv("SIM_CUPTI_BUFFER_RECORDS");
    return v && *v ? strtoull(v, NULL, 10) : 0;
}

/* Hand back the pending records (forced: all, else those whose work has ended) in as many buffers as the
 * client gives.  Called without the lock. */
static void flush(int forced)
{
    const uint64_t now = clock_ns(CLOCK_MONOTONIC);
    const size_t cap = per_buffer();
    for (;;) {
        lock();
        size_t ready = 0;
        for (size_t i = 0; i < npend; i++)
            ready += forced || pend[i].end_mono <= now;
        CUpti_BuffersCallbackRequestFunc req = want_buffer;
        CUpti_BuffersCallbackCompleteFunc done = give_buffer;
        unlock();
        if (!ready || !req || !done)
            return;
        uint8_t *buf = NULL;
        size_t size = 0, max = 0, used = 0, n = 0;
        req(&buf, &size, &max);
        if (buf)
            take_buffer(buf, size);
        lock();
        size_t keep = 0;
        for (size_t i = 0; i < npend; i++) {
            struct pending *p = &pend[i];
            if (!(forced || p->end_mono <= now)) {
                pend[keep++] = *p;
                continue;
            }
            if (!buf) { /* no buffer: CUPTI drops them */
                dropped++;
                continue;
            }
            if (used + p->size > size || (cap && n == cap) || (max && n == max)) {
                pend[keep++] = *p;
                continue;
            }
            if (p->end_mono > now) { /* forced before its work ended: CUPTI has no times for it */
                if (p->r.kernel.kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)
                    p->r.kernel.start = p->r.kernel.end = 0;
                else if (p->r.kernel.kind == CUPTI_ACTIVITY_KIND_MEMCPY)
                    p->r.copy.start = p->r.copy.end = 0;
                else
                    p->r.set.start = p->r.set.end = 0;
            }
            memcpy(buf + used, &p->r, p->size);
            used += p->size;
            n++;
        }
        npend = keep;
        unlock();
        if (!buf)
            return;
        done(NULL, 0, buf, size, used);
        if (!n)
            return;
    }
}

/* ---- the API ---- */

EXPORT CUptiResult cuptiGetVersion(uint32_t *version)
{
    if (!version)
        return CUPTI_ERROR_INVALID_PARAMETER;
    *version = CUPTI_API_VERSION;
    return CUPTI_SUCCESS;
}

EXPORT CUptiResult cuptiGetResultString(CUptiResult r, const char **s)
{
    if (!s)
        return CUPTI_ERROR_INVALID_PARAMETER;
    switch (r) {
    case CUPTI_SUCCESS: *s = "CUPTI_SUCCESS"; break;
    case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED: *s = "CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED"; break;
    case CUPTI_ERROR_INVALID_PARAMETER: *s = "CUPTI_ERROR_INVALID_PARAMETER"; break;
    case CUPTI_ERROR_MAX_LIMIT_REACHED: *s = "CUPTI_ERROR_MAX_LIMIT_REACHED"; break;
    default: *s = "CUPTI_ERROR_UNKNOWN"; break;
    }
    return CUPTI_SUCCESS;
}

EXPORT CUptiResult cuptiGetTimestamp(uint64_t *ns)
{
    const char *none = getenv("SIM_CUPTI_NO_TIMESTAMP"); /* as a CUPTI that cannot read its clock */
    if (!ns)
        return CUPTI_ERROR_INVALID_PARAMETER;
    if (none && *none && *none != '0')
        return CUPTI_ERROR_NOT_INITIALIZED;
    *ns = clock_ns(CLOCK_REALTIME);
    return CUPTI_SUCCESS;
}

EXPORT CUptiResult cuptiSubscribe(CUpti_SubscriberHandle *s, CUpti_CallbackFunc fn, void *data)
{
    if (!s || !fn)
        return CUPTI_ERROR_INVALID_PARAMETER;
    lock();
    const int busy = sub.live;
    if (!busy) {
        memset(&sub, 0, sizeof sub);
        sub.fn = fn, sub.data = data, sub.live = 1;
    }
    unlock();
    if (busy)
        return CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
    attach(&tool);
    *s = (CUpti_SubscriberHandle)&sub;
    return CUPTI_SUCCESS;
}

EXPORT CUptiResult cuptiUnsubscribe(CUpti_SubscriberHandle s)
{
    if (s != (CUpti_SubscriberHandle)&sub)
        return CUPTI_ERROR_INVALID_PARAMETER;
    lock();
    sub.live = 0;
    unlock();
    return CUPTI_SUCCESS;
}

EXPORT CUptiResult cuptiEnableCallback(uint32_t on, CUpti_SubscriberHandle s, CUpti_CallbackDomain d,
                                       CUpti_CallbackId id)
{
    if (s != (CUpti_SubscriberHandle)&sub || d != CUPTI_CB_DOMAIN_DRIVER_API || id >= CUPTI_DRIVER_TRACE_CBID_SIZE)
        return CUPTI_ERROR_INVALID_PARAMETER;
    lock();
    sub.enabled[id] = on != 0;
    unlock();
    return CUPTI_SUCCESS;
}

EXPORT CUptiResult cuptiEnableDomain(uint32_t on, CUpti_SubscriberHandle s, CUpti_CallbackDomain d)
{
    if (s != (CUpti_SubscriberHandle)&sub || d != CUPTI_CB_DOMAIN_DRIVER_API)
        return CUPTI_ERROR_INVALID_PARAMETER;
    lock();
    memset(sub.enabled, on != 0, sizeof sub.enabled);
    unlock();
    return CUPTI_SUCCESS;
}

EXPORT CUptiResult cuptiGetCallbackName(CUpti_CallbackDomain d, uint32_t id, const char **name)
{
    if (!name)
        return CUPTI_ERROR_INVALID_PARAMETER;
    for (size_t i = 0; d == CUPTI_CB_DOMAIN_DRIVER_API && i < sizeof names / sizeof names[0]; i++)
        if (names[i].id == id) {
            *name = names[i].name;
            return CUPTI_SUCCESS;
        }
    *name = NULL;
    return CUPTI_ERROR_INVALID_PARAMETER;
}

EXPORT CUptiResult cuptiActivityRegisterCallbacks(CUpti_BuffersCallbackRequestFunc req,
                                                  CUpti_BuffersCallbackCompleteFunc done)
{
    if (!req || !done)
        return CUPTI_ERROR_INVALID_PARAMETER;
    lock();
    want_buffer = req, give_buffer = done;
    unlock();
    return CUPTI_SUCCESS;
}

static CUptiResult set_kind(CUpti_ActivityKind kind, int on)
{
    if (kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL && kind != CUPTI_ACTIVITY_KIND_MEMCPY &&
        kind != CUPTI_ACTIVITY_KIND_MEMSET)
        return CUPTI_ERROR_NOT_SUPPORTED;
    lock();
    kind_on[kind] = on;
    unlock();
    if (on)
        attach(&tool);
    return CUPTI_SUCCESS;
}

EXPORT CUptiResult cuptiActivityEnable(CUpti_ActivityKind kind) { return set_kind(kind, 1); }
EXPORT CUptiResult cuptiActivityEnableAndDump(CUpti_ActivityKind kind) { return set_kind(kind, 1); }
EXPORT CUptiResult cuptiActivityDisable(CUpti_ActivityKind kind) { return set_kind(kind, 0); }
EXPORT CUptiResult cuptiActivityEnableContext(CUcontext ctx, CUpti_ActivityKind kind)
{
    (void)ctx;
    return set_kind(kind, 1);
}

EXPORT CUptiResult cuptiActivitySetAttribute(CUpti_ActivityAttribute attr, size_t *size, void *value)
{
    if (!size || !value)
        return CUPTI_ERROR_INVALID_PARAMETER;
    if (attr != CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER)
        return CUPTI_ERROR_NOT_SUPPORTED;
    if (*size != sizeof(uint8_t))
        return CUPTI_ERROR_INVALID_PARAMETER;
    lock();
    zeroed_out = *(const uint8_t *)value != 0;
    unlock();
    return CUPTI_SUCCESS;
}

EXPORT CUptiResult cuptiActivityFlushAll(uint32_t flags)
{
    const char *stall = getenv("SIM_CUPTI_FLUSH_STALL");
    while (stall && *stall && *stall != '0')
        pause();
    const char *delay = getenv("SIM_CUPTI_FLUSH_DELAY_MS");
    const long ms = delay ? atol(delay) : 0;
    if (ms > 0)
        nanosleep(&(struct timespec){ms / 1000, ms % 1000 * 1000000}, NULL);
    flush((flags & CUPTI_ACTIVITY_FLAG_FLUSH_FORCED) != 0);
    return CUPTI_SUCCESS;
}

EXPORT CUptiResult cuptiActivityGetNextRecord(uint8_t *buf, size_t valid, CUpti_Activity **rec)
{
    if (!buf || !rec)
        return CUPTI_ERROR_INVALID_PARAMETER;
    size_t off = 0;
    if (*rec) {
        const CUpti_Activity *r = *rec;
        off = (size_t)((const uint8_t *)r - buf) + (r->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL
                                                        ? sizeof(CUpti_ActivityKernel10)
                                                    : r->kind == CUPTI_ACTIVITY_KIND_MEMCPY ? sizeof(CUpti_ActivityMemcpy6)
                                                                                            : sizeof(CUpti_ActivityMemset4));
    }
    if (off >= valid)
        return CUPTI_ERROR_MAX_LIMIT_REACHED;
    *rec = (CUpti_Activity *)(buf + off);
    return CUPTI_SUCCESS;
}

EXPORT CUptiResult cuptiActivityGetNumDroppedRecords(CUcontext ctx, uint32_t stream, size_t *n)
{
    (void)ctx, (void)stream;
    if (!n)
        return CUPTI_ERROR_INVALID_PARAMETER;
    lock();
    *n = dropped;
    dropped = 0;
    unlock();
    return CUPTI_SUCCESS;
}

EXPORT CUptiResult cuptiFinalize(void)
{
    flush(1);
    lock();
    memset(kind_on, 0, sizeof kind_on);
    zeroed_out = 0;
    sub.live = 0;
    want_buffer = NULL, give_buffer = NULL;
    unlock();
    attach(NULL);
    return CUPTI_SUCCESS;
}
