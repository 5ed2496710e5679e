/* GPU time from CUPTI's activity records (doc/gpu-time.md): every kernel, copy and set the device ran, with
 * the GPU's own start and end.  CONCURRENT_KERNEL, MEMCPY and MEMSET activity is on from start to exit, but
 * outside capture ranges and once the program takes CUPTI.
 *
 * A record names the API call that made it by CUPTI's correlation id.  The tracer learns a call's id from a
 * CUPTI callback enabled on the driver functions that make GPU work only (launches, copies, sets): at the
 * call's exit it leaves the id in a thread-local, which the trampoline reads once the call has returned and
 * files, with the call's thread and sequence number, in a table indexed by the id (links below).  The writer's
 * collector reads CUPTI's completed buffers, finds each record's call there, and queues its span: a graph
 * launch's records share its id, so each of its kernels becomes a span of that call.  A record whose call is
 * not found (the call was made untraced, or its record was lost) is written all the same, marked
 * CT_GPU_SPAN_NO_CALL.  Records carry CUPTI's clock (CLOCK_REALTIME on Linux), mapped to the trace's
 * CLOCK_MONOTONIC by pairs of readings of both taken at each collection (clock_map below).
 *
 * The program's own use of CUPTI (torch.profiler, Kineto, ...) takes precedence: the interposition layer
 * sees its first CUPTI call, and ct_gpu_activity_yield hands CUPTI over before that call goes on. */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "format/record.h"
#include "gputime/activity.h"
#include "gputime/cupti.h"
#include "gputime/backend.h"
#include "recorder/clock.h"
#include "recorder/gpu.h"
#include "recorder/intern.h"
#include "recorder/rings.h"
#include "recorder/alloc.h"

#define BUFFER_BYTES (2u << 20) /* one activity buffer, our header included: about 9,700 kernel records */
#define BUFFERS_MAX 32u         /* buffers CUPTI may hold or we may not have read yet: 64 MiB */

enum { IDLE, RUNNING, YIELDED };
static _Atomic int state = IDLE;
static pid_t owner; /* the process that started CUPTI; a forked child never touches it */
static struct ct_cupti cupti;
static CUpti_SubscriberHandle subscriber;
static const CUpti_ActivityKind kinds[] = {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
                                           CUPTI_ACTIVITY_KIND_MEMSET};

/* ---- links: correlation id -> call ---- */

/* Filed by the calling thread after its call, read by the collector: corr last, so that a reader that sees
 * the id sees the rest (and reads the id again after, for a slot refiled meanwhile by id + LINKS).  Release
 * stores and acquire loads, not fences, which ThreadSanitizer cannot follow. */
struct link {
    _Atomic uint32_t corr;
    _Atomic uint32_t tid;
    _Atomic uint64_t seq;
    _Atomic uint64_t stream;
    _Atomic uint32_t api;
    _Atomic uint32_t seen; /* the collector found a record of it */
};
/* Ids in flight: more than the kernel records our buffers hold (BUFFERS_MAX of BUFFER_BYTES: about 310,000 of
 * 216 bytes), so a launch's slot is not filed again before its record is read however far the writer falls
 * behind.  Copy and set records are smaller: a backlog of over 524,288 of those can lose links. */
#define LINKS (1u << 19)
static struct link *links;

static void link_put(uint32_t corr, uint32_t tid, uint64_t seq, uint64_t stream, uint16_t api)
{
    struct link *l = &links[corr & (LINKS - 1)];
    /* Each release store keeps the corr = 0 before it ahead of it. */
    atomic_store_explicit(&l->corr, 0, memory_order_relaxed);
    atomic_store_explicit(&l->tid, tid, memory_order_release);
    atomic_store_explicit(&l->seq, seq, memory_order_release);
    atomic_store_explicit(&l->stream, stream, memory_order_release);
    atomic_store_explicit(&l->api, api, memory_order_release);
    atomic_store_explicit(&l->seen, 0, memory_order_release);
    atomic_store_explicit(&l->corr, corr, memory_order_release);
}

