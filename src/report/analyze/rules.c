#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "report/analyze/rules.h"

const char *const rp_an_rule_names[RP_AN_RULES] = {"sync", "pageable", "churn", "small-copies",
                                                   "gpu-idle", "launch-bound", "ranks", "leak"};
const char *const rp_an_rule_titles[RP_AN_RULES] = {
    "synchronizing calls in the steady state block the host",
    "asynchronous copies from or to pageable host memory run synchronously",
    "allocations from the same site over and over after warm-up",
    "many small copies, each paying a call's and a transfer's fixed cost",
    "the GPU sits idle between its work",
    "the GPU is busy for less time than the host spends launching its work",
    "one rank is slower than the others, which wait for it in collectives",
    "memory still allocated at exit",
};
const char *const rp_an_rule_fixes[RP_AN_RULES] = {
    "drop the synchronization or move it out of the loop; read results back once per N steps "
    "(a .item() or print of a GPU value synchronizes)",
    "allocate the host buffer pinned (cuMemAllocHost, cudaHostAlloc, tensor.pin_memory()) or register it "
    "(cuMemHostRegister)",
    "allocate once outside the loop and reuse the buffer, or use a caching or stream-ordered pool "
    "(cuMemAllocAsync); keep tensor shapes fixed",
    "batch the data into fewer, larger copies (one staging buffer, one copy)",
    "keep work queued ahead of the GPU: overlap host work with GPU work, move host work off the critical "
    "path (data loading in workers), avoid synchronizing before the next launch",
    "launch fewer, larger kernels: capture the step in a CUDA graph (torch.cuda.graphs, torch.compile "
    "mode=\"reduce-overhead\"), fuse kernels",
    "give the slow rank less work or find what slows it (its own findings, its data loading); the others "
    "wait for it at every collective",
    "free what is allocated (a cache that is never released is also reported here)",
};

int rp_an_init(struct rp_an *a, struct rp_trace *t, const struct rp_an_opts *o)
{
    memset(a, 0, sizeof *a);
    a->o = o;
    a->t = t;
    a->run_ns = t->end_ns > t->start_ns ? t->end_ns - t->start_ns : 0;
    a->steady_t = t->start_ns + (int64_t)((double)a->run_ns * o->warmup);
    a->mem.detail = 1;
    size_t ranked = 0;
    for (size_t i = 0; i < t->nfiles; i++) {
        a->stacks |= rp_file_has_stacks(&t->files[i]);
        ranked += t->files[i].rank.rank >= 0;
    }
    a->ranks = ranked > 1;
    return rp_an_gpu_init(a);
}

const char *rp_an_range_at(const struct rp_trace *t, size_t file, uint32_t tid, int64_t t_ns)
{
    const struct rp_file *f = &t->files[file];
    const struct rp_nvtx *x = &f->nvtx;
    uint64_t at = (uint64_t)(t_ns - f->clock_offset);
    /* the last range of the thread that starts at or before `at` */
    size_t lo = 0, hi = x->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const struct rp_nvtx_range *r = &x->r[mid];
        if (r->tid < tid || (r->tid == tid && r->t0 <= at))
            lo = mid + 1;
        else
            hi = mid;
    }
    /* Back from there: the deepest range still open at `at`.  Ranges nest, so a few steps back find it;
     * the bound keeps a thread of many short ranges cheap. */
    const struct rp_nvtx_range *best = NULL;
    for (size_t i = lo, steps = 0; i-- > 0 && steps < 64; steps++) {
        const struct rp_nvtx_range *r = &x->r[i];
        if (r->tid != tid)
            break;
        if (r->style != RP_NVTX_MARK && r->t1 >= at && (!best || r->depth > best->depth))
            best = r;
    }
    return best ? rp_file_string(f, best->name_id) : NULL;
}

struct rp_site *rp_an_site(struct rp_an *a, struct rp_sites *s, const struct rp_call *c,
                           const struct rp_api_entry *api)
{
    struct rp_site *site = a->o->by_python ? rp_site_python(s, a->t, c->file_index, c->call->c.stack_id)
                                           : rp_site_of(s, a->t, c->file_index, c->call->c.stack_id, api->name,
                                                        api->index);
    if (!site) {
        a->oom = 1;
        return NULL;
    }
    if (!site->count && !site->range)
        site->range = rp_an_range_at(a->t, c->file_index, c->thread ? c->thread->tid : 0, c->t0);
    return site;
}

void rp_an_call(struct rp_an *a, const struct rp_call *c)
{
    const struct rp_api_entry *api = rp_apimatch_of(&a->am, c);
    if (!api) {
        a->oom = 1;
        return;
    }
    int steady = c->t0 >= a->steady_t;
    rp_an_host_call(a, c, api, steady);
    rp_an_gpu_call(a, c, api, steady);
    if (c->call->family == CT_FAM_ALLOC || c->call->family == CT_FAM_FREE) {
        uint64_t before = a->mem.device.peak_bytes;
        rp_memtrack_call(&a->mem, c);
        a->mem_calls++;
        if (a->mem.device.peak_bytes > before)
            a->peak_at = a->mem_calls;
        a->oom |= a->mem.oom;
    }
}

