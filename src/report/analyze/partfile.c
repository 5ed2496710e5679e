#include "config.h"

#include "report/analyze/partfile.h"

#include <stdlib.h>
#include <string.h>

#include "report/model/bytes.h"
#include "report/model/partial_file.h"
#include "report/model/trace.h"

#define PROG "cudatrace-report"
#define MAX_FRAMES 65535u

/* A time of the file's clock (CLOCK_MONOTONIC: since boot) from 0 to below 2^60 ns (36 years), and its
 * start on the wall clock below 2^62 ns (the year 2116): clock offsets (wall - monotonic) then lie within
 * (-2^60, 2^62), times on the report clock within (-2^60, 2^62 + 2^60), and the merge's sums and the
 * output's differences of them within 64 bits whatever the bytes say.  The reader refuses a partial with
 * any other; the writer is not given one (rp_an_part_misfit). */
#define MAX_TIME ((int64_t)1 << 60)
#define MAX_WALL ((int64_t)1 << 62)
static int fits(int64_t t, int64_t max) { return t >= 0 && t < max; }
static int time_fits(int64_t t) { return fits(t, MAX_TIME); }
static int utime_fits(uint64_t t) { return t < (uint64_t)MAX_TIME; }

static int sites_fit(const struct rp_an_psites *s)
{
    for (size_t i = 0; i < s->n; i++)
        if (!time_fits(s->v[i].first_t0))
            return 0;
    return 1;
}

const char *rp_an_part_misfit(const struct rp_an_part *p)
{
    if (!fits(p->start_wall_ns, MAX_WALL))
        return "its start on the wall clock";
    if (!time_fits(p->start_mono_ns) || !time_fits(p->end_mono_ns))
        return "its start or end";
    if (!utime_fits(p->first_t0) || !utime_fits(p->last_t1) || !time_fits(p->steady_t))
        return "a call's time";
    if (!utime_fits(p->busy_ns) || !utime_fits(p->collective_ns))
        return "its busy time";
    int ok = sites_fit(&p->launch) && sites_fit(&p->memsites);
    for (int k = 0; ok && k <= RP_AN_SMALL; k++)
        ok = sites_fit(&p->hsites[k]);
    if (!ok)
        return "a call site's first call";
    for (size_t i = 0; i < p->ndevs; i++) {
        const struct rp_an_pdev *d = &p->devs[i];
        ok = time_fits(d->first) && time_fits(d->frontier);
        for (size_t j = 0; ok && j < d->ntop; j++)
            ok = time_fits(d->top[j].t0) && time_fits(d->top[j].t1) && time_fits(d->top[j].launch_t) &&
                 sites_fit(&d->top[j].during);
        if (!ok)
            return "a GPU's idle time";
    }
    return NULL;
}

void rp_an_part_leave_out(struct rp_an_part *p, char *damage)
{
    const struct rp_an_part was = *p;
    memset(p, 0, sizeof *p); /* what it held is freed below, but for what the stub keeps */
    p->host = was.host;
    p->label = was.label;
    p->path = was.path;
    p->damage = damage;
    p->pid = was.pid;
    p->rank = was.rank;
    /* each time kept where it fits: the starts tell copies of one process apart (take_once) */
    p->start_wall_ns = fits(was.start_wall_ns, MAX_WALL) ? was.start_wall_ns : 0;
    p->start_mono_ns = time_fits(was.start_mono_ns) ? was.start_mono_ns : 0;
    p->has_end = was.has_end && time_fits(was.end_mono_ns);
    p->end_mono_ns = p->has_end ? was.end_mono_ns : 0;
    /* records 0: of two copies of the process, a good one is taken (rp_same_process_take_later) */
    struct rp_an_part rest = was;
    rest.host = rest.label = rest.path = NULL;
    rp_an_part_free(&rest);
}

/* Such a stub, or a trace cut within its first record: the reader said why, and nothing of it was read. */
int rp_an_part_left_out(const struct rp_an_part *p) { return p->damage && !p->calls && !p->records; }

/* ---- writing ---- */

/* A string that may be NULL: u8 present, then the string. */
static void put_opt(struct rp_bytes *b, const char *s)
{
    rp_put_u8(b, s != NULL);
    if (s)
        rp_put_str(b, s);
}

