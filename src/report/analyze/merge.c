/* The merge of files' parts (part.h) into the findings: the clocks aligned as a trace's are, sites summed
 * by content, each GPU's gaps and each file's launch-bound windows as the file found them, the ranks
 * compared, and device memory replayed across the files in time order for its peak and who held it. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "report/analyze/part.h"
#include "report/model/display_names.h"
#include "report/model/memory.h"

static const struct rp_stack *stack_at(const struct rp_an_part *p, size_t ref)
{
    return ref && ref <= p->nstacks ? &p->stacks[ref - 1] : NULL;
}

/* Sum part p's sites into s; a site shows the stack and range of its earliest first call (ties: the
 * earlier part).  0, or -1 when out of memory. */
static int add_sites(struct rp_sites *s, const struct rp_an_part *p, int64_t off, const struct rp_an_psites *ps)
{
    for (size_t i = 0; i < ps->n; i++) {
        const struct rp_an_psite *q = &ps->v[i];
        const size_t before = s->n;
        struct rp_site *t = rp_site_keyed(s, q->key, q->label, stack_at(p, q->stack));
        if (!t)
            return -1;
        const int64_t first = q->first_t0 + off;
        if (s->n > before || first < t->first_t0) {
            t->first_t0 = first;
            t->range = q->range;
            t->stack = stack_at(p, q->stack);
        }
        t->count += q->count;
        t->bytes += q->bytes;
        t->total_ns += q->total_ns;
        if (q->max_ns > t->max_ns)
            t->max_ns = q->max_ns;
    }
    return 0;
}

/* A host rule's finding from its sites: those with min_repeats steady-state calls, moved to the front in
 * the order of their time (the rest stay behind them, for rp_sites_free). */