void rp_an_end(struct rp_an *a) { rp_an_gpu_end(a); }

int rp_an_need_pass2(const struct rp_an *a)
{
    if (a->peak_at)
        return 1;
    for (size_t i = 0; i < a->ndevs; i++)
        if (a->devs[i].ntop)
            return 1;
    return 0;
}

void rp_an_call2(struct rp_an *a, const struct rp_call *c)
{
    rp_an_gpu_call2(a, c);
    if ((c->call->family == CT_FAM_ALLOC || c->call->family == CT_FAM_FREE) && a->mem_calls2 < a->peak_at) {
        a->at_peak.detail = 1;
        rp_memtrack_call(&a->at_peak, c);
        a->mem_calls2++;
        a->oom |= a->at_peak.oom;
    }
}

void rp_an_free(struct rp_an *a)
{
    rp_an_host_free(&a->host);
    rp_an_gpu_free(a);
    rp_sites_free(&a->launch_sites);
    rp_sites_free(&a->gap_sites);
    rp_apimatch_free(&a->am);
    rp_kernel_names_free(&a->kn);
    rp_memtrack_free(&a->mem);
    rp_memtrack_free(&a->at_peak);
}

/* ---- findings ---- */

struct rp_an_finding *rp_an_add(struct rp_an_result *r, enum rp_an_rule rule, uint64_t lost_ns)
{
    if (r->n == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 16;
        struct rp_an_finding *f = realloc(r->f, cap * sizeof *f);
        if (!f)
            return NULL;
        r->f = f;
        r->cap = cap;
    }
    struct rp_an_finding *f = &r->f[r->n++];
    memset(f, 0, sizeof *f);
    f->rule = rule;
    f->lost_ns = lost_ns;
    return f;
}

void rp_an_fig(struct rp_an_finding *f, const char *key, const char *words, enum rp_an_unit unit, double v)
{
    if (f->nfig < RP_AN_FIGURES)
        f->fig[f->nfig++] = (struct rp_an_figure){key, words, unit, v};
}

/* A host rule's finding from its sites: those with min_repeats steady-state calls, moved to the front in
 * the order of their time (the rest stay behind them, for rp_sites_free). */
static int host_finding(struct rp_an *a, struct rp_an_result *r, enum rp_an_rule rule)
{
    struct rp_sites *s = &a->host.sites[rule];
    rp_sites_sort_time(s);
    size_t keep = 0;
    uint64_t calls = 0, ns = 0, bytes = 0;
    for (size_t i = 0; i < s->n; i++) {
        if (s->v[i].count < a->o->min_repeats)
            continue;
        calls += s->v[i].count;
        ns += s->v[i].total_ns;
        bytes += s->v[i].bytes;
        if (keep != i) { /* rotate it down past the skipped ones: their order is kept */
            struct rp_site tmp = s->v[i];
            memmove(&s->v[keep + 1], &s->v[keep], (i - keep) * sizeof *s->v);
            s->v[keep] = tmp;
        }
        keep++;
    }
    if (!keep)
        return 0;
    struct rp_an_finding *f = rp_an_add(r, rule, ns);
    if (!f)
        return -1;
    f->sites = s;
    f->nsites = keep;
    f->bytes = bytes;
    static const char *const what[] = {"host time blocked", "host time in the copies", "host time allocating",
                                       "host time in the copies"};
    rp_an_fig(f, "calls", rule == RP_AN_CHURN ? "allocations" : "calls", RP_AN_COUNT, (double)calls);
    rp_an_fig(f, "time_ns", what[rule], RP_AN_TIME, (double)ns);
    if (rule == RP_AN_CHURN)
        rp_an_fig(f, "bytes", "bytes allocated", RP_AN_BYTES, (double)bytes);
    if (rule == RP_AN_SMALL || rule == RP_AN_PAGEABLE)
        rp_an_fig(f, "bytes", "bytes copied", RP_AN_BYTES, (double)bytes);
    rp_an_fig(f, "sites", "call sites", RP_AN_COUNT, (double)keep);
    return 0;
}

static int by_lost(const void *x, const void *y)
{
    const struct rp_an_finding *a = x, *b = y;
    if (a->lost_ns != b->lost_ns)
        return a->lost_ns < b->lost_ns ? 1 : -1;
    if (a->bytes != b->bytes)
        return a->bytes < b->bytes ? 1 : -1;
    return (a->rule > b->rule) - (a->rule < b->rule);
}