static void put_stack(struct rp_bytes *b, const struct rp_stack *s)
{
    rp_put_var(b, s->id);
    rp_put_var(b, s->nframes);
    rp_put_var(b, s->trimmed);
    rp_put_u8(b, (uint8_t)(s->python != 0));
    for (unsigned i = 0; i < s->nframes; i++) {
        const struct rp_frame *f = &s->frames[i];
        rp_put_var(b, f->addr);
        rp_put_u8(b, (uint8_t)(f->python != 0));
        put_opt(b, f->module ? f->module->path : NULL);
        if (f->module)
            rp_put_var(b, f->module->base);
        put_opt(b, f->function);
        rp_put_var(b, f->offset);
        put_opt(b, f->srcfile);
        rp_put_var(b, f->line);
        rp_put_var(b, f->ninlined);
        for (unsigned k = 0; k < f->ninlined; k++) {
            put_opt(b, f->inlined[k].function);
            put_opt(b, f->inlined[k].srcfile);
            rp_put_var(b, f->inlined[k].line);
        }
    }
}

static void put_sites(struct rp_bytes *b, const struct rp_an_psites *s)
{
    rp_put_var(b, s->n);
    for (size_t i = 0; i < s->n; i++) {
        const struct rp_an_psite *q = &s->v[i];
        rp_put_str(b, q->key);
        rp_put_str(b, q->label);
        put_opt(b, q->range);
        rp_put_svar(b, q->first_t0);
        rp_put_var(b, q->count);
        rp_put_var(b, q->bytes);
        rp_put_var(b, q->total_ns);
        rp_put_var(b, q->max_ns);
        rp_put_var(b, q->stack);
    }
}

static void put_part(struct rp_bytes *b, const struct rp_an_part *p)
{
    rp_put_str(b, p->host);
    rp_put_svar(b, p->start_wall_ns);
    rp_put_svar(b, p->start_mono_ns);
    rp_put_u8(b, (uint8_t)(p->calls != 0));
    rp_put_var(b, p->first_t0);
    rp_put_var(b, p->last_t1);
    rp_put_u8(b, (uint8_t)(p->has_end != 0));
    rp_put_svar(b, p->end_mono_ns);
    rp_put_str(b, p->label);
    rp_put_str(b, p->path);
    rp_put_u8(b, (uint8_t)(p->damage != NULL));
    if (p->damage)
        rp_put_str(b, p->damage);
    rp_put_var(b, p->ncalls);
    rp_put_var(b, p->pid);
    rp_put_var(b, p->records);
    rp_put_svar(b, p->rank);
    rp_put_u8(b, (uint8_t)(p->timed_all != 0));
    rp_put_u8(b, (uint8_t)(p->has_stacks != 0));
    rp_put_svar(b, p->steady_t);
    rp_put_var(b, p->win_ns);
    rp_put_var(b, p->lb_windows);
    rp_put_var(b, p->lb_launches);
    rp_put_var(b, p->lb_launch_ns);
    rp_put_var(b, p->lb_busy_ns);
    rp_put_var(b, p->lb_lost_ns);
    rp_put_var(b, p->busy_ns);
    rp_put_var(b, p->collective_ns);
    rp_put_var(b, p->steps);
    rp_put_f64(b, p->step_ns);
    rp_put_var(b, p->nstacks);
    for (size_t i = 0; i < p->nstacks; i++)
        put_stack(b, &p->stacks[i]);
    for (int r = 0; r <= RP_AN_SMALL; r++)
        put_sites(b, &p->hsites[r]);
    put_sites(b, &p->launch);
    rp_put_var(b, p->ndevs);
    for (size_t i = 0; i < p->ndevs; i++) {
        const struct rp_an_pdev *d = &p->devs[i];
        rp_put_svar(b, d->device);
        rp_put_var(b, d->busy_ns);
        rp_put_var(b, d->idle_ns);
        rp_put_var(b, d->ngaps);
        rp_put_svar(b, d->first);
        rp_put_svar(b, d->frontier);
        rp_put_var(b, d->ntop);
        for (size_t j = 0; j < d->ntop; j++) {
            const struct rp_an_pgap *g = &d->top[j];
            rp_put_svar(b, g->t0);
            rp_put_svar(b, g->t1);
            rp_put_svar(b, g->launch_t);
            rp_put_str(b, g->api);
            put_opt(b, g->range);
            rp_put_var(b, g->stack);
            rp_put_var(b, g->ncalls);
            rp_put_var(b, g->calls_ns);
            put_sites(b, &g->during);
        }
    }
    put_sites(b, &p->memsites);
    rp_put_var(b, p->nchanges);
    rp_put_var(b, p->changes.n);
    rp_put_raw(b, p->changes.p, p->changes.n);
    for (uint64_t i = 0; i < p->nchanges; i++)
        rp_put_var(b, p->change_site[i]);
}

