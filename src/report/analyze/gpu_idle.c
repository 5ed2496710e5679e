/* The rules that need the GPU's own timeline: idle gaps per device, launch-bound windows, and the ranks'
 * busy and collective time.
 *
 * Calls come in host time order, their GPU spans not in GPU time order (streams overlap, work queues
 * behind other work).  But work cannot start before the call that submitted it, so once the merge reaches
 * host time T no span still to come starts before T: each device keeps its spans in a heap by start until
 * then, and sweeps them in start order, uniting them into busy time and measuring the gaps between.  The
 * heap holds the work in flight, not the run, but for the spans of work no call of the trace made (CUPTI's
 * records whose call was not traced): they have no call to come with, so all of a file's go in at its first
 * call (push_no_call) and wait there for their start.  Only files whose every call was timed
 * (CUDATRACE_GPU_TIME all, or CUPTI's activity records) take part: a sampled timeline has gaps where untimed
 * work ran. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "format/grow.h"
#include "report/analyze/rules.h"

#define MAX_WINDOWS 1024

void rp_an_gpu_init(struct rp_an_file *af, const struct rp_file *f, uint64_t run, uint64_t window_ns)
{
    af->timed_all = f->has_gpu_info && f->gpu_info.mode == CT_GPU_ALL;
    run = run ? run : 1;
    af->win_ns = window_ns ? window_ns : 1;
    if (run / af->win_ns >= MAX_WINDOWS)
        af->win_ns = run / MAX_WINDOWS + 1;
    af->nwin = run / af->win_ns + 1;
}

static struct rp_an_window *window(struct rp_an *a, size_t file, int64_t t)
{
    struct rp_an_file *af = &a->files[file];
    if (!af->win && !(af->win = calloc(af->nwin, sizeof *af->win))) {
        a->oom = 1;
        return NULL;
    }
    int64_t rel = t - af->start;
    uint64_t w = rel < 0 ? 0 : (uint64_t)rel / af->win_ns;
    return &af->win[w < af->nwin ? w : af->nwin - 1];
}

/* Busy time [t0, t1) into the windows it covers. */
static void busy_windows(struct rp_an *a, size_t file, int64_t t0, int64_t t1)
{
    while (t0 < t1) {
        struct rp_an_window *w = window(a, file, t0);
        if (!w)
            return;
        const struct rp_an_file *af = &a->files[file];
        int64_t rel = t0 - af->start;
        int64_t end = rel < 0 ? t1 : af->start + (int64_t)(((uint64_t)rel / af->win_ns + 1) * af->win_ns);
        if (end > t1 || w == &af->win[af->nwin - 1])
            end = t1;
        w->busy_ns += (uint64_t)(end - t0);
        t0 = end;
    }
}

static struct rp_an_device *device(struct rp_an *a, size_t file, int32_t dev)
{
    uint64_t k2 = (uint64_t)(uint32_t)(dev + 1);
    struct rp_u64map_entry *e = rp_u64map_get(&a->dev_of, file, k2);
    if (e)
        return &a->devs[e->v1];
    struct rp_an_device *v = ct_grow(a->devs, &a->cdevs, a->ndevs + 1, sizeof *v);
    if (!v)
        return NULL;
    a->devs = v;
    struct rp_an_file *af = &a->files[file];
    size_t *of = ct_grow(af->devs, &af->cdevs, af->ndevs + 1, sizeof *of);
    if (!of)
        return NULL;
    af->devs = of;
    if (!rp_u64map_put(&a->dev_of, file, k2, a->ndevs, 0))
        return NULL;
    af->devs[af->ndevs++] = a->ndevs;
    struct rp_an_device *d = &a->devs[a->ndevs++];
    memset(d, 0, sizeof *d);
    d->file = file;
    d->device = dev;
    return d;
}

static void heap_push(struct rp_an_device *d, const struct rp_an_pending *p)
{
    size_t i = d->nheap++;
    while (i) {
        size_t up = (i - 1) / 2;
        if (d->heap[up].t0 <= p->t0)
            break;
        d->heap[i] = d->heap[up];
        i = up;
    }
    d->heap[i] = *p;
}

static struct rp_an_pending heap_pop(struct rp_an_device *d)
{
    struct rp_an_pending top = d->heap[0], last = d->heap[--d->nheap];
    size_t i = 0;
    for (;;) {
        size_t l = 2 * i + 1, m = i;
        if (l < d->nheap && d->heap[l].t0 < last.t0)
            m = l;
        if (l + 1 < d->nheap && d->heap[l + 1].t0 < (m == i ? last.t0 : d->heap[m].t0))
            m = l + 1;
        if (m == i)
            break;
        d->heap[i] = d->heap[m];
        i = m;
    }
    if (d->nheap)
        d->heap[i] = last;
    return top;
}