/* The call of id corr into the span: 1, or 0 (the span untouched) when none is filed. */
static int link_get(uint32_t corr, struct ct_rec_gpu *g)
{
    struct link *l = &links[corr & (LINKS - 1)];
    if (corr == 0 || atomic_load_explicit(&l->corr, memory_order_acquire) != corr)
        return 0;
    /* Acquire loads: the second look at corr cannot be made before them. */
    const uint32_t tid = atomic_load_explicit(&l->tid, memory_order_acquire);
    const uint64_t seq = atomic_load_explicit(&l->seq, memory_order_acquire);
    const uint64_t stream = atomic_load_explicit(&l->stream, memory_order_acquire);
    const uint16_t api = (uint16_t)atomic_load_explicit(&l->api, memory_order_acquire);
    if (atomic_load_explicit(&l->corr, memory_order_relaxed) != corr)
        return 0; /* filed again meanwhile: what was read may be the newer call's */
    g->h.tid = tid;
    g->seq = seq;
    g->stream = stream;
    g->api_id = api;
    atomic_store_explicit(&l->seen, 1, memory_order_relaxed);
    return 1;
}

/* Calls filed whose records no collection has found: what a death before the last collection loses, counted
 * by calls (a graph launch's kernels once; a call whose record CUPTI dropped, counted dropped too, stays
 * here). */
static uint64_t pending(void)
{
    uint64_t n = 0;
    for (unsigned i = 0; links && atomic_load(&state) == RUNNING && owner == getpid() && i < LINKS; i++)
        n += atomic_load_explicit(&links[i].corr, memory_order_relaxed) != 0 &&
             !atomic_load_explicit(&links[i].seen, memory_order_relaxed);
    return n;
}

/* ---- the program's threads ---- */

/* The correlation id of the calling thread's last call that makes GPU work (CUPTI's callback sets it). */
static __thread uint32_t last_corr __attribute__((tls_model("initial-exec")));

/* The thread's calls being timed.  A signal handler that interrupts a call (inside the driver, where the
 * tracer's guard is not held) may make timed calls of its own: they nest, each with its own frame, and each
 * gives back at its end the last_corr it found, which the call it interrupted may already have been given. */
struct act_call {
    struct ct_gpu_call call;
    uint64_t stream;
    uint64_t seq_mark;   /* the thread's next sequence number before the call: did its record get one? */
    uint32_t outer_corr; /* last_corr when the call began */
    uint16_t api;
};
#define NEST 4u
static __thread struct act_call frames[NEST] __attribute__((tls_model("initial-exec")));
static __thread unsigned depth __attribute__((tls_model("initial-exec")));

static void CUPTIAPI on_api(void *data, CUpti_CallbackDomain domain, CUpti_CallbackId id, const void *info)
{
    const CUpti_CallbackData *cb = info;
    (void)data, (void)domain, (void)id;
    /* Not a call made inside the tracer: by a signal handler that interrupted it between a timed call's
     * return and its end (that call is untraced, and must not take the interrupted call's id). */
    if (cb->callbackSite == CUPTI_API_EXIT && !ct_gpu_in_tracer())
        last_corr = cb->correlationId;
}

extern const struct ct_gpu_backend ct_gpu_activity;

static struct ct_gpu_call *begin(uint16_t api_id, CUstream stream, int pick)
{
    struct ct_ring *ring = ct_rec_ring;

    (void)pick; /* every call: CUPTI records them all anyway */
    ct_gpu_first_use();
    if (depth >= NEST)
        depth = 0; /* frames of calls a handler jumped out of (longjmp): they never end */
    struct act_call *a = &frames[depth++];
    a->outer_corr = last_corr;
    last_corr = 0;
    a->call.backend = &ct_gpu_activity;
    a->stream = (uint64_t)(uintptr_t)stream;
    a->api = api_id;
    a->seq_mark = ring ? ring->seq_next : 0;
    return &a->call;
}

static void returned(struct ct_gpu_call *c) { (void)c; }

/* A call's frame given back: the thread's depth is the frame's own (a frame above it was left by a jump),
 * and last_corr what the call found. */
static void pop(const struct act_call *a)
{
    depth = (unsigned)(a - frames);
    last_corr = a->outer_corr;
}

