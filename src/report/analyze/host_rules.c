/* The rules that look at each call on the host: synchronizing calls, asynchronous copies of pageable
 * memory, allocation churn and small copies.  Each adds the call to its site (by stack or Python line) when
 * the call falls in the steady state; analyze.c keeps the sites with enough calls. */
#include "config.h"

#include <string.h>

#include "report/analyze/rules.h"

/* Is `name` (a display name) `base` or one of its per-thread-stream forms (_ptsz, _ptds)? */
static int is_api(const char *name, const char *base)
{
    size_t n = strlen(base);
    return !strncmp(name, base, n) && (!name[n] || !strcmp(name + n, "_ptsz") || !strcmp(name + n, "_ptds"));
}

/* Does the call make the host wait for the GPU?  The synchronize calls; copies that are not asynchronous,
 * but those between two device buffers (the driver queues them); sets of host-visible memory (pinned or
 * managed: the others are queued as well); frees of device or pinned memory, which wait for the device to
 * finish with it.  (The CUDA documentation, "API synchronization behavior".) */
static int synchronizes(const struct rp_call *c, const char *name)
{
    const struct ct_call *k = c->call;
    if (k->family == CT_FAM_COPY) {
        const struct ct_pl_copy *p = &k->pl.copy;
        if (p->flags & CT_COPY_ASYNC)
            return 0;
        if (p->flags & CT_COPY_SET)
            return p->dst_kind == CT_MEM_PINNED || p->dst_kind == CT_MEM_MANAGED;
        return !(p->src_kind == CT_MEM_DEVICE && p->dst_kind == CT_MEM_DEVICE);
    }
    if (k->family == CT_FAM_FREE)
        return (k->pl.free.kind == CT_MEM_DEVICE || k->pl.free.kind == CT_MEM_PINNED) &&
               (is_api(name, "cuMemFree") || is_api(name, "cuMemFreeHost"));
    return is_api(name, "cuCtxSynchronize") || is_api(name, "cuStreamSynchronize") ||
           is_api(name, "cuEventSynchronize");
}

static void add(struct rp_an *a, enum rp_an_rule rule, const struct rp_call *c, const struct rp_api_entry *api,
                uint64_t bytes)
{
    struct rp_site *s = rp_an_site(a, &a->files[c->file_index].host.sites[rule], c, api);
    if (!s)
        return;
    uint64_t ns = c->t1 > c->t0 ? (uint64_t)(c->t1 - c->t0) : 0;
    s->count++;
    s->bytes += bytes;
    s->total_ns += ns;
    if (ns > s->max_ns)
        s->max_ns = ns;
}

void rp_an_host_call(struct rp_an *a, const struct rp_call *c, const struct rp_api_entry *api, int steady)
{
    const struct ct_call *k = c->call;
    if (!steady || k->c.result != 0)
        return;
    if (synchronizes(c, api->name))
        add(a, RP_AN_SYNC, c, api, k->family == CT_FAM_COPY ? k->pl.copy.bytes : 0);
    if (k->family == CT_FAM_COPY && !(k->pl.copy.flags & CT_COPY_SET)) {
        const struct ct_pl_copy *p = &k->pl.copy;
        if ((p->flags & CT_COPY_ASYNC) && (p->src_kind == CT_MEM_HOST || p->dst_kind == CT_MEM_HOST))
            add(a, RP_AN_PAGEABLE, c, api, p->bytes);
        if (p->bytes < a->o->small_bytes)
            add(a, RP_AN_SMALL, c, api, p->bytes);
    }
    if (k->family == CT_FAM_ALLOC && k->pl.alloc.kind != CT_MEM_VMM_MAP)
        add(a, RP_AN_CHURN, c, api, k->pl.alloc.bytes);
}

void rp_an_host_free(struct rp_an_host *h)
{
    for (size_t i = 0; i < sizeof h->sites / sizeof h->sites[0]; i++)
        rp_sites_free(&h->sites[i]);
}