static int host_finding(struct rp_an_merged *m, struct rp_an_result *r, enum rp_an_rule rule)
{
    struct rp_sites *s = &m->host[rule];
    rp_sites_sort_time(s);
    size_t keep = 0;
    uint64_t calls = 0, ns = 0, bytes = 0;
    for (size_t i = 0; i < s->n; i++) {
        if (s->v[i].count < m->o->min_repeats)
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
    if (m->n > 1)
        f->of = RP_AN_OF_PROCESSES, f->of_ns = m->procs_ns;
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

/* Every device's gaps (gpu-idle), then every file's launch-bound windows. */
static int gpu_findings(struct rp_an_merged *m, struct rp_an_result *r)
{
    size_t nd = 0;
    for (size_t i = 0; i < m->n; i++)
        nd += m->p[i].ndevs;
    if (nd && !(m->devs = calloc(nd, sizeof *m->devs)))
        return -1;
    for (size_t i = 0; i < m->n; i++) {
        const struct rp_an_part *p = &m->p[i];
        const int64_t off = m->offset[i];
        for (size_t j = 0; j < p->ndevs; j++) {
            const struct rp_an_pdev *e = &p->devs[j];
            struct rp_an_device *d = &m->devs[m->ndevs++];
            d->file = i;
            d->device = e->device;
            d->busy_ns = e->busy_ns;
            d->idle_ns = e->idle_ns;
            d->ngaps = e->ngaps;
            d->first = e->first + off;
            d->frontier = e->frontier + off;
            for (; d->ntop < e->ntop && d->ntop < RP_AN_TOP_GAPS; d->ntop++) {
                const struct rp_an_pgap *h = &e->top[d->ntop];
                struct rp_an_gap *g = &d->top[d->ntop];
                g->t0 = h->t0 + off;
                g->t1 = h->t1 + off;
                g->launch_t = h->launch_t + off;
                g->file = i;
                g->device = e->device;
                g->api = h->api;
                g->range = h->range;
                g->stack = stack_at(p, h->stack);
                g->ncalls = h->ncalls;
                g->calls_ns = h->calls_ns;
                if (add_sites(&g->during, p, off, &h->during) < 0)
                    return -1;
                rp_sites_sort_time(&g->during);
            }
            if (!d->ngaps)
                continue;
            struct rp_an_finding *f = rp_an_add(r, RP_AN_IDLE, d->idle_ns);
            if (!f)
                return -1;
            if (m->n > 1) {
                snprintf(f->where, sizeof f->where, "GPU %d of %s", d->device, p->label);
                f->of = RP_AN_OF_PROCESS, f->of_ns = m->run_of[i];
            } else
                snprintf(f->where, sizeof f->where, "GPU %d", d->device);
            uint64_t span = d->frontier > d->first ? (uint64_t)(d->frontier - d->first) : 0;
            rp_an_fig(f, "gaps", "gaps", RP_AN_COUNT, (double)d->ngaps);
            rp_an_fig(f, "idle_ns", "GPU time idle", RP_AN_TIME, (double)d->idle_ns);
            rp_an_fig(f, "idle_percent", "of the GPU's active span", RP_AN_PERCENT,
                      span ? 100.0 * (double)d->idle_ns / (double)span : 0);
            rp_an_fig(f, "busy_ns", "GPU time busy", RP_AN_TIME, (double)d->busy_ns);
            rp_an_fig(f, "longest_ns", "longest gap", RP_AN_TIME,
                      d->ntop ? (double)(d->top[0].t1 - d->top[0].t0) : 0);
            f->dev = d;
        }
    }
    for (size_t i = 0; i < m->n; i++) {
        const struct rp_an_part *p = &m->p[i];
        if (!p->lb_windows || p->lb_launches < m->o->min_launches)
            continue;
        struct rp_an_finding *f = rp_an_add(r, RP_AN_LAUNCH, p->lb_lost_ns);
        if (!f)
            return -1;
        if (m->n > 1) {
            snprintf(f->where, sizeof f->where, "%s", p->label);
            f->of = RP_AN_OF_PROCESS, f->of_ns = m->run_of[i];
        }
        rp_an_fig(f, "windows", "windows launch-bound", RP_AN_COUNT, (double)p->lb_windows);
        rp_an_fig(f, "window_ns", "window", RP_AN_TIME, (double)p->win_ns);
        rp_an_fig(f, "launches", "launches", RP_AN_COUNT, (double)p->lb_launches);
        rp_an_fig(f, "launch_ns", "host time launching", RP_AN_TIME, (double)p->lb_launch_ns);
        rp_an_fig(f, "busy_ns", "GPU time busy", RP_AN_TIME, (double)p->lb_busy_ns);
        rp_sites_sort_time(&m->launch[i]);
        f->sites = &m->launch[i];
        f->nsites = m->launch[i].n;
    }
    return 0;
}

/* The ranks rule: with the parts of several ranks, each rank's GPU busy time, time in collectives (NCCL's
 * kernels) and step time (its --step-range NVTX ranges), and the slowest rank.
 *
 * A rank that is slow makes the others wait for it in every collective, so it spends the least time
 * there and the most computing.  Its load, GPU busy time less twice its time in collectives (its compute
 * time, less what it waited), is the largest: a rank slowed on the GPU leads in compute, one slowed on
 * the host (so that the others' collectives start earlier and wait longer) in waiting least. */
static int ranks(struct rp_an_merged *m, struct rp_an_result *r)
{
    size_t ranked = 0;
    for (size_t i = 0; i < m->n; i++)
        ranked += m->p[i].rank >= 0;
    if (ranked < 2)
        return 0;
    if (!(r->ranks = calloc(m->n, sizeof *r->ranks)))
        return -1;
    for (size_t i = 0; i < m->n; i++) {
        const struct rp_an_part *p = &m->p[i];
        if (p->rank < 0)
            continue;
        struct rp_an_rank *k = &r->ranks[r->nranks++];
        k->file = i;
        k->rank = p->rank;
        k->busy_ns = p->busy_ns;
        k->collective_ns = p->collective_ns;
        k->step_ns = p->step_ns;
        k->steps = p->steps;
        k->load_ns = (int64_t)k->busy_ns - 2 * (int64_t)k->collective_ns;
    }
    r->slowest = r->nranks;
    uint64_t busy = 0;
    for (size_t i = 0; i < r->nranks; i++)
        busy += r->ranks[i].busy_ns;
    if (r->nranks < 2 || !busy) /* no rank's GPU work was timed: none is the slowest */
        return 0;
    size_t slow = 0;
    __int128 others = 0; /* a sum of many ranks' loads */
    for (size_t i = 1; i < r->nranks; i++)
        if (r->ranks[i].load_ns > r->ranks[slow].load_ns)
            slow = i;
    for (size_t i = 0; i < r->nranks; i++)
        if (i != slow)
            others += r->ranks[i].load_ns;
    const int64_t mean = (int64_t)(others / (int64_t)(r->nranks - 1));
    r->slowest = slow;
    const struct rp_an_rank *s = &r->ranks[slow];
    uint64_t lead = s->load_ns > mean ? (uint64_t)(s->load_ns - mean) : 0;
    if (!s->busy_ns || !m->run_ns || (double)lead < m->o->rank_share * (double)m->run_ns)
        return 0;
    struct rp_an_finding *f = rp_an_add(r, RP_AN_RANKS, lead);
    if (!f)
        return -1;
    snprintf(f->where, sizeof f->where, "%s", m->p[s->file].label);
    rp_an_fig(f, "slowest_rank", "the slowest", RP_AN_RANK, s->rank);
    rp_an_fig(f, "ranks", "ranks", RP_AN_COUNT, (double)r->nranks);
    rp_an_fig(f, "busy_ns", "its GPU time busy", RP_AN_TIME, (double)s->busy_ns);
    rp_an_fig(f, "collective_ns", "its time in collectives", RP_AN_TIME, (double)s->collective_ns);
    rp_an_fig(f, "lead_ns", "its load over the others' mean", RP_AN_TIME, (double)lead);
    return 0;
}

/* Part p's live bytes and allocations per memory site after its first `upto` changes (device memory's alone
 * with device_only), added to `out` by site.  0, -1 when out of memory, -2 on a malformed change. */
static int live_sites(struct rp_sites *out, const struct rp_an_part *p, uint64_t upto, int device_only)
{
    size_t ns = p->memsites.n;
    uint64_t *v = calloc(2 * (ns ? ns : 1), sizeof *v);
    if (!v)
        return -1;
    struct rp_rd rd = rp_rd_of(p->changes.p, p->changes.n);
    int rc = 0;
    for (uint64_t i = 0; i < upto && !rc; i++) {
        struct rp_mem_change c;
        const uint32_t site = p->change_site[i];
        if (rp_mem_get_change(&rd, &c) < 0 || site >= ns) {
            rc = -2;
            break;
        }
        if (device_only && !rp_mem_kind_on_device(c.kind))
            continue;
        if (c.grew) {
            v[2 * site] += c.bytes;
            v[2 * site + 1]++;
        } else {
            v[2 * site] -= c.bytes;
            v[2 * site + 1]--;
        }
    }
    for (size_t i = 0; i < ns && !rc; i++) {
        if (!v[2 * i + 1])
            continue;
        const struct rp_an_psite *q = &p->memsites.v[i];
        struct rp_site *t = rp_site_keyed(out, q->key, q->label, stack_at(p, q->stack));
        if (!t) {
            rc = -1;
            break;
        }
        t->bytes += v[2 * i];
        t->count += v[2 * i + 1];
    }
    free(v);
    return rc;
}

/* The leak finding and the peak of device memory with the sites that held it. */
static int memory(struct rp_an_merged *m, struct rp_an_result *r, int *bad)
{
    struct rp_mem_changes *ch = calloc(m->n, sizeof *ch);
    uint64_t *applied = calloc(m->n, sizeof *applied);
    struct rp_memtrack mt = {0};
    int rc = -1;
    if (!ch || !applied)
        goto out;
    for (size_t i = 0; i < m->n; i++)
        ch[i] = (struct rp_mem_changes){m->p[i].changes.p, m->p[i].changes.n, m->p[i].nchanges, m->offset[i], -1, 0};
    if (rp_mem_replay_peak(&mt, ch, m->n, applied) < 0) {
        *bad = 1;
        goto out;
    }
    r->peak_bytes = mt.device.peak_bytes;
    r->peak_t = mt.device.peak_t;
    for (size_t i = 0; i < m->n; i++) {
        int k = live_sites(&r->leaks, &m->p[i], m->p[i].nchanges, 0);
        if (!k)
            k = live_sites(&r->peak, &m->p[i], applied[i], 1);
        if (k) {
            *bad = k == -2;
            goto out;
        }
    }
    rp_sites_sort_bytes(&r->leaks);
    rp_sites_sort_bytes(&r->peak);
    uint64_t bytes = 0, count = 0;
    for (size_t i = 0; i < r->leaks.n; i++) {
        bytes += r->leaks.v[i].bytes;
        count += r->leaks.v[i].count;
    }
    rc = 0;
    if (!r->leaks.n || bytes < m->o->leak_bytes)
        goto out;
    struct rp_an_finding *f = rp_an_add(r, RP_AN_LEAK, 0);
    if (!f) {
        rc = -1;
        goto out;
    }
    f->bytes = bytes;
    f->sites = &r->leaks;
    f->nsites = r->leaks.n;
    rp_an_fig(f, "bytes", "bytes still allocated", RP_AN_BYTES, (double)bytes);
    rp_an_fig(f, "allocations", "allocations", RP_AN_COUNT, (double)count);
    rp_an_fig(f, "sites", "call sites", RP_AN_COUNT, (double)r->leaks.n);
out:
    free(ch);
    free(applied);
    rp_memtrack_free(&mt);
    return rc;
}

static int by_lost(const void *x, const void *y)
{
    const struct rp_an_finding *a = x, *b = y;
    if (a->lost_ns != b->lost_ns)
        return a->lost_ns < b->lost_ns ? 1 : -1;
    if (a->bytes != b->bytes)
        return a->bytes < b->bytes ? 1 : -1;
    if (a->rule != b->rule)
        return (a->rule > b->rule) - (a->rule < b->rule);
    return strcmp(a->where, b->where);
}

int rp_an_merge(struct rp_an_merged *m, struct rp_an_part *p, size_t n, const struct rp_an_opts *o,
                struct rp_an_result *r, int *bad)
{
    memset(m, 0, sizeof *m);
    memset(r, 0, sizeof *r);
    *bad = 0;
    m->o = o;
    m->p = p;
    m->n = n;
    struct rp_clock *c = calloc(n ? n : 1, sizeof *c);
    if (!c || !(m->offset = calloc(n ? n : 1, sizeof *m->offset)) ||
        !(m->run_of = calloc(n ? n : 1, sizeof *m->run_of)) ||
        !(m->launch = calloc(n ? n : 1, sizeof *m->launch))) {
        free(c);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        c[i] = (struct rp_clock){p[i].host, p[i].start_wall_ns, p[i].start_mono_ns, p[i].calls, p[i].first_t0,
                                 p[i].last_t1, p[i].has_end, p[i].end_mono_ns, 0};
    if (n)
        rp_clocks_align(c, n, &m->start_ns, &m->run_ns);
    m->run_ns = m->run_ns > m->start_ns ? m->run_ns - m->start_ns : 0;
    m->steady_t = INT64_MAX;
    for (size_t i = 0; i < n; i++) {
        int64_t s, e; /* its own run: the clocks' rule for one file (its offset does not change a length) */
        struct rp_clock one = c[i];
        rp_clocks_align(&one, 1, &s, &e);
        m->run_of[i] = e > s ? (uint64_t)(e - s) : 0;
        m->procs_ns += m->run_of[i];
        m->offset[i] = c[i].offset;
        if (p[i].steady_t + c[i].offset < m->steady_t)
            m->steady_t = p[i].steady_t + c[i].offset;
        if (p[i].win_ns > m->win_ns)
            m->win_ns = p[i].win_ns;
        m->stacks |= p[i].has_stacks;
    }
    free(c);
    if (!n)
        m->steady_t = 0;
    for (size_t i = 0; i < n; i++) {
        for (int k = 0; k <= RP_AN_SMALL; k++)
            if (add_sites(&m->host[k], &p[i], m->offset[i], &p[i].hsites[k]) < 0)
                return -1;
        if (add_sites(&m->launch[i], &p[i], m->offset[i], &p[i].launch) < 0)
            return -1;
    }
    for (int k = RP_AN_SYNC; k <= RP_AN_SMALL; k++)
        if (host_finding(m, r, (enum rp_an_rule)k) < 0)
            return -1;
    if (gpu_findings(m, r) < 0 || ranks(m, r) < 0 || memory(m, r, bad) < 0)
        return -1;
    if (r->n)
        qsort(r->f, r->n, sizeof *r->f, by_lost);
    size_t untimed = 0;
    for (size_t i = 0; i < n; i++)
        untimed += !p[i].timed_all;
    if (untimed)
        r->no_idle = "The gpu-idle and launch-bound rules need every call's GPU work timed "
                     "(CUDATRACE_GPU_TIME=all, or CUPTI's activity records): some files were sampled or untimed.";
    return 0;
}

void rp_an_merged_free(struct rp_an_merged *m)
{
    for (int k = 0; k <= RP_AN_SMALL; k++)
        rp_sites_free(&m->host[k]);
    for (size_t i = 0; m->launch && i < m->n; i++)
        rp_sites_free(&m->launch[i]);
    free(m->launch);
    for (size_t i = 0; i < m->ndevs; i++)
        for (size_t j = 0; j < m->devs[i].ntop; j++)
            rp_sites_free(&m->devs[i].top[j].during);
    free(m->devs);
    free(m->offset);
    free(m->run_of);
    memset(m, 0, sizeof *m);
}