/* The call returned r; its record, if kept, is committed: file its id. */
static void end(struct ct_gpu_call *c, CUresult r)
{
    const struct act_call *a = (const struct act_call *)c;
    struct ct_ring *ring = ct_rec_ring;
    const uint32_t corr = last_corr;

    if (r == CUDA_SUCCESS && corr && ring && ring->seq_next != a->seq_mark && links)
        link_put(corr, ring->tid, ring->seq_next - 1, a->stream, a->api);
    pop(a);
}

static void end_launch(struct ct_gpu_call *c, CUresult r, const struct ct_pl_launch *pl)
{
    (void)pl; /* the record says what ran: a graph launch runs many kernels */
    end(c, r);
}

static void end_copy(struct ct_gpu_call *c, CUresult r, const struct ct_pl_copy *pl)
{
    (void)pl;
    end(c, r);
}

static void drop(struct ct_gpu_call *c) { pop((const struct act_call *)c); }

/* ---- CUPTI's buffers ---- */

/* CUPTI wants its buffers zeroed.  Left to itself it zeroes each one on the program's thread that asks for
 * it, where a new buffer's pages also fault in: on a training loop that cost more than all the rest of
 * GPU time (doc/gpu-time.md, "What it costs").  So buffers are kept and given again: the collector zeroes
 * what CUPTI wrote of one once it has read it, CUPTI is told that buffers come zeroed
 * (CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER), and the collector keeps a few ready, so the program's
 * threads take a buffer without allocating or touching it.  Each buffer starts with our header, the
 * completed list's link, and CUPTI gets what follows it: CUPTI's callback allocates nothing and cannot fail. */
struct buffer {
    struct buffer *next;
    size_t valid;
};
#define HEAD 64u /* the header's room: CUPTI's part stays aligned */
static uint8_t *data_of(struct buffer *b) { return (uint8_t *)b + HEAD; }
static struct buffer *buffer_of(uint8_t *data) { return (struct buffer *)(void *)(data - HEAD); }
#define SPARE_MAX 8u  /* kept ready at most: 16 MiB */
#define SPARE_MIN 4u  /* the collector tops the spares up to this many */
static pthread_mutex_t buffers_mu = PTHREAD_MUTEX_INITIALIZER; /* the lists, `out` and the spares */
static struct buffer *completed, **completed_tail = &completed;
static unsigned out; /* buffers handed to CUPTI or completed and not read yet */
static struct buffer *spare[SPARE_MAX];
static unsigned nspare;
static int zeroed_by_us; /* CUPTI took the attribute: it no longer zeroes buffers itself */

/* A buffer of zeros whose pages are in (written here, not by CUPTI on a program's thread); NULL when out of
 * memory. */
static struct buffer *new_buffer(void)
{
    struct buffer *b = ct_aligned_alloc(HEAD, BUFFER_BYTES);
    if (b)
        memset(b, 0, BUFFER_BYTES);
    return b;
}

/* A buffer read: zero what CUPTI wrote (the rest is still zero) and keep it, or free it when enough are
 * kept or CUPTI is no longer ours; 1 when kept. */
static int recycle(struct buffer *b, size_t valid)
{
    if (zeroed_by_us)
        memset(data_of(b), 0, valid < BUFFER_BYTES - HEAD ? valid : BUFFER_BYTES - HEAD);
    pthread_mutex_lock(&buffers_mu);
    const int kept = nspare < SPARE_MAX && atomic_load(&state) == RUNNING;
    if (kept)
        spare[nspare++] = b;
    pthread_mutex_unlock(&buffers_mu);
    if (!kept)
        ct_free(b);
    return kept;
}

/* Spares up to SPARE_MIN, within BUFFERS_MAX in all, while CUPTI is ours: a hand-over during a collection
 * frees the spares (free_spares), and a buffer made then is not kept. */
static void top_up(void)
{
    for (;;) {
        pthread_mutex_lock(&buffers_mu);
        const int want = nspare < SPARE_MIN && out + nspare < BUFFERS_MAX;
        pthread_mutex_unlock(&buffers_mu);
        struct buffer *b = want ? new_buffer() : NULL;
        if (!b || !recycle(b, 0))
            return;
    }
}