/* A gap [t0, t1) of device d, ended by the work of p: kept among the longest. */
static void gap(struct rp_an *a, struct rp_an_device *d, int64_t t0, const struct rp_an_pending *p)
{
    int64_t len = p->t0 - t0;
    d->ngaps++;
    d->idle_ns += (uint64_t)len;
    size_t i = d->ntop < RP_AN_TOP_GAPS ? d->ntop++ : RP_AN_TOP_GAPS;
    while (i > 0 && d->top[i - 1].t1 - d->top[i - 1].t0 < len) {
        if (i < RP_AN_TOP_GAPS)
            d->top[i] = d->top[i - 1];
        i--;
    }
    if (i >= RP_AN_TOP_GAPS)
        return;
    /* work of no call has no launch time: none is said (late_ns 0) */
    d->top[i] = (struct rp_an_gap){.t0 = t0, .t1 = p->t0, .file = d->file, .device = d->device,
                                   .launch_t = p->no_call ? t0 : p->launch_t, .stack_id = p->stack_id,
                                   .tid = p->tid, .api_id = p->api_id, .no_call = p->no_call};
    (void)a;
}

/* Sweep the spans that start before `until` in start order. */
static void drain(struct rp_an *a, struct rp_an_device *d, int64_t until)
{
    while (d->nheap && d->heap[0].t0 <= until) {
        struct rp_an_pending p = heap_pop(d);
        if (!d->started) {
            d->started = 1;
            d->first = p.t0;
            d->frontier = p.t0;
        }
        if (p.t0 > d->frontier) {
            if ((uint64_t)(p.t0 - d->frontier) >= a->o->idle_gap_ns && d->frontier >= a->files[d->file].steady_t)
                gap(a, d, d->frontier, &p);
            d->frontier = p.t0;
        }
        if (p.t1 > d->frontier) {
            d->busy_ns += (uint64_t)(p.t1 - d->frontier);
            busy_windows(a, d->file, d->frontier, p.t1);
            d->frontier = p.t1;
        }
    }
}

/* A span into its device's heap, once the spans that start before host time host_t are swept (none later
 * can start before it): the device, or NULL when out of memory. */
static struct rp_an_device *push(struct rp_an *a, size_t file, int32_t dev, const struct rp_an_pending *p,
                                 int64_t host_t)
{
    struct rp_an_device *d = device(a, file, dev);
    if (!d)
        return NULL;
    drain(a, d, host_t);
    struct rp_an_pending *h = ct_grow(d->heap, &d->cheap, d->nheap + 1, sizeof *h);
    if (!h)
        return NULL;
    d->heap = h;
    heap_push(d, p);
    return d;
}

/* The spans of work no call of the file made (CUPTI's records whose call is not in the trace: made while
 * not traced, or its record lost) are the GPU's busy time all the same.  No host time orders them, so they
 * go into the heaps at the file's first call, before any sweep, and wait there for their start; a gap they
 * end has no launching call. */
static int push_no_call(struct rp_an *a, const struct rp_call *c)
{
    const int64_t off = c->file->clock_offset;
    size_t hint = 0, n = 0;
    const struct rp_gpu_span *v = rp_gpu_spans_find(&c->file->gpu, 0, &hint, &n); /* theirs: seq 0 */
    for (size_t i = 0; v && i < n; i++) {
        const struct rp_gpu_span *sp = &v[i];
        if (!(sp->flags & CT_GPU_SPAN_NO_CALL) || sp->end_ns < sp->start_ns)
            continue;
        const int64_t t0 = (int64_t)sp->start_ns + off;
        const struct rp_an_pending p = {t0, (int64_t)sp->end_ns + off, t0, 0, 0, 0, 1};
        if (!push(a, c->file_index, sp->device, &p, INT64_MIN))
            return -1;
    }
    return 0;
}

