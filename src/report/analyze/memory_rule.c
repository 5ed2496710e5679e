/* The memory rule: what is still allocated at exit, by the site that allocated it (a finding when it
 * reaches --leak-bytes), and the sites that held the peak of device memory (shown after the findings),
 * from the trackers of model/memory.h as the memory command keeps them: the end state after pass 1, the
 * state at the peak's call replayed in pass 2. */
#include "config.h"

#include "report/analyze/rules.h"

int rp_an_memory(struct rp_an *a, struct rp_an_result *r)
{
    if (rp_sites_of_memory(&r->leaks, a->t, &a->mem, a->o->by_python, 0) < 0 ||
        rp_sites_of_memory(&r->peak, a->t, &a->at_peak, a->o->by_python, 1) < 0)
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