/* The spares freed: CUPTI is no longer ours, or never was. */
static void free_spares(void)
{
    struct buffer *v[SPARE_MAX];
    pthread_mutex_lock(&buffers_mu);
    const unsigned n = nspare;
    memcpy(v, spare, n * sizeof v[0]);
    nspare = 0;
    pthread_mutex_unlock(&buffers_mu);
    for (unsigned i = 0; i < n; i++)
        ct_free(v[i]);
}

static void CUPTIAPI requested(uint8_t **buf, size_t *size, size_t *max)
{
    *buf = NULL;
    *size = 0;
    *max = 0;
    if (atomic_load(&state) != RUNNING)
        return; /* CUPTI is the program's now: its records are not ours to take */
    pthread_mutex_lock(&buffers_mu);
    const int room = out < BUFFERS_MAX;
    out += room;
    struct buffer *b = room && nspare ? spare[--nspare] : NULL;
    pthread_mutex_unlock(&buffers_mu);
    if (room && !b)
        b = new_buffer(); /* none ready: the program's thread pays for this one */
    if (!b) {
        if (room) {
            pthread_mutex_lock(&buffers_mu);
            out--;
            pthread_mutex_unlock(&buffers_mu);
        }
        return; /* CUPTI drops the records, and counts them: dropped below */
    }
    *buf = data_of(b);
    *size = BUFFER_BYTES - HEAD;
}

static void CUPTIAPI done(CUcontext ctx, uint32_t stream, uint8_t *buf, size_t size, size_t valid)
{
    size_t lost = 0;

    (void)size;
    /* Asked outside our lock: CUPTI holds its own around this callback. */
    if (cupti.dropped(ctx, stream, &lost) == CUPTI_SUCCESS && lost)
        atomic_fetch_add(&ct_gpu_counts.dropped, lost);
    if (!buf)
        return;
    struct buffer *b = buffer_of(buf);
    b->next = NULL;
    b->valid = valid;
    pthread_mutex_lock(&buffers_mu);
    *completed_tail = b;
    completed_tail = &b->next;
    pthread_mutex_unlock(&buffers_mu);
}

/* ---- CUPTI's clock to the trace's ---- */

/* Pairs (CUPTI's time, CLOCK_MONOTONIC) read together, one per collection: a record's time is mapped by the
 * newest pair read before it (CLOCK_REALTIME and CLOCK_MONOTONIC part only when the host clock is stepped
 * or slewed). */
#define PAIRS 64u
static struct {
    uint64_t cupti, mono, window;
} pairs[PAIRS];
static unsigned npairs; /* pairs read so far (the collector's) */

static void read_pair(void)
{
    uint64_t c = 0, m0 = ct_now_ns();
    struct timespec ts;
    /* CUPTI's clock is CLOCK_REALTIME on Linux: read there when CUPTI cannot say, rather than have no pair
     * (to_trace would then take CUPTI's times for the trace's). */
    if ((cupti.timestamp(&c) != CUPTI_SUCCESS || !c) && clock_gettime(CLOCK_REALTIME, &ts) == 0)
        c = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
    if (!c)
        return;
    uint64_t m1 = ct_now_ns();
    unsigned i = npairs++ % PAIRS;
    pairs[i].cupti = c;
    pairs[i].mono = m0 + (m1 - m0) / 2;
    pairs[i].window = m1 - m0;
}

static uint64_t to_trace(uint64_t t)
{
    const unsigned n = npairs < PAIRS ? npairs : PAIRS, newest = (npairs - 1) % PAIRS;
    unsigned best = (npairs - n) % PAIRS; /* the oldest kept: records older than it use it */
    for (unsigned k = 0; k < n; k++) {
        unsigned i = (newest + PAIRS - k) % PAIRS;
        if (pairs[i].cupti <= t) {
            best = i;
            break;
        }
    }
    const int64_t mono = (int64_t)t - (int64_t)pairs[best].cupti + (int64_t)pairs[best].mono;
    return mono > 0 ? (uint64_t)mono : 0;
}

/* ---- records into spans ---- */

