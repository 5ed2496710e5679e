/* The ranks rule: with the traces of several ranks, each rank's GPU busy time, time in collectives (NCCL's
 * kernels) and step time (its --step-range NVTX ranges), and the slowest rank.
 *
 * A rank that is slow makes the others wait for it in every collective, so it spends the least time
 * there and the most computing.  Its load, GPU busy time less twice its time in collectives (its compute
 * time, less what it waited), is the largest: a rank slowed on the GPU leads in compute, one slowed on
 * the host (so that the others' collectives start earlier and wait longer) in waiting least. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "report/analyze/rules.h"
#include "report/model/stats.h"

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

int rp_an_ranks(struct rp_an *a, struct rp_an_result *r)
{
    const struct rp_trace *t = a->t;
    if (!a->ranks)
        return 0;
    if (!(r->ranks = calloc(t->nfiles, sizeof *r->ranks)))
        return -1;
    for (size_t i = 0; i < t->nfiles; i++) {
        const struct rp_file *f = &t->files[i];
        if (f->rank.rank < 0)
            continue;
        struct rp_an_rank *k = &r->ranks[r->nranks++];
        k->file = i;
        k->rank = f->rank.rank;
        k->busy_ns = a->files[i].busy_ns;
        k->collective_ns = a->files[i].collective_ns;
        k->step_ns = step_median(f, a->o->step_range, &k->steps);
        k->load_ns = (int64_t)k->busy_ns - 2 * (int64_t)k->collective_ns;
    }
    r->slowest = r->nranks;
    uint64_t busy = 0;
    for (size_t i = 0; i < r->nranks; i++)
        busy += r->ranks[i].busy_ns;
    if (r->nranks < 2 || !busy) /* no rank's GPU work was timed: none is the slowest */
        return 0;
    size_t slow = 0;
    int64_t others = 0;
    for (size_t i = 1; i < r->nranks; i++)
        if (r->ranks[i].load_ns > r->ranks[slow].load_ns)
            slow = i;
    for (size_t i = 0; i < r->nranks; i++)
        if (i != slow)
            others += r->ranks[i].load_ns;
    others /= (int64_t)(r->nranks - 1);
    r->slowest = slow;
    const struct rp_an_rank *s = &r->ranks[slow];
    uint64_t lead = s->load_ns > others ? (uint64_t)(s->load_ns - others) : 0;
    if (!s->busy_ns || !a->run_ns || (double)lead < a->o->rank_share * (double)a->run_ns)
        return 0;
    struct rp_an_finding *f = rp_an_add(r, RP_AN_RANKS, lead);
    if (!f)
        return -1;
    char label[64];
    snprintf(f->where, sizeof f->where, "%s", rp_file_label(&t->files[s->file], label, sizeof label));
    rp_an_fig(f, "slowest_rank", "the slowest", RP_AN_RANK, s->rank);
    rp_an_fig(f, "ranks", "ranks", RP_AN_COUNT, (double)r->nranks);
    rp_an_fig(f, "busy_ns", "its GPU time busy", RP_AN_TIME, (double)s->busy_ns);
    rp_an_fig(f, "collective_ns", "its time in collectives", RP_AN_TIME, (double)s->collective_ns);
    rp_an_fig(f, "lead_ns", "its load over the others' mean", RP_AN_TIME, (double)lead);
    return 0;
}