static const struct rp_partial_kind kind = {RP_AN_PARTIAL_MAGIC, RP_AN_PARTIAL_VERSION, "analyze"};

int rp_an_partial_write(FILE *f, const struct rp_an_mapopts *o, const struct rp_an_part *p, size_t n)
{
    struct rp_bytes body = {0};
    rp_put_f64(&body, o->warmup);
    rp_put_var(&body, o->idle_gap_ns);
    rp_put_var(&body, o->small_bytes);
    rp_put_var(&body, o->window_ns);
    rp_put_var(&body, o->launch_interval_ns);
    rp_put_u8(&body, (uint8_t)(o->by_python != 0));
    rp_put_str(&body, o->step_range);
    rp_put_var(&body, n);
    for (size_t i = 0; i < n; i++)
        put_part(&body, &p[i]);
    const int rc = rp_partial_file_write(f, &kind, &body);
    rp_bytes_free(&body);
    return rc;
}

/* ---- reading: every count is checked against the bytes left before anything is allocated ---- */


static int64_t get_bounded(struct rp_rd *r, int64_t max)
{
    const int64_t t = rp_get_svar(r);
    if (!fits(t, max))
        r->bad = 1;
    return r->bad ? 0 : t;
}

static int64_t get_time(struct rp_rd *r) { return get_bounded(r, MAX_TIME); }

static uint64_t get_utime(struct rp_rd *r)
{
    const uint64_t t = rp_get_var(r);
    if (!utime_fits(t))
        r->bad = 1;
    return r->bad ? 0 : t;
}

/* A string (or with `opt`, one that may be absent): 0, or -1 (bad set when corrupt). */
static int get_str(struct rp_rd *r, char **s, int opt)
{
    *s = NULL;
    if (opt && !rp_get_u8(r))
        return r->bad ? -1 : 0;
    return (*s = rp_get_str(r)) ? 0 : -1;
}

static int get_stack(struct rp_rd *r, struct rp_stack *s)
{
    memset(s, 0, sizeof *s);
    s->id = (uint32_t)rp_get_var(r);
    const uint64_t nf = rp_get_count(r, 9, MAX_FRAMES);
    s->trimmed = (uint16_t)rp_get_var(r);
    s->python = rp_get_u8(r) != 0;
    if (r->bad)
        return -1;
    if (nf && !(s->frames = calloc(nf, sizeof *s->frames)))
        return -1;
    while (s->nframes < nf) {
        struct rp_frame *f = &s->frames[s->nframes++]; /* counted at once: freed with the stack if cut short */
        char *path;
        f->addr = rp_get_var(r);
        f->python = rp_get_u8(r) != 0;
        if (get_str(r, &path, 1) < 0)
            return -1;
        if (path) {
            struct rp_module *m = calloc(1, sizeof *m);
            if (!m) {
                free(path);
                return -1;
            }
            m->path = path;
            m->base = rp_get_var(r);
            f->module = m;
        }
        if (get_str(r, &f->function, 1) < 0)
            return -1;
        f->offset = rp_get_var(r);
        if (get_str(r, &f->srcfile, 1) < 0)
            return -1;
        f->line = (unsigned)rp_get_var(r);
        const uint64_t ni = rp_get_count(r, 3, MAX_FRAMES);
        if (r->bad || (ni && !(f->inlined = calloc(ni, sizeof *f->inlined))))
            return -1;
        for (; f->ninlined < ni; f->ninlined++) {
            struct rp_inlined *x = &f->inlined[f->ninlined];
            if (get_str(r, &x->function, 1) < 0 || get_str(r, &x->srcfile, 1) < 0) {
                f->ninlined++;
                return -1;
            }
            x->line = (unsigned)rp_get_var(r);
        }
        if (f->python && (!f->srcfile || !f->function)) /* frames.c reads both of a Python frame */
            return r->bad = 1, -1;
    }
    return r->bad ? -1 : 0;
}