const struct rp_stack *rp_an_gap_stack(const struct rp_an *a, const struct rp_an_gap *g)
{
    return g->launch_site < a->gap_sites.n ? a->gap_sites.v[g->launch_site].stack : NULL;
}

/* The sites of the calls that ended the longest gaps. */
static int gap_sites(struct rp_an *a)
{
    for (size_t i = 0; i < a->ndevs; i++)
        for (size_t j = 0; j < a->devs[i].ntop; j++) {
            struct rp_an_gap *g = &a->devs[i].top[j];
            struct rp_site *s = a->o->by_python ? rp_site_python(&a->gap_sites, a->t, g->file, g->stack_id)
                                                : rp_site_of(&a->gap_sites, a->t, g->file, g->stack_id, "", 0);
            if (!s)
                return -1;
            g->launch_site = (size_t)(s - a->gap_sites.v);
        }
    return 0;
}

int rp_an_findings(struct rp_an *a, struct rp_an_result *r)
{
    memset(r, 0, sizeof *r);
    if (gap_sites(a) < 0)
        return -1;
    for (int rule = RP_AN_SYNC; rule <= RP_AN_SMALL; rule++)
        if (host_finding(a, r, (enum rp_an_rule)rule) < 0)
            return -1;
    /* idle: one finding per device with gaps; launch-bound: one per file with launch-bound windows */
    for (size_t i = 0; i < a->ndevs; i++) {
        const struct rp_an_device *d = &a->devs[i];
        if (!d->ngaps)
            continue;
        struct rp_an_finding *f = rp_an_add(r, RP_AN_IDLE, d->idle_ns);
        if (!f)
            return -1;
        char label[64];
        if (a->t->nfiles > 1)
            snprintf(f->where, sizeof f->where, "GPU %d of %s", d->device,
                     rp_file_label(&a->t->files[d->file], label, sizeof label));
        else
            snprintf(f->where, sizeof f->where, "GPU %d", d->device);
        uint64_t span = d->frontier > d->first ? (uint64_t)(d->frontier - d->first) : 0;
        rp_an_fig(f, "gaps", "gaps", RP_AN_COUNT, (double)d->ngaps);
        rp_an_fig(f, "idle_ns", "GPU time idle", RP_AN_TIME, (double)d->idle_ns);
        rp_an_fig(f, "idle_percent", "of the GPU's active span", RP_AN_PERCENT,
                  span ? 100.0 * (double)d->idle_ns / (double)span : 0);
        rp_an_fig(f, "busy_ns", "GPU time busy", RP_AN_TIME, (double)d->busy_ns);
        rp_an_fig(f, "longest_ns", "longest gap", RP_AN_TIME, (double)(d->top[0].t1 - d->top[0].t0));
        f->dev = d;
    }
    rp_sites_sort_time(&a->launch_sites);
    for (size_t fi = 0; fi < a->t->nfiles; fi++) {
        const struct rp_an_file *af = &a->files[fi];
        uint64_t lost = 0, launches = 0, launch_ns = 0, busy = 0, nwin = 0;
        for (uint64_t w = 0; af->win && w < a->nwin; w++)
            if (af->win[w].launch_ns > af->win[w].busy_ns && af->win[w].launches) {
                lost += af->win[w].launch_ns - af->win[w].busy_ns;
                launches += af->win[w].launches;
                launch_ns += af->win[w].launch_ns;
                busy += af->win[w].busy_ns;
                nwin++;
            }
        if (!nwin || launches < a->o->min_launches)
            continue;
        struct rp_an_finding *f = rp_an_add(r, RP_AN_LAUNCH, lost);
        if (!f)
            return -1;
        char label[64];
        if (a->t->nfiles > 1)
            snprintf(f->where, sizeof f->where, "%s", rp_file_label(&a->t->files[fi], label, sizeof label));
        rp_an_fig(f, "windows", "windows launch-bound", RP_AN_COUNT, (double)nwin);
        rp_an_fig(f, "window_ns", "window", RP_AN_TIME, (double)a->win_ns);
        rp_an_fig(f, "launches", "launches", RP_AN_COUNT, (double)launches);
        rp_an_fig(f, "launch_ns", "host time launching", RP_AN_TIME, (double)launch_ns);
        rp_an_fig(f, "busy_ns", "GPU time busy", RP_AN_TIME, (double)busy);
        f->sites = &a->launch_sites;
        f->nsites = a->launch_sites.n;
    }
    if (rp_an_ranks(a, r) < 0 || rp_an_memory(a, r) < 0)
        return -1;
    if (r->n)
        qsort(r->f, r->n, sizeof *r->f, by_lost);
    return 0;
}

void rp_an_result_free(struct rp_an_result *r)
{
    free(r->f);
    free(r->ranks);
    rp_sites_free(&r->peak);
    rp_sites_free(&r->leaks);
    memset(r, 0, sizeof *r);
}
