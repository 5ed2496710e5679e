/* A file's part (part.h) from the rules' state after both passes: sites by content with copies of their
 * stacks, times onto the file's own clock, the strings the output shows resolved from the trace. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "format/grow.h"
#include "report/analyze/part.h"
#include "report/model/args.h"
#include "report/model/frames.h"
#include "report/model/stats.h"

struct ctx {
    struct rp_an_part *p;
    struct rp_u64map of; /* stack pointer -> index + 1 in p->stacks */
    size_t cstacks;
    int64_t off;         /* the file's clock offset */
    int by_python;
    struct rp_sites gaps; /* the gaps' launching sites: kept to the end, since stacks are known by address */
};

static void free_frames(struct rp_frame *fr, size_t n)
{
    for (size_t i = 0; fr && i < n; i++) {
        if (fr[i].module)
            free(((struct rp_module *)fr[i].module)->path);
        free((void *)fr[i].module);
        free(fr[i].function);
        free(fr[i].srcfile);
        for (unsigned k = 0; k < fr[i].ninlined; k++) {
            free(fr[i].inlined[k].function);
            free(fr[i].inlined[k].srcfile);
        }
        free(fr[i].inlined);
    }
    free(fr);
}

void rp_an_stack_free(struct rp_stack *s) { free_frames(s->frames, s->nframes); }

/* A deep copy of the frames of s that the output reads.  0 or -1. */
static int copy_stack(struct rp_stack *d, const struct rp_stack *s)
{
    *d = (struct rp_stack){s->id, s->nframes, s->trimmed, s->python, 0, NULL};
    if (!s->nframes)
        return 0;
    if (!(d->frames = calloc(s->nframes, sizeof *d->frames)))
        return -1;
    for (unsigned i = 0; i < s->nframes; i++) {
        const struct rp_frame *f = &s->frames[i];
        struct rp_frame *g = &d->frames[i];
        *g = (struct rp_frame){f->addr, f->python, NULL, NULL, f->offset, NULL, f->line, NULL, 0};
        if (f->module) {
            struct rp_module *m = calloc(1, sizeof *m);
            if (!m)
                return -1;
            g->module = m;
            m->base = f->module->base;
            if (!(m->path = strdup(f->module->path ? f->module->path : "")))
                return -1;
        }
        if ((f->function && !(g->function = strdup(f->function))) || (f->srcfile && !(g->srcfile = strdup(f->srcfile))))
            return -1;
        if (f->ninlined && !(g->inlined = calloc(f->ninlined, sizeof *g->inlined)))
            return -1;
        for (; g->ninlined < f->ninlined; g->ninlined++) {
            const struct rp_inlined *x = &f->inlined[g->ninlined];
            struct rp_inlined *y = &g->inlined[g->ninlined];
            y->line = x->line;
            if ((x->function && !(y->function = strdup(x->function))) ||
                (x->srcfile && !(y->srcfile = strdup(x->srcfile)))) {
                g->ninlined++;
                return -1;
            }
        }
    }
    return 0;
}

/* The index + 1 of stack s among the part's (copied on first sight); 0 for none; (size_t)-1 when out of
 * memory. */
static size_t stack_ref(struct ctx *x, const struct rp_stack *s)
{
    if (!s)
        return 0;
    struct rp_u64map_entry *e = rp_u64map_get(&x->of, (uint64_t)(uintptr_t)s, 0);
    if (e)
        return (size_t)e->v1;
    struct rp_an_part *p = x->p;
    struct rp_stack *v = ct_grow(p->stacks, &x->cstacks, p->nstacks + 1, sizeof *v);
    if (!v)
        return (size_t)-1;
    p->stacks = v;
    if (copy_stack(&v[p->nstacks], s) < 0) {
        rp_an_stack_free(&v[p->nstacks]);
        return (size_t)-1;
    }
    p->nstacks++;
    return rp_u64map_put(&x->of, (uint64_t)(uintptr_t)s, 0, p->nstacks, 0) ? p->nstacks : (size_t)-1;
}

/* A site's key as rp_site_of or rp_site_python made it. */
static char *site_key(const struct ctx *x, const struct rp_site *s)
{
    if (x->by_python)
        return strdup(s->label ? s->label : "");
    char *sk = rp_stack_key(s->stack), *k = sk ? malloc(strlen(s->label) + strlen(sk) + 2) : NULL;
    if (k)
        sprintf(k, "%s\n%s", s->label, sk);
    free(sk);
    return k;
}