static uint16_t mem_kind(unsigned k)
{
    switch (k) {
    case CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE: return CT_MEM_HOST;
    case CUPTI_ACTIVITY_MEMORY_KIND_PINNED: return CT_MEM_PINNED;
    case CUPTI_ACTIVITY_MEMORY_KIND_DEVICE:
    case CUPTI_ACTIVITY_MEMORY_KIND_DEVICE_STATIC: return CT_MEM_DEVICE;
    case CUPTI_ACTIVITY_MEMORY_KIND_ARRAY: return CT_MEM_ARRAY;
    case CUPTI_ACTIVITY_MEMORY_KIND_MANAGED:
    case CUPTI_ACTIVITY_MEMORY_KIND_MANAGED_STATIC: return CT_MEM_MANAGED;
    default: return CT_MEM_UNKNOWN;
    }
}

/* Records whose call was not filed yet when they were read: a call's id is filed just after it returns, and
 * its record can complete sooner than that; a thread taken off its CPU between the two files it later still.
 * They wait until a later collection at least LATE_NS after the first that read them, or the last. */
#define LATE_NS 1000000000ull
struct late {
    struct ct_rec_gpu g;
    uint64_t since; /* when it was first read */
};
static struct late *later;
static size_t nlater, later_room;

static void keep_for_later(const struct ct_rec_gpu *g, uint64_t since)
{
    if (nlater == later_room) {
        size_t n = later_room ? 2 * later_room : 64;
        struct late *v = ct_realloc(later, n * sizeof *v);
        if (!v) {
            atomic_fetch_add(&ct_gpu_counts.not_completed, 1);
            return;
        }
        later = v;
        later_room = n;
    }
    later[nlater++] = (struct late){*g, since};
}

/* Spans linked and ready, queued together at the end of each collection (or when the batch is full): one
 * lock of the recorder's queue per batch instead of per record. */
#define BATCH 256u
static struct ct_rec_gpu batch[BATCH];
static unsigned nbatch, nbatch_no_call;

static void flush(void)
{
    if (nbatch && ct_gpu_queue_many(batch, nbatch) == 0)
        atomic_fetch_add(&ct_gpu_counts.no_call, nbatch_no_call);
    nbatch = nbatch_no_call = 0;
}

static void queue_span(const struct ct_rec_gpu *g)
{
    batch[nbatch++] = *g;
    nbatch_no_call += (g->flags & CT_GPU_SPAN_NO_CALL) != 0;
    if (nbatch == BATCH)
        flush();
}

/* A span ready but for its call: linked and queued (1), or when `give_up` queued without a call (1), else left
 * as it was to wait (0). */
static int place(struct ct_rec_gpu *g, uint32_t corr, int give_up)
{
    if (link_get(corr, g)) {
        queue_span(g);
        return 1;
    }
    if (!give_up)
        return 0;
    g->h.tid = 0;
    g->seq = 0;
    g->api_id = 0;
    g->flags |= CT_GPU_SPAN_NO_CALL;
    queue_span(g);
    return 1;
}

/* A record just read: placed, or kept for later with its id (in seq until it is found). */
static void place_new(struct ct_rec_gpu *g, uint32_t corr, int last, uint64_t now)
{
    if (!place(g, corr, last)) {
        g->seq = corr;
        keep_for_later(g, now);
    }
}

/* A kernel's name id.  CUPTI gives every record of a kernel the same name pointer: a table by pointer, each
 * entry holding its own copy of the name (a pointer freed and reused for another name is not believed),
 * spares the intern table's hash and lock on all but a kernel's first record. */
#define NAMES 1024u
static struct {
    const char *ptr;
    char *copy;
    uint32_t id;
} names[NAMES];

static uint32_t name_id(const char *name)
{
    if (!name)
        return 0;
    const size_t i = ((uintptr_t)name >> 3) * 0x9E3779B97F4A7C15ull >> 54; /* 10 bits: NAMES */
    if (names[i].ptr == name && strcmp(names[i].copy, name) == 0)
        return names[i].id;
    const uint32_t id = ct_intern(CT_STR_KERNEL, name, 0);
    char *copy = id ? ct_strdup(name) : NULL;
    if (copy) {
        ct_free(names[i].copy);
        names[i].ptr = name;
        names[i].copy = copy;
        names[i].id = id;
    }
    return id;
}