static int get_sites(struct rp_rd *r, struct rp_an_psites *s, size_t nstacks)
{
    const uint64_t n = rp_get_count(r, 10, UINT64_MAX);
    if (r->bad || (n && !(s->v = calloc(n, sizeof *s->v))))
        return -1;
    for (; s->n < n; s->n++) {
        struct rp_an_psite *q = &s->v[s->n];
        if (get_str(r, &q->key, 0) < 0 || get_str(r, &q->label, 0) < 0 || get_str(r, &q->range, 1) < 0) {
            s->n++;
            return -1;
        }
        q->first_t0 = get_time(r);
        q->count = rp_get_var(r);
        q->bytes = rp_get_var(r);
        q->total_ns = rp_get_var(r);
        q->max_ns = rp_get_var(r);
        q->stack = (size_t)rp_get_var(r);
        if (q->stack > nstacks)
            r->bad = 1;
    }
    return r->bad ? -1 : 0;
}

static int get_part(struct rp_rd *r, struct rp_an_part *p)
{
    if (get_str(r, &p->host, 0) < 0)
        return -1;
    p->start_wall_ns = get_bounded(r, MAX_WALL);
    p->start_mono_ns = get_time(r);
    p->calls = rp_get_u8(r) != 0;
    p->first_t0 = get_utime(r);
    p->last_t1 = get_utime(r);
    p->has_end = rp_get_u8(r) != 0;
    p->end_mono_ns = get_time(r);
    if (get_str(r, &p->label, 0) < 0 || get_str(r, &p->path, 0) < 0 || get_str(r, &p->damage, 1) < 0)
        return -1;
    p->ncalls = rp_get_var(r);
    p->pid = (uint32_t)rp_get_var(r);
    p->records = rp_get_var(r);
    p->rank = (int32_t)rp_get_svar(r);
    p->timed_all = rp_get_u8(r) != 0;
    p->has_stacks = rp_get_u8(r) != 0;
    p->steady_t = get_time(r);
    p->win_ns = rp_get_var(r);
    p->lb_windows = rp_get_var(r);
    p->lb_launches = rp_get_var(r);
    p->lb_launch_ns = rp_get_var(r);
    p->lb_busy_ns = rp_get_var(r);
    p->lb_lost_ns = rp_get_var(r);
    p->busy_ns = get_utime(r); /* bounded: the ranks' loads are differences and sums of them */
    p->collective_ns = get_utime(r);
    p->steps = rp_get_var(r);
    p->step_ns = rp_get_f64(r);
    const uint64_t ns = rp_get_count(r, 4, UINT64_MAX);
    if (r->bad || (ns && !(p->stacks = calloc(ns, sizeof *p->stacks))))
        return -1;
    for (; p->nstacks < ns; p->nstacks++)
        if (get_stack(r, &p->stacks[p->nstacks]) < 0) {
            p->nstacks++;
            return -1;
        }
    for (int k = 0; k <= RP_AN_SMALL; k++)
        if (get_sites(r, &p->hsites[k], p->nstacks) < 0)
            return -1;
    if (get_sites(r, &p->launch, p->nstacks) < 0)
        return -1;
    const uint64_t nd = rp_get_count(r, 8, UINT64_MAX);
    if (r->bad || (nd && !(p->devs = calloc(nd, sizeof *p->devs))))
        return -1;
    for (; p->ndevs < nd; p->ndevs++) {
        struct rp_an_pdev *d = &p->devs[p->ndevs];
        d->device = (int32_t)rp_get_svar(r);
        d->busy_ns = rp_get_var(r);
        d->idle_ns = rp_get_var(r);
        d->ngaps = rp_get_var(r);
        d->first = get_time(r);
        d->frontier = get_time(r);
        const uint64_t nt = rp_get_count(r, 1, RP_AN_TOP_GAPS);
        if (r->bad) {
            p->ndevs++;
            return -1;
        }
        for (; d->ntop < nt; d->ntop++) {
            struct rp_an_pgap *g = &d->top[d->ntop];
            g->t0 = get_time(r);
            g->t1 = get_time(r);
            g->launch_t = get_time(r);
            if (get_str(r, &g->api, 0) < 0 || get_str(r, &g->range, 1) < 0) {
                d->ntop++;
                p->ndevs++;
                return -1;
            }
            g->stack = (size_t)rp_get_var(r);
            g->ncalls = rp_get_var(r);
            g->calls_ns = rp_get_var(r);
            if (g->stack > p->nstacks)
                r->bad = 1;
            if (r->bad || get_sites(r, &g->during, p->nstacks) < 0) {
                d->ntop++;
                p->ndevs++;
                return -1;
            }
        }
    }
    if (get_sites(r, &p->memsites, p->nstacks) < 0)
        return -1;
    p->nchanges = rp_get_var(r);
    const uint64_t len = rp_get_count(r, 1, UINT64_MAX);
    const void *ch = rp_get_raw(r, (size_t)len);
    /* a change takes at least 4 bytes and its site one more */
    if (r->bad || p->nchanges > len / 4 || p->nchanges > (uint64_t)(r->end - r->p))
        return r->bad = 1, -1;
    if (!rp_mem_changes_ok(ch, (size_t)len, p->nchanges))
        return r->bad = 1, -1;
    rp_put_raw(&p->changes, ch, (size_t)len);
    if (p->changes.oom || (p->nchanges && !(p->change_site = calloc(p->nchanges, sizeof *p->change_site))))
        return -1;
    for (uint64_t i = 0; i < p->nchanges; i++) {
        const uint64_t site = rp_get_var(r);
        if (site >= p->memsites.n)
            return r->bad = 1, -1;
        p->change_site[i] = (uint32_t)site;
    }
    return r->bad ? -1 : 0;
}

