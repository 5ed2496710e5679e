/* The memory rule: what is still allocated at exit, by the site that allocated it (a finding when it
 * reaches --leak-bytes), and the sites that held the peak of device memory (shown after the findings),
 * from the trackers of model/memory.h as the memory command keeps them: the end state after pass 1, the
 * state at the peak's call replayed in pass 2. */
#include "config.h"

#include "report/analyze/rules.h"

/* The live bytes of a tracker by site (device_only: device memory's alone). */
static int group(struct rp_an *a, struct rp_sites *out, const struct rp_memtrack *m, int device_only)
{
    for (size_t i = 0; i < m->sites.cap; i++) {
        const struct rp_u64map_entry *e = &m->sites.e[i];
        if (!(e->k2 >> 63) || !e->v2 || (device_only && (e->k2 & RP_SITE_OFF_DEVICE)))
            continue;
        size_t file = (size_t)(e->k2 & ~(1ull << 63 | RP_SITE_OFF_DEVICE));
        struct rp_site *s = a->o->by_python ? rp_site_python(out, a->t, file, (uint32_t)e->k1)
                                            : rp_site_of(out, a->t, file, (uint32_t)e->k1, "", 0);
        if (!s)
            return -1;
        s->bytes += e->v1;
        s->count += e->v2;
    }
    rp_sites_sort_bytes(out);
    return 0;
}

int rp_an_memory(struct rp_an *a, struct rp_an_result *r)
{
    if (group(a, &r->leaks, &a->mem, 0) < 0 || group(a, &r->peak, &a->at_peak, 1) < 0)
        return -1;
    r->peak_bytes = a->mem.device.peak_bytes;
    r->peak_t = a->mem.device.peak_t;
    uint64_t bytes = 0, count = 0;
    for (size_t i = 0; i < r->leaks.n; i++) {
        bytes += r->leaks.v[i].bytes;
        count += r->leaks.v[i].count;
    }
    if (!r->leaks.n || bytes < a->o->leak_bytes)
        return 0;
    struct rp_an_finding *f = rp_an_add(r, RP_AN_LEAK, 0);
    if (!f)
        return -1;
    f->bytes = bytes;
    f->sites = &r->leaks;
    f->nsites = r->leaks.n;
    rp_an_fig(f, "bytes", "bytes still allocated", RP_AN_BYTES, (double)bytes);
    rp_an_fig(f, "allocations", "allocations", RP_AN_COUNT, (double)count);
    rp_an_fig(f, "sites", "call sites", RP_AN_COUNT, (double)r->leaks.n);
    return 0;
}