/* The span of a record's times, device and stream; 0 when its times are not usable (counted). */
static int span_init(struct ct_rec_gpu *g, uint8_t family, uint64_t start, uint64_t end, uint32_t device,
                     uint32_t stream, uint32_t graph)
{
    if (start == 0 || end < start) { /* CUPTI had no timestamps for it (no device memory for them) */
        atomic_fetch_add(&ct_gpu_counts.not_completed, 1);
        return 0;
    }
    memset(g, 0, sizeof *g);
    ct_put_hdr(&g->h, CT_REC_GPU, sizeof *g, 0);
    g->start_ns = to_trace(start);
    g->end_ns = g->start_ns + (end - start);
    g->device = (int32_t)device;
    g->stream = stream; /* replaced by the call's stream once linked */
    g->family = family;
    g->flags = CT_GPU_SPAN_ACTIVITY | (graph ? CT_GPU_SPAN_GRAPH : 0);
    return 1;
}

static void record(const CUpti_Activity *r, int last, uint64_t now)
{
    struct ct_rec_gpu g;

    switch (r->kind) {
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
        const CUpti_ActivityKernel10 *k = (const void *)r;
        if (!span_init(&g, CT_FAM_LAUNCH, k->start, k->end, k->deviceId, k->streamId, k->graphId))
            return;
        g.name_id = name_id(k->name);
        g.launch_kind = k->launchType == CUPTI_ACTIVITY_LAUNCH_TYPE_REGULAR ? CT_LAUNCH_KERNEL : CT_LAUNCH_COOPERATIVE;
        g.grid[0] = (uint32_t)k->gridX, g.grid[1] = (uint32_t)k->gridY, g.grid[2] = (uint32_t)k->gridZ;
        g.block[0] = (uint32_t)k->blockX, g.block[1] = (uint32_t)k->blockY, g.block[2] = (uint32_t)k->blockZ;
        place_new(&g, k->correlationId, last, now);
        return;
    }
    case CUPTI_ACTIVITY_KIND_MEMCPY: {
        const CUpti_ActivityMemcpy6 *m = (const void *)r;
        if (!span_init(&g, CT_FAM_COPY, m->start, m->end, m->deviceId, m->streamId, m->graphId))
            return;
        g.bytes = m->bytes;
        g.copy_flags = (m->flags & CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC ? CT_COPY_ASYNC : 0) |
                       (m->copyKind == CUPTI_ACTIVITY_MEMCPY_KIND_PTOP ? CT_COPY_PEER : 0) |
                       (m->copyCount > 1 ? CT_COPY_BATCH : 0);
        g.src_kind = mem_kind(m->srcKind);
        g.dst_kind = mem_kind(m->dstKind);
        place_new(&g, m->correlationId, last, now);
        return;
    }
    case CUPTI_ACTIVITY_KIND_MEMSET: {
        const CUpti_ActivityMemset4 *s = (const void *)r;
        if (!span_init(&g, CT_FAM_COPY, s->start, s->end, s->deviceId, s->streamId, s->graphId))
            return;
        g.bytes = s->bytes;
        g.copy_flags = CT_COPY_SET | (s->flags & CUPTI_ACTIVITY_FLAG_MEMSET_ASYNC ? CT_COPY_ASYNC : 0);
        g.dst_kind = mem_kind(s->memoryKind);
        place_new(&g, s->correlationId, last, now);
        return;
    }
    default:
        return;
    }
}

/* ---- the backend ---- */

/* The driver functions whose calls' correlation ids the callback keeps. */
#define MAX_CBIDS 256u
static CUpti_CallbackId cbids[MAX_CBIDS];
static unsigned ncbids;

/* Turn the callbacks of those functions on or off; how many CUPTI took. */
static unsigned set_timing(int on)
{
    unsigned n = 0;
    for (unsigned i = 0; i < ncbids; i++)
        n += cupti.enable_callback(on ? 1 : 0, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, cbids[i]) == CUPTI_SUCCESS;
    return n;
}