void rp_an_gpu_call(struct rp_an *a, const struct rp_call *c, const struct rp_api_entry *api, int steady)
{
    struct rp_an_file *af = &a->files[c->file_index];
    if (!af->timed_all)
        return;
    if (!af->no_call_pushed) {
        af->no_call_pushed = 1;
        if (push_no_call(a, c) < 0) {
            a->oom = 1;
            return;
        }
    }
    const struct ct_call *k = c->call;
    if (k->family == CT_FAM_LAUNCH && steady && k->c.result == 0) {
        /* The host's time launching: from the end of the thread's previous launch to the end of this one,
         * when that is short enough to be the launch loop's own pace (framework and driver overhead),
         * else just the call. */
        uint64_t tid = c->thread ? c->thread->tid : 0;
        struct rp_u64map_entry *last = rp_u64map_get(&a->last_launch, c->file_index, tid);
        if (!last && !(last = rp_u64map_put(&a->last_launch, c->file_index, tid, (uint64_t)c->t0, 0))) {
            a->oom = 1;
            return;
        }
        int64_t from = (int64_t)last->v1 < c->t0 && (uint64_t)(c->t0 - (int64_t)last->v1) <= a->o->launch_interval_ns
                           ? (int64_t)last->v1 : c->t0;
        last->v1 = (uint64_t)c->t1;
        struct rp_an_window *w = window(a, c->file_index, c->t0);
        if (w) {
            w->launch_ns += c->t1 > from ? (uint64_t)(c->t1 - from) : 0;
            w->launches++;
        }
        struct rp_site *s = rp_an_site(a, &af->launch_sites, c, api);
        if (s) {
            uint64_t ns = c->t1 > c->t0 ? (uint64_t)(c->t1 - c->t0) : 0;
            s->count++;
            s->total_ns += ns;
            if (ns > s->max_ns)
                s->max_ns = ns;
        }
    }
    int64_t off = c->file->clock_offset;
    for (size_t i = 0; i < c->ngpu; i++) {
        const struct rp_gpu_span *sp = &c->gpu[i];
        if (sp->end_ns < sp->start_ns)
            continue;
        const struct rp_an_pending p = {(int64_t)sp->start_ns + off, (int64_t)sp->end_ns + off, c->t0,
                                        k->c.stack_id, c->thread ? c->thread->tid : 0, k->c.api_id, 0};
        struct rp_an_device *d = push(a, c->file_index, sp->device, &p, c->t0);
        if (!d) {
            a->oom = 1;
            return;
        }
        if (c->file->rank.rank >= 0 && rp_gpu_span_kind(c, i) != RP_GPU_COPY) {
            char buf[96];
            const char *name = rp_gpu_span_name(&a->kn, c, i, buf, sizeof buf);
            if (name && !strncmp(name, "nccl", 4))
                d->collective_ns += sp->end_ns - sp->start_ns;
        }
    }
}

void rp_an_gpu_end(struct rp_an *a)
{
    for (size_t i = 0; i < a->ndevs; i++) {
        struct rp_an_device *d = &a->devs[i];
        drain(a, d, INT64_MAX);
        a->files[d->file].busy_ns += d->busy_ns;
        a->files[d->file].collective_ns += d->collective_ns;
        free(d->heap);
        d->heap = NULL;
        d->cheap = 0;
    }
}

/* Pass 2: the host's calls during the longest gaps of their file's devices. */
void rp_an_gpu_call2(struct rp_an *a, const struct rp_call *c)
{
    const struct rp_api_entry *api = NULL;
    const struct rp_an_file *af = &a->files[c->file_index];
    for (size_t i = 0; i < af->ndevs; i++) {
        struct rp_an_device *d = &a->devs[af->devs[i]];
        for (size_t j = 0; j < d->ntop; j++) {
            struct rp_an_gap *g = &d->top[j];
            if (c->t0 < g->t0 || c->t0 >= g->t1)
                continue;
            if (!api && !(api = rp_apimatch_of(&a->am, c))) {
                a->oom = 1;
                return;
            }
            struct rp_site *s = rp_an_site(a, &g->during, c, api);
            if (!s)
                return;
            uint64_t ns = c->t1 > c->t0 ? (uint64_t)(c->t1 - c->t0) : 0;
            s->count++;
            s->total_ns += ns;
            if (ns > s->max_ns)
                s->max_ns = ns;
            g->ncalls++;
            g->calls_ns += ns;
        }
    }
}

void rp_an_gpu_free(struct rp_an *a)
{
    for (size_t i = 0; i < a->ndevs; i++) {
        free(a->devs[i].heap);
        for (size_t j = 0; j < a->devs[i].ntop; j++)
            rp_sites_free(&a->devs[i].top[j].during);
    }
    free(a->devs);
    rp_u64map_free(&a->dev_of);
    rp_u64map_free(&a->last_launch);
    for (size_t i = 0; a->files && i < a->t->nfiles; i++) {
        free(a->files[i].win);
        free(a->files[i].devs);
    }
    free(a->files);
}
