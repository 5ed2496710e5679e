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

/* File f's extent on its own clock, as rp_clocks_align (trace.c) measures it, onto the report clock. */
static void file_extent(const struct rp_file *f, int64_t *start, int64_t *end)
{
    int64_t s = f->hdr.start_mono_ns, e;
    if (f->calls && (int64_t)f->first_t0 < s)
        s = (int64_t)f->first_t0;
    e = s;
    if (f->calls && (int64_t)f->last_t1 > e)
        e = (int64_t)f->last_t1;
    if (f->has_end && f->end.end_mono_ns > e)
        e = f->end.end_mono_ns;
    *start = s + f->clock_offset;
    *end = e + f->clock_offset;
}

int rp_an_init(struct rp_an *a, struct rp_trace *t, const struct rp_an_opts *o)
{
    memset(a, 0, sizeof *a);
    a->o = o;
    a->t = t;
    if (!(a->files = calloc(t->nfiles ? t->nfiles : 1, sizeof *a->files)))
        return -1;
    for (size_t i = 0; i < t->nfiles; i++) {
        struct rp_an_file *af = &a->files[i];
        int64_t end;
        file_extent(&t->files[i], &af->start, &end);
        const uint64_t run = (uint64_t)(end - af->start);
        af->steady_t = af->start + (int64_t)((double)run * o->warmup);
        af->mem.detail = af->mem.record = af->mem.record_stacks = 1;
        rp_an_gpu_init(af, &t->files[i], run, o->window_ns);
    }
    return 0;
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
    if (!site->count) {
        site->range = rp_an_range_at(a->t, c->file_index, c->thread ? c->thread->tid : 0, c->t0);
        site->first_t0 = c->t0;
    }
    return site;
}

void rp_an_call(struct rp_an *a, const struct rp_call *c)
{
    const struct rp_api_entry *api = rp_apimatch_of(&a->am, c);
    if (!api) {
        a->oom = 1;
        return;
    }
    struct rp_an_file *af = &a->files[c->file_index];
    int steady = c->t0 >= af->steady_t;
    rp_an_host_call(a, c, api, steady);
    rp_an_gpu_call(a, c, api, steady);
    if (c->call->family == CT_FAM_ALLOC || c->call->family == CT_FAM_FREE) {
        rp_memtrack_call(&af->mem, c);
        a->oom |= af->mem.oom;
    }
}

void rp_an_end(struct rp_an *a) { rp_an_gpu_end(a); }

int rp_an_need_pass2(const struct rp_an *a)
{
    for (size_t i = 0; i < a->ndevs; i++)
        if (a->devs[i].ntop)
            return 1;
    return 0;
}

void rp_an_call2(struct rp_an *a, const struct rp_call *c) { rp_an_gpu_call2(a, c); }

void rp_an_free(struct rp_an *a)
{
    for (size_t i = 0; a->files && i < a->t->nfiles; i++) {
        rp_an_host_free(&a->files[i].host);
        rp_sites_free(&a->files[i].launch_sites);
        rp_memtrack_free(&a->files[i].mem);
    }
    rp_an_gpu_free(a);
    rp_apimatch_free(&a->am);
    rp_kernel_names_free(&a->kn);
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

void rp_an_result_free(struct rp_an_result *r)
{
    free(r->f);
    free(r->ranks);
    rp_sites_free(&r->peak);
    rp_sites_free(&r->leaks);
    memset(r, 0, sizeof *r);
}
