/* Call sites: calls grouped by where they came from (the module offsets of their stack, frames.h's key)
 * and a label (the API for the stacks command), across files and processes.  A call without a recorded
 * stack falls in the site of no stack. */
#ifndef CT_REPORT_MODEL_SITES_H
#define CT_REPORT_MODEL_SITES_H

#include <stddef.h>
#include <stdint.h>

#include "report/model/map.h"
#include "report/model/memory.h"
#include "report/model/stacktab.h"
#include "report/model/trace.h"

struct rp_site {
    const struct rp_stack *stack; /* the first seen; NULL when no stack was recorded */
    char *label;                  /* "" when none */
    uint64_t count, bytes;        /* what the command sums: calls or allocations, bytes */
    uint64_t total_ns, max_ns;
    struct rp_stack *own;         /* a site of rp_site_python: its stack, the Python frames, freed with it */
    const char *range;            /* analyze: the NVTX range of its first call (the trace's string), or NULL */
    int64_t first_t0;             /* analyze: its first call's time (report clock) */
};

struct rp_sites {
    struct rp_site *v;
    size_t n, cap;
    struct rp_strmap by_key;  /* label + stack key -> index */
    struct rp_u64map of_id;   /* (stack id, file << 16 | label id) -> index + 1 */
};

/* The site of stack `stack_id` of file `file` with `label` (label_id: a small number that stands for the
 * label, for the fast look-up); created empty on first sight.  NULL when out of memory.  The trace must be
 * symbolized (symbols/symbolize.h). */
struct rp_site *rp_site_of(struct rp_sites *s, const struct rp_trace *t, size_t file, uint32_t stack_id,
                           const char *label, uint32_t label_id);
/* The site of the innermost Python frame of user code in stack `stack_id` of file `file` (frames.h,
 * rp_py_user_frame): sites are that frame's file, line and function; the site's stack shows it and the
 * Python frames that called it, from the first stack seen.  Stacks without Python frames share one site
 * without a stack.  NULL when out of memory. */
struct rp_site *rp_site_python(struct rp_sites *s, const struct rp_trace *t, size_t file, uint32_t stack_id);
/* The site of `key` (as rp_site_of and rp_site_python make keys), created empty with a copy of `label` and
 * showing `stack` (not copied) on first sight: sites merged by content (analyze's parts).  NULL when out of
 * memory. */
struct rp_site *rp_site_keyed(struct rp_sites *s, const char *key, const char *label, const struct rp_stack *stack);
/* The live bytes and allocations of a detailed tracker (memory.h) by call site, sorted by bytes: by_python
 * groups by rp_site_python, else by whole stack; device_only: device memory's alone (what holds the peak of
 * device memory).  0, or -1 when out of memory. */
int rp_sites_of_memory(struct rp_sites *out, const struct rp_trace *t, const struct rp_memtrack *m, int by_python,
                       int device_only);
/* Sort by bytes, total time or count, descending; afterwards the sites can be read, no longer added to. */
void rp_sites_sort_bytes(struct rp_sites *s);
void rp_sites_sort_time(struct rp_sites *s);
void rp_sites_sort_count(struct rp_sites *s);
void rp_sites_free(struct rp_sites *s);

#endif