/* Outside capture ranges (CUDATRACE_CAPTURE) no call is timed: CUPTI's kinds and callback go off, and its
 * records of work launched before come back at the next collection.  What disabling gives back of CUPTI's cost
 * is doc/gpu-time.md's ("What it costs"). */
static pthread_mutex_t capture_mu = PTHREAD_MUTEX_INITIALIZER;
static int paused;

static void capture(int on)
{
    pthread_mutex_lock(&capture_mu);
    if (atomic_load(&state) == RUNNING && paused == on) {
        for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
            on ? cupti.enable(kinds[i]) : cupti.disable(kinds[i]);
        set_timing(on);
        paused = !on;
    }
    pthread_mutex_unlock(&capture_mu);
}

/* Tell CUPTI whether the buffers it is given come zeroed (CUPTI's default: no, it zeroes them); 1 when it
 * took the setting. */
static int set_zeroed(uint8_t on)
{
    size_t len = sizeof on;
    return cupti.set_attribute &&
           cupti.set_attribute(CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER, &len, &on) == CUPTI_SUCCESS;
}

static int start(const char *path, char *why, size_t size)
{
    const char *inj = getenv("CUDA_INJECTION64_PATH");
    CUptiResult r;

    if (owner && owner != getpid()) {
        snprintf(why, size, "this forked child's CUPTI is its parent's");
        return CT_GPU_WHY_CHILD;
    }
    /* A tool loaded by the driver (nsys, ncu, a program's own collector) owns CUPTI: Kineto's rule. */
    if (inj && *inj && strcmp(inj, "none") != 0) {
        snprintf(why, size, "CUDA_INJECTION64_PATH names %.200s, which uses CUPTI", inj);
        return CT_GPU_WHY_CUPTI_BUSY;
    }
    if (ct_cupti_load(&cupti, path, why, size) < 0)
        return CT_GPU_WHY_NO_CUPTI;
    if (!links && !(links = ct_calloc(LINKS, sizeof *links))) {
        snprintf(why, size, "out of memory");
        return CT_GPU_WHY_CUPTI_ERROR;
    }
    if ((r = cupti.subscribe(&subscriber, on_api, NULL)) != CUPTI_SUCCESS) {
        const int busy = r == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED || r == CUPTI_ERROR_MAX_LIMIT_REACHED;
        snprintf(why, size, "CUPTI %s (%s)", busy ? "is in use by another tool or by the program" : "refused a subscriber",
                 ct_cupti_error(&cupti, r));
        return busy ? CT_GPU_WHY_CUPTI_BUSY : CT_GPU_WHY_CUPTI_ERROR;
    }
    /* The callback on the functions that make GPU work, and no other: CUPTI calls it for those alone. */
    for (CUpti_CallbackId id = 1; id < CUPTI_DRIVER_TRACE_CBID_SIZE && ncbids < MAX_CBIDS; id++) {
        const char *name = NULL;
        if (cupti.callback_name(CUPTI_CB_DOMAIN_DRIVER_API, id, &name) == CUPTI_SUCCESS && name &&
            ct_gpu_makes_work(name))
            cbids[ncbids++] = id;
    }
    const unsigned enabled = set_timing(1);
    zeroed_by_us = set_zeroed(1);
    r = enabled ? cupti.register_callbacks(requested, done) : CUPTI_ERROR_UNKNOWN;
    atomic_store(&state, RUNNING); /* before the kinds: their first buffer requests come at once */
    top_up();
    for (size_t i = 0; r == CUPTI_SUCCESS && i < sizeof kinds / sizeof kinds[0]; i++)
        r = cupti.enable(kinds[i]);
    if (r != CUPTI_SUCCESS) {
        atomic_store(&state, IDLE);
        set_zeroed(0);
        for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
            cupti.disable(kinds[i]);
        cupti.unsubscribe(subscriber);
        free_spares();
        snprintf(why, size, "CUPTI refused activity tracing (%s)",
                 enabled ? ct_cupti_error(&cupti, r) : "no driver function to correlate");
        return CT_GPU_WHY_CUPTI_ERROR;
    }
    owner = getpid();
    read_pair();
    return 0;
}