static int psites_of(struct ctx *x, struct rp_an_psites *d, const struct rp_sites *s)
{
    if (!s->n)
        return 0;
    if (!(d->v = calloc(s->n, sizeof *d->v)))
        return -1;
    for (; d->n < s->n; d->n++) {
        const struct rp_site *a = &s->v[d->n];
        struct rp_an_psite *b = &d->v[d->n];
        /* a memory site has no calls of its own: no first call either */
        *b = (struct rp_an_psite){NULL, NULL, NULL, a->count ? a->first_t0 - x->off : 0, a->count, a->bytes,
                                  a->total_ns, a->max_ns, 0};
        if (!(b->key = site_key(x, a)) || !(b->label = strdup(a->label ? a->label : "")) ||
            (a->range && !(b->range = strdup(a->range))) || (b->stack = stack_ref(x, a->stack)) == (size_t)-1) {
            d->n++;
            return -1;
        }
    }
    return 0;
}

static void psites_free(struct rp_an_psites *s)
{
    for (size_t i = 0; i < s->n; i++) {
        free(s->v[i].key);
        free(s->v[i].label);
        free(s->v[i].range);
    }
    free(s->v);
    memset(s, 0, sizeof *s);
}

/* The median duration of file f's ranges named `name` and how many there are. */
static double step_median(const struct rp_file *f, const char *name, uint64_t *n)
{
    struct rp_stats st;
    rp_stats_init(&st);
    for (size_t i = 0; i < f->nvtx.n; i++) {
        const struct rp_nvtx_range *r = &f->nvtx.r[i];
        const char *s = r->style == RP_NVTX_MARK ? NULL : rp_file_string(f, r->name_id);
        if (s && !strcmp(s, name))
            rp_stats_add(&st, r->t1 - r->t0);
    }
    *n = st.n;
    double m = rp_stats_median(&st);
    rp_stats_free(&st);
    return m;
}

/* The gap's launching call as part of the part: its API, NVTX range and stack as --group-by shows it. */
static int gap_of(struct ctx *x, struct rp_an *a, const struct rp_an_gap *g, struct rp_an_pgap *d)
{
    const struct rp_file *f = &a->t->files[g->file];
    char api[96];
    const struct rp_site *s = a->o->by_python ? rp_site_python(&x->gaps, a->t, g->file, g->stack_id)
                                              : rp_site_of(&x->gaps, a->t, g->file, g->stack_id, "", 0);
    *d = (struct rp_an_pgap){g->t0 - x->off, g->t1 - x->off, g->launch_t - x->off, NULL, NULL, 0, g->ncalls,
                             g->calls_ns, {NULL, 0}};
    const char *name = g->no_call ? RP_AN_NO_CALL : rp_file_api_name(f, g->api_id, api, sizeof api);
    int rc = s && (d->api = strdup(name)) && (d->stack = stack_ref(x, s->stack)) != (size_t)-1 ? 0 : -1;
    const char *range = g->no_call ? NULL : rp_an_range_at(a->t, g->file, g->tid, g->launch_t);
    if (rc == 0 && range && !(d->range = strdup(range)))
        rc = -1;
    return rc < 0 ? -1 : psites_of(x, &d->during, &g->during);
}

/* The memory changes, each with its site (by the allocating call's stack). */
static int memory_of(struct ctx *x, struct rp_an *a, size_t fi)
{
    struct rp_an_part *p = x->p;
    struct rp_memtrack *m = &a->files[fi].mem;
    struct rp_sites tmp = {0};
    int rc = -1;
    p->changes = m->changes;
    p->nchanges = m->nchanges;
    memset(&m->changes, 0, sizeof m->changes);
    if (p->nchanges && !(p->change_site = calloc(p->nchanges, sizeof *p->change_site)))
        goto out;
    struct rp_rd rd = rp_rd_of(m->change_stacks.p, m->change_stacks.n);
    for (uint64_t i = 0; i < p->nchanges; i++) {
        uint32_t id = (uint32_t)rp_get_var(&rd);
        struct rp_site *s = a->o->by_python ? rp_site_python(&tmp, a->t, fi, id)
                                            : rp_site_of(&tmp, a->t, fi, id, "", 0);
        if (!s)
            goto out;
        p->change_site[i] = (uint32_t)(s - tmp.v);
    }
    rc = psites_of(x, &p->memsites, &tmp);
out:
    rp_sites_free(&tmp);
    return rc;
}

