/* `--range NAME[@DOMAIN]` of calls and summary: keep the calls made inside an NVTX range of that message
 * (and domain; without one, of any domain), on the thread that pushed or started it.  Per file, the matching
 * ranges become sorted, merged intervals per thread; a call is looked up by binary search. */
#ifndef CT_REPORT_MODEL_RANGE_FILTER_H
#define CT_REPORT_MODEL_RANGE_FILTER_H

#include <stddef.h>

#include "report/model/trace.h"

struct rp_interval;
struct rp_range_filter {
    struct rp_interval **iv; /* per file, sorted by (tid, t0) */
    size_t *n;
    size_t nfiles;
    size_t ranges;           /* ranges that matched, in all files */
};

/* 0, or -1 when out of memory (message printed). */
int rp_range_filter_init(struct rp_range_filter *rf, const struct rp_trace *t, const char *spec);
/* Does the call start inside one of the ranges of its thread? */
int rp_range_filter_keep(const struct rp_range_filter *rf, const struct rp_call *c);
void rp_range_filter_free(struct rp_range_filter *rf);

#endif