void ct_gpu_activity_yield(void)
{
    /* Under capture_mu: a capture range opening meanwhile does not turn our kinds on again, and a second
     * thread's first CUPTI call waits here until CUPTI is the program's. */
    pthread_mutex_lock(&capture_mu);
    if (atomic_load(&state) != RUNNING || owner != getpid()) {
        pthread_mutex_unlock(&capture_mu);
        return;
    }
    /* What CUPTI holds of ours comes back to `done` (buffers are still given while RUNNING), is read by the
     * next collection, and CUPTI is left to the program as it was before the tracer subscribed. */
    cupti.flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    atomic_store(&state, YIELDED);
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        cupti.disable(kinds[i]);
    set_zeroed(0); /* the program's buffers are zeroed by CUPTI again, as it expects */
    cupti.unsubscribe(subscriber);
    free_spares(); /* what CUPTI gave back is read, then freed, by the next collection (recycle) */
    pthread_mutex_unlock(&capture_mu);
}

/* A forked child's CUPTI is its parent's (owner): it is never running there. */
int ct_gpu_activity_running(void) { return atomic_load(&state) == RUNNING && owner == getpid(); }

static void collect(int final)
{
    const int st = atomic_load(&state);
    struct buffer *list, *next;

    if (st == IDLE || owner != getpid())
        return;
    if (st == RUNNING) {
        size_t lost = 0;
        cupti.flush_all(final ? CUPTI_ACTIVITY_FLAG_FLUSH_FORCED : 0);
        /* Dropped when no buffer was to be had: no buffer comes back to `done` to say so. */
        if (cupti.dropped(NULL, 0, &lost) == CUPTI_SUCCESS && lost)
            atomic_fetch_add(&ct_gpu_counts.dropped, lost);
    }
    read_pair();
    pthread_mutex_lock(&buffers_mu);
    list = completed;
    completed = NULL;
    completed_tail = &completed;
    pthread_mutex_unlock(&buffers_mu);

    /* Those kept from earlier collections first: linked now, kept again, or given up (place). */
    /* in place, the array kept: records of calls never to be filed (a variant CUDATRACE_APIS leaves out) can
     * be many, waiting LATE_NS each */
    const uint64_t now = ct_now_ns();
    size_t keep = 0;
    for (size_t i = 0; i < nlater; i++)
        if (!place(&later[i].g, (uint32_t)later[i].g.seq, final || now - later[i].since >= LATE_NS))
            later[keep++] = later[i];
    nlater = keep;
    unsigned nbuf = 0;
    for (; list; list = next, nbuf++) {
        next = list->next;
        CUpti_Activity *r = NULL;
        while (cupti.next_record(data_of(list), list->valid, &r) == CUPTI_SUCCESS)
            record(r, final, now);
        recycle(list, list->valid);
    }
    flush();
    pthread_mutex_lock(&buffers_mu);
    out -= nbuf < out ? nbuf : out;
    pthread_mutex_unlock(&buffers_mu);
    if (st == RUNNING && !final)
        top_up();
}

/* CUPTI hands back a destroyed context's records itself (done); nothing of ours names a context. */
static void ctx_closing(CUcontext ctx) { (void)ctx; }
static void ctx_closed(CUcontext ctx, int gone) { (void)ctx, (void)gone; }

/* CUPTI and its buffers are the parent's: the child never touches them (owner). */
static void fork_child(void)
{
    pthread_mutex_init(&buffers_mu, NULL);
    pthread_mutex_init(&capture_mu, NULL);
    completed = NULL;
    completed_tail = &completed;
    out = 0;
    nspare = 0;
    later = NULL;
    nlater = later_room = 0;
}

const struct ct_gpu_backend ct_gpu_activity = {
    .name = "activity",
    .start = start,
    .begin = begin,
    .returned = returned,
    .end_launch = end_launch,
    .end_copy = end_copy,
    .drop = drop,
    .collect = collect,
    .pending = pending,
    .ctx_closing = ctx_closing,
    .ctx_closed = ctx_closed,
    .capture = capture,
    .fork_child = fork_child,
};