int rp_an_part_of(struct rp_an *a, size_t i, struct rp_an_part *p)
{
    const struct rp_file *f = &a->t->files[i];
    const struct rp_an_file *af = &a->files[i];
    struct ctx x = {p, {0}, 0, f->clock_offset, a->o->by_python, {0}};
    char label[64];
    memset(p, 0, sizeof *p);
    p->start_wall_ns = f->hdr.start_wall_ns;
    p->start_mono_ns = f->hdr.start_mono_ns;
    p->calls = f->calls != 0;
    p->first_t0 = p->calls ? f->first_t0 : 0; /* without calls, no extent (a reader checks times' range) */
    p->last_t1 = p->calls ? f->last_t1 : 0;
    p->has_end = f->has_end;
    p->end_mono_ns = f->has_end ? f->end.end_mono_ns : 0;
    p->rank = f->rank.rank;
    p->timed_all = af->timed_all;
    p->has_stacks = rp_file_has_stacks(f);
    p->steady_t = af->steady_t - x.off;
    p->win_ns = af->win_ns;
    for (uint64_t w = 0; af->win && w < af->nwin; w++)
        if (af->win[w].launch_ns > af->win[w].busy_ns && af->win[w].launches) {
            p->lb_lost_ns += af->win[w].launch_ns - af->win[w].busy_ns;
            p->lb_launches += af->win[w].launches;
            p->lb_launch_ns += af->win[w].launch_ns;
            p->lb_busy_ns += af->win[w].busy_ns;
            p->lb_windows++;
        }
    p->busy_ns = af->busy_ns;
    p->collective_ns = af->collective_ns;
    if (p->rank >= 0)
        p->step_ns = step_median(f, a->o->step_range, &p->steps);
    int rc = -1;
    p->ncalls = f->calls;
    p->pid = f->hdr.pid;
    p->records = rp_file_records(f);
    if (!(p->host = strdup(f->host ? f->host : "")) || !(p->label = strdup(rp_file_label(f, label, sizeof label))) ||
        !(p->path = strdup(f->path)) || (f->status != CT_READ_OK && f->message && !(p->damage = strdup(f->message))))
        goto out;
    for (int r = 0; r <= RP_AN_SMALL; r++)
        if (psites_of(&x, &p->hsites[r], &af->host.sites[r]) < 0)
            goto out;
    if (psites_of(&x, &p->launch, &af->launch_sites) < 0)
        goto out;
    if (af->ndevs && !(p->devs = calloc(af->ndevs, sizeof *p->devs)))
        goto out;
    for (; p->ndevs < af->ndevs; p->ndevs++) {
        const struct rp_an_device *d = &a->devs[af->devs[p->ndevs]];
        struct rp_an_pdev *e = &p->devs[p->ndevs];
        e->device = d->device;
        e->busy_ns = d->busy_ns;
        e->idle_ns = d->idle_ns;
        e->ngaps = d->ngaps;
        e->first = d->first - x.off;
        e->frontier = d->frontier - x.off;
        for (; e->ntop < d->ntop; e->ntop++)
            if (gap_of(&x, a, &d->top[e->ntop], &e->top[e->ntop]) < 0) {
                e->ntop++;
                p->ndevs++;
                goto out;
            }
    }
    rc = memory_of(&x, a, i);
out:
    rp_u64map_free(&x.of);
    rp_sites_free(&x.gaps);
    return rc;
}

void rp_an_part_free(struct rp_an_part *p)
{
    free(p->host);
    free(p->label);
    free(p->path);
    free(p->damage);
    for (int r = 0; r <= RP_AN_SMALL; r++)
        psites_free(&p->hsites[r]);
    psites_free(&p->launch);
    for (size_t i = 0; i < p->ndevs; i++)
        for (size_t j = 0; j < p->devs[i].ntop; j++) {
            free(p->devs[i].top[j].api);
            free(p->devs[i].top[j].range);
            psites_free(&p->devs[i].top[j].during);
        }
    free(p->devs);
    psites_free(&p->memsites);
    rp_bytes_free(&p->changes);
    free(p->change_site);
    for (size_t i = 0; i < p->nstacks; i++)
        rp_an_stack_free(&p->stacks[i]);
    free(p->stacks);
    memset(p, 0, sizeof *p);
}