int rp_an_partial_is(const char *path) { return rp_partial_file_is(path, &kind); }

int rp_an_partial_read(const char *path, struct rp_an_mapopts *o, struct rp_an_part **pp, size_t *np)
{
    *pp = NULL;
    *np = 0;
    memset(o, 0, sizeof *o);
    unsigned char *p;
    struct rp_rd r;
    int rc = rp_partial_file_read(path, &kind, &p, &r);
    if (rc != RP_EXIT_OK)
        return rc;
    char *step = NULL;
    o->warmup = rp_get_f64(&r);
    o->idle_gap_ns = rp_get_var(&r);
    o->small_bytes = rp_get_var(&r);
    o->window_ns = rp_get_var(&r);
    o->launch_interval_ns = rp_get_var(&r);
    o->by_python = rp_get_u8(&r) != 0;
    rc = get_str(&r, &step, 0) < 0 ? (r.bad ? RP_EXIT_DAMAGED : RP_EXIT_FAILED) : RP_EXIT_OK;
    if (rc == RP_EXIT_OK && !(o->warmup >= 0 && o->warmup <= 1 && o->window_ns))
        rc = RP_EXIT_DAMAGED;
    const uint64_t n = rc == RP_EXIT_OK ? rp_get_count(&r, 16, UINT64_MAX) : 0;
    struct rp_an_part *parts = rc == RP_EXIT_OK ? calloc(n ? n : 1, sizeof *parts) : NULL;
    if (rc == RP_EXIT_OK && !parts)
        rc = RP_EXIT_FAILED;
    size_t got = 0;
    for (; got < n && rc == RP_EXIT_OK; got++)
        if (get_part(&r, &parts[got]) < 0)
            rc = r.bad ? RP_EXIT_DAMAGED : RP_EXIT_FAILED;
    if (rc == RP_EXIT_OK && (r.bad || r.p != r.end))
        rc = RP_EXIT_DAMAGED;
    free(p);
    if (rc != RP_EXIT_OK) {
        if (rc == RP_EXIT_DAMAGED)
            rp_partial_file_faulty(path, &kind);
        else
            fprintf(stderr, PROG ": out of memory\n");
        for (size_t i = 0; i < got && parts; i++)
            rp_an_part_free(&parts[i]);
        free(parts);
        free(step);
        return rc;
    }
    o->step_range = step;
    *pp = parts;
    *np = (size_t)n;
    return RP_EXIT_OK;
}
